package agent

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQuestionParts(t *testing.T) {
	for _, tt := range []struct {
		q    string
		want []string
	}{
		{"why Merkle trees, and what is their main disadvantage?", []string{"why Merkle trees", "what is their main disadvantage"}},
		{"What is Raft? How does it elect a leader?", []string{"What is Raft", "How does it elect a leader"}},
		{"How do leader election and log replication work?", []string{"How do leader election and log replication work"}},
		{"Why are transactions hashed in a Merkle tree and how many bytes is a block header?", []string{"Why are transactions hashed in a Merkle tree", "how many bytes is a block header"}},
		{"Explain the abstract", []string{"Explain the abstract"}},
	} {
		if diff := cmp.Diff(tt.want, questionParts(tt.q)); diff != "" {
			t.Errorf("questionParts(%q) (-want +got):\n%s", tt.q, diff)
		}
	}
}
