package workspace

import "testing"

// The save dialog's suggested name is the conversation's words: no "…"
// (the title's cut), no quotes or slashes, at most 60 characters.
func TestFileName(t *testing.T) {
	for _, tt := range []struct{ title, want string }{
		{"Why Merkle trees, and what is their main disadvantage?", "Why Merkle trees and what is their main disadvantage"},
		{"What does “proof-of-stake” mean in papers/peercoin…", "What does proof-of-stake mean in papers peercoin"},
		{"How is a leader elected in Raft when the cluster has five servers and one of them fails…", "How is a leader elected in Raft when the cluster has five"},
		{"…?!", "conversation"},
	} {
		if got := exportFileName(tt.title); got != tt.want {
			t.Errorf("exportFileName(%q) = %q, want %q", tt.title, got, tt.want)
		}
	}
}
