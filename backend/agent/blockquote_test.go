package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/internal/corpustest"
)

// TestBlockquoteWithoutSelection: the vault's AGENTS.md holds "> "
// blockquotes and the turn has no selection. The answer never speaks of a
// passage the user selected: a selection comes only from the plan's
// selection block (wire.SelectionHead), never from a "> " line elsewhere.
func TestBlockquoteWithoutSelection(t *testing.T) {
	corpustest.NeedCorpus(t)
	root := corpustest.Vault(t, "bitcoin.pdf")
	guidance := "# How to answer\n\n> We define an electronic coin as a chain of digital signatures.\n> Quote the passage you selected first.\n\nBe brief.\n"
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte(guidance), 0o644); err != nil {
		t.Fatal(err)
	}
	v := indexVault(t, root)
	for _, remote := range []bool{false, true} {
		req := sidebar(bitcoin)
		req.Remote = remote
		a := v.ask(t, req, "What is an electronic coin?")
		for _, never := range []string{"your selection", "you selected", "Starting from your selection"} {
			if strings.Contains(a.text, never) {
				t.Errorf("remote=%v: with no selection the answer says %q:\n%s", remote, never, a.text)
			}
		}
	}
}
