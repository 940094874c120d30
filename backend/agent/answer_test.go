package agent

import "testing"

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
