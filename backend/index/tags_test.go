package index

import (
	"slices"
	"testing"
)

// TestMetadataTags reads the tags the library filters on from a stored
// metadata.json: a list, a comma-separated string, or nothing usable.
func TestMetadataTags(t *testing.T) {
	for _, tt := range []struct {
		metadata string
		want     []string
	}{
		{`{"tags":["consensus"," crypto ",""]}`, []string{"consensus", "crypto"}},
		{`{"tags":"consensus, crypto,,"}`, []string{"consensus", "crypto"}},
		{`{"tags":3}`, []string{}},
		{`{"title":"x"}`, []string{}},
		{`not json`, []string{}},
	} {
		if got := metadataTags(tt.metadata); !slices.Equal(got, tt.want) {
			t.Errorf("metadataTags(%s) = %q, want %q", tt.metadata, got, tt.want)
		}
	}
}
