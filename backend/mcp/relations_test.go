package mcp_test

import (
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/grant"
)

type relCardT struct {
	Title       string
	Year        int
	DOI         string
	ArxivID     string
	PaperPath   string
	MatchBy     string
	InGrant     bool
	CitationURI string
}

type relT struct {
	Ref        string
	References *[]relCardT
	CitedBy    *[]relCardT
	Related    *[]relCardT
	cutT
}

func find(cards *[]relCardT, ref string) *relCardT {
	if cards == nil {
		return nil
	}
	for i, c := range *cards {
		if c.PaperPath == ref {
			return &(*cards)[i]
		}
	}
	return nil
}

func TestRelations(t *testing.T) {
	g := usual()
	g.Allowed = append(g.Allowed, grant.Source{Kind: grant.KindPaper, Ref: mishra})
	s := start(t, g)

	t.Run("cited by, by title", func(t *testing.T) {
		var r relT
		s.ok("paper_relations", map[string]any{"ref": paxos, "kind": "citedBy"}, &r)
		if r.References != nil || r.Related != nil || r.CitedBy == nil {
			t.Fatalf("kind citedBy returned %+v", r)
		}
		rf := find(r.CitedBy, raft)
		if rf == nil || rf.MatchBy != "title" || !rf.InGrant || rf.CitationURI != pdfOf(raft) || rf.Title != "In Search of an Understandable Consensus Algorithm" {
			t.Errorf("raft card = %+v", rf)
		}
		mc := find(r.CitedBy, paxosMC)
		if mc == nil || mc.InGrant {
			t.Fatalf("paxos made moderately complex card = %+v, want it shown outside the grant", mc)
		}
		if find(r.CitedBy, paxos) != nil {
			t.Error("a paper cites itself")
		}
		// Shown on a card, but not readable in this turn.
		for _, ref := range []string{mc.PaperPath, mc.CitationURI, mc.CitationURI + "#page=1"} {
			if msg := s.fails("context_read", map[string]any{"ref": ref}); msg != grant.ErrRefused.Error() {
				t.Errorf("read %s: %q, want the refusal", ref, msg)
			}
		}
		if msg := s.fails("paper_relations", map[string]any{"ref": mc.PaperPath}); msg != grant.ErrRefused.Error() {
			t.Errorf("relations of an ungranted paper: %q", msg)
		}
	})

	t.Run("references and cited by, by arXiv id", func(t *testing.T) {
		var r relT
		s.ok("paper_relations", map[string]any{"ref": mishra, "kind": "references"}, &r)
		if c := find(r.References, attention); c == nil || c.MatchBy != "arxiv" || c.ArxivID != "1706.03762" || !c.InGrant {
			t.Errorf("mishra references attention: %+v in %+v", c, r.References)
		}
		r = relT{}
		s.ok("paper_relations", map[string]any{"ref": attention, "kind": "citedBy"}, &r)
		if c := find(r.CitedBy, mishra); c == nil || c.MatchBy != "arxiv" {
			t.Errorf("attention cited by mishra: %+v in %+v", c, r.CitedBy)
		}
	})

	t.Run("all kinds by default, never the paper itself", func(t *testing.T) {
		var r relT
		s.ok("paper_relations", map[string]any{"ref": raft}, &r)
		if r.References == nil || r.CitedBy == nil || r.Related == nil {
			t.Fatalf("want all three lists: %+v", r)
		}
		for _, l := range []*[]relCardT{r.References, r.CitedBy, r.Related} {
			if find(l, raft) != nil {
				t.Error("raft relates to itself")
			}
		}
		// Raft's reference list names Paxos Made Simple and Chubby.
		if find(r.References, paxos) == nil || find(r.References, chubby) == nil {
			t.Errorf("raft references: %+v", *r.References)
		}
		if len(*r.Related) == 0 {
			t.Error("no related papers for raft in a vault of consensus papers")
		}
		var few relT
		s.ok("paper_relations", map[string]any{"ref": raft, "kind": "related", "limit": 1}, &few)
		if few.Related == nil || len(*few.Related) != 1 {
			t.Errorf("limit 1: %+v", few.Related)
		}
	})

	t.Run("bad arguments", func(t *testing.T) {
		for name, args := range map[string]map[string]any{
			"unknown kind": {"ref": raft, "kind": "siblings"},
			"limit 0":      {"ref": raft, "limit": 0},
			"limit huge":   {"ref": raft, "limit": 100000},
			"a file":       {"ref": "notes/consensus/raft.md"},
			"a directory":  {"ref": "notes/consensus"},
			"no ref":       {},
		} {
			msg := s.fails("paper_relations", args)
			if strings.Contains(msg, "siblings") {
				t.Errorf("%s: error echoes the input: %q", name, msg)
			}
		}
	})
}
