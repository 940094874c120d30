package agent

import (
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/citation"
)

func TestKeywords(t *testing.T) {
	tests := []struct {
		question, want string
	}{
		{"How do nodes agree on a leader after a crash?", "nodes agree leader crash"},
		{"Why does probabilistic counting use hashing?", "probabilistic counting hashing"},
		{"Explain what the paper says about Byzantine fault-tolerance", "Byzantine fault tolerance"},
		{"What does it say?", "What does it say?"}, // nothing but stop words: kept whole
	}
	for _, tt := range tests {
		if got := keywords(tt.question); got != tt.want {
			t.Errorf("keywords(%q) = %q, want %q", tt.question, got, tt.want)
		}
	}
}

// TestQuoted: a passage's citation is its page's with the passage as its
// quote, as package citation writes it (the page's label kept, a long
// passage cut at a word); what is no vault citation is kept as given.
func TestQuoted(t *testing.T) {
	long := strings.Repeat("consensus ", 200)
	tests := []struct {
		uri, passage, want string
	}{
		{"papers/raft/raft.pdf#page=6", "Raft uses randomized\nelection timeouts.", "papers/raft/raft.pdf#page=6&quote=Raft+uses+randomized+election+timeouts."},
		{"papers/my raft/raft.pdf#page=6&label=iv", "Split votes are rare.", "papers/my%20raft/raft.pdf#page=6&label=iv&quote=Split+votes+are+rare."},
		{"notes/coins.md", "Coins are old.", "notes/coins.md#quote=Coins+are+old."},
		{"papers/raft/raft.pdf#page=2&region=72,90.5,300,200", "Replicated state machines.", "papers/raft/raft.pdf#page=2&region=72,90.5,300,200&quote=Replicated+state+machines."},
		{"https://doi.org/10.1/x", "Coins are old.", "https://doi.org/10.1/x"},
		{"not a citation#x", "Coins are old.", "not a citation#x"},
	}
	for _, tt := range tests {
		if got := quoted(tt.uri, tt.passage); got != tt.want {
			t.Errorf("quoted(%q, %q) = %q, want %q", tt.uri, tt.passage, got, tt.want)
		}
	}
	u, err := citation.Parse(quoted("papers/raft/raft.pdf#page=6", long))
	if err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(u.Quote)); n > citation.MaxQuote || !strings.HasPrefix(long, u.Quote) || strings.HasSuffix(u.Quote, " ") {
		t.Errorf("a long passage's quote: %d characters, %q…", n, u.Quote[:40])
	}
}
