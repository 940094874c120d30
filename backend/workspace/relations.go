package workspace

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/refs"
)

// Relations are a paper's references, the library papers citing it, and
// related papers. A kind that was not asked for is nil.
type Relations struct {
	References []refs.Card `json:"references"`
	CitedBy    []refs.Card `json:"citedBy"`
	Related    []refs.Card `json:"related"`
}

// Relations lists up to limit cards of each kind asked for (all three when
// none is named) for the library paper ref.
func (w *Workspace) Relations(ctx context.Context, ref string, limit int, kinds ...refs.Kind) (*Relations, error) {
	if len(kinds) == 0 {
		kinds = refs.Kinds
	}
	return call(ctx, w, func(ctx context.Context) (*Relations, error) {
		out := &Relations{}
		for _, k := range kinds {
			cards, err := refs.Relations(ctx, w.lib.DB(), ref, k, limit)
			if errors.Is(err, index.ErrNotFound) {
				return nil, notFound(fmt.Errorf("no paper %s in the vault", ref))
			}
			if err != nil {
				return nil, err
			}
			switch k {
			case refs.References:
				out.References = cards
			case refs.CitedBy:
				out.CitedBy = cards
			case refs.Related:
				out.Related = cards
			}
		}
		return out, nil
	})
}

// SyncRelations brings the reference lists and the cited-by scan up to
// date (Sync does it too); with writeSidecars, each paper's list is also
// written to its source/agentero-cite.json.
func (w *Workspace) SyncRelations(ctx context.Context, writeSidecars bool) error {
	_, err := call(ctx, w, func(ctx context.Context) (refs.Stats, error) {
		return w.lib.SyncRelations(ctx, writeSidecars)
	})
	return err
}
