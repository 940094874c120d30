package workspace

import (
	"context"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/claim"
)

// CheckClaims checks the citations of a Markdown text — notes a researcher
// wrote, an exported answer — against the vault's pages (`agentero
// check`): the whole vault is granted, so no citation is outside.
func (w *Workspace) CheckClaims(ctx context.Context, md string) ([]citation.Check, error) {
	return call(ctx, w, func(ctx context.Context) ([]citation.Check, error) {
		return claim.Check(ctx, md, w.lib.DB(), claim.Options{Vault: w.Root()})
	})
}
