package agent

import (
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/context/wire"
)

// TestSelectionBlockIsTheContract: the plan renderer writes a selection
// with wire's markers, and the agent reads exactly that block back.
func TestSelectionBlockIsTheContract(t *testing.T) {
	sel := plan.Card{Kind: "paper", Ref: "papers/raft", Title: "Raft", Page: 5, Quote: "line one\nline two", CitationURI: "papers/raft/raft.pdf#page=5"}
	text := rendered(grant.ModeMCP, sel)
	for _, want := range []string{wire.PlanOpen + "\n", "\n" + wire.SelectionHead + "\n", "\n" + wire.SelectionLine + "line one\n", wire.CardSource + sel.CitationURI, wire.PlanClose} {
		if !strings.Contains(text, want) {
			t.Fatalf("the rendered plan lacks %q:\n%s", want, text)
		}
	}
	tc := parseTurn([]string{text, "q"})
	if s := tc.selections(); len(s) != 1 || s[0].quote != sel.Quote {
		t.Fatalf("selections read back: %+v", s)
	}
	// The same quote outside the selection block is no selection.
	noBlock := strings.Replace(text, wire.SelectionHead+"\n", "", 1)
	if s := parseTurn([]string{noBlock, "q"}).selections(); len(s) != 0 {
		t.Fatalf("\"> \" lines outside a selection block were read as a selection: %+v", s)
	}
}
