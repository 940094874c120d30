package text_test

import (
	"testing"

	"github.com/agentero/agentero/backend/text"
)

func TestStem(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// Porter's own examples and the reference vocabulary's output.
		{"caresses", "caress"}, {"ponies", "poni"}, {"cats", "cat"}, {"feed", "feed"}, {"agreed", "agre"},
		{"plastered", "plaster"}, {"bled", "bled"}, {"motoring", "motor"}, {"sing", "sing"}, {"hopping", "hop"},
		{"falling", "fall"}, {"filing", "file"}, {"happy", "happi"}, {"sky", "sky"}, {"relational", "relat"},
		{"conditional", "condit"}, {"generalizations", "gener"}, {"oscillators", "oscil"}, {"hopeful", "hope"},
		{"goodness", "good"}, {"probate", "probat"}, {"controlling", "control"}, {"adjustable", "adjust"},
		{"replacement", "replac"}, {"adoption", "adopt"}, {"effective", "effect"}, {"roll", "roll"},
		// What the claim check needs to meet.
		{"election", "elect"}, {"elections", "elect"}, {"elected", "elect"}, {"elects", "elect"},
		{"randomized", "random"}, {"randomly", "random"}, {"random", "random"},
		{"replication", "replic"}, {"replicated", "replic"}, {"replicas", "replica"},
		// Left as they are.
		{"ms", "ms"}, {"2014", "2014"}, {"gpt3", "gpt3"}, {"naïve", "naïve"}, {"", ""},
	} {
		if got := text.Stem(tc.in); got != tc.want {
			t.Errorf("Stem(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
