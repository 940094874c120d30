package refs

import (
	"testing"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/index"
)

// A card's citation URI is written by package citation: a library paper's
// PDF whatever its name holds, read back as that file.
func TestCardCitation(t *testing.T) {
	for _, pdf := range []string{"papers/raft/raft.pdf", "papers/my paper (2020)/draft #2.pdf", "papers/a&b/x?y.pdf"} {
		c := libraryCard(index.Paper{Ref: "papers/x", PDFPath: pdf}, ByDOI)
		u, err := citation.Parse(c.CitationURI)
		if err != nil || u.Path != pdf || u.Page != 0 {
			t.Errorf("card of %q: citationUri %q reads as %+v, %v", pdf, c.CitationURI, u, err)
		}
	}
	for _, c := range []Citation{{DOI: "10.1145/357172.357176"}, {ArxivID: "1706.03762"}} {
		uri := externalCard(c).CitationURI
		if u, err := citation.Parse(uri); err != nil || !u.External() {
			t.Errorf("card of %+v: citationUri %q is no external citation: %v", c, uri, err)
		}
	}
}
