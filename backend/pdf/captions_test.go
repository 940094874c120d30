package pdf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCaptionLabel(t *testing.T) {
	for _, tc := range []struct {
		line, kind, label string
		strength          int
	}{
		{"Figure 3: Results on the test set.", KindFigure, "Figure 3", 2},
		{"Fig. 2. Overview of the system", KindFigure, "Figure 2", 2},
		{"FIG. 4. Layout", KindFigure, "Figure 4", 2},
		{"TABLE II", KindTable, "Table II", 2},
		{"Table 2. Comparison with the state of the art", KindTable, "Table 2", 2},
		{"Table 3.1: Truth tables", KindTable, "Table 3.1", 2},
		{"Figure 3 | Scaling of the model", KindFigure, "Figure 3", 2},
		{"Figure 3 Results of the ablation", KindFigure, "Figure 3", 1},
		{"Figure 3 shows the results", "", "", 0},
		{"Table 2 lists the settings", "", "", 0},
		{"as shown in Figure 3.", "", "", 0},
		{"Fig. 4(a) and (b)", "", "", 0},
		{"Figure I: not a roman figure", "", "", 0},
		{"Figures 3 and 4 show", "", "", 0},
	} {
		t.Run(tc.line, func(t *testing.T) {
			kind, label, s := captionLabel(tc.line)
			if kind != tc.kind || label != tc.label || s != tc.strength {
				t.Errorf("captionLabel(%q) = %q, %q, %d; want %q, %q, %d", tc.line, kind, label, s, tc.kind, tc.label, tc.strength)
			}
		})
	}
}

// TestCaptionsCorpus: figures' and tables' captions are found on their
// page of corpus papers set in one and two columns, with the caption's
// text as printed there, and a region on the page that holds the caption
// and reaches past it to what it labels (above a figure's caption; on
// either side of a table's). An in-text "Table 2 shows" on an earlier
// page is not Table 2's caption.
func TestCaptionsCorpus(t *testing.T) {
	e := newTestExtractor(t, Options{Workers: 1, PDFium: NativePDFium()})
	for _, tc := range []struct {
		file   string
		page   int
		label  string
		prefix string
	}{
		{"1706.03762.pdf", 3, "Figure 1", "Figure 1: The Transformer - model architecture."},
		{"1706.03762.pdf", 6, "Table 1", "Table 1: Maximum path lengths, per-layer complexity"},
		{"in-search-of-an-understandable-consensus-algorithm.pdf", 2, "Figure 1", "Figure 1: Replicated state machine architecture."},
		{"vit.pdf", 5, "Table 1", "Table 1: Details of Vision Transformer model variants."},
		{"vit.pdf", 6, "Table 2", "Table 2: Comparison with state of the art"},
		{"zookeeper-wait-free-coordination-for-internet-scale-systems.pdf", 7, "Figure 2", "Figure 2: Workload for one ZK server"},
		{"zookeeper-wait-free-coordination-for-internet-scale-systems.pdf", 7, "Figure 3", "Figure 3: The layout of Yahoo! Message Broker"},
		{"resnet.pdf", 2, "Figure 2", "Figure 2. Residual learning: a building block."},
		{"shors_algorithm.pdf", 9, "Table 3.1", "Table 3.1: Truth tables for Toffoli and Fredkin gates."},
	} {
		t.Run(tc.file+" "+tc.label, func(t *testing.T) {
			path := filepath.Join(corpusDir, tc.file)
			doc, err := e.Extract(t.Context(), path)
			if err != nil {
				t.Fatal(err)
			}
			var c *Caption
			for i := range doc.Captions {
				if doc.Captions[i].Label == tc.label {
					c = &doc.Captions[i]
				}
			}
			if c == nil {
				t.Fatalf("no caption %q among %d", tc.label, len(doc.Captions))
			}
			if c.Page != tc.page || !strings.HasPrefix(c.Text, tc.prefix) {
				t.Fatalf("%s on page %d reads %q; want page %d, %q", tc.label, c.Page, c.Text, tc.page, tc.prefix)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			pcs, err := e.Chars(t.Context(), f, []int{c.Page})
			if err != nil {
				t.Fatal(err)
			}
			pc := pcs[0]
			if !strings.Contains(strings.Join(strings.Fields(pc.Text), " "), tc.prefix) {
				t.Errorf("page %d's text does not hold %q", c.Page, tc.prefix)
			}
			b, r := c.Box, c.Region
			if r.X < 0 || r.Y < 0 || r.X+r.Width > pc.Width+0.1 || r.Y+r.Height > pc.Height+0.1 {
				t.Errorf("region %+v is not inside the page (%v × %v)", r, pc.Width, pc.Height)
			}
			if b.X < r.X || b.Y < r.Y || b.X+b.Width > r.X+r.Width+0.1 || b.Y+b.Height > r.Y+r.Height+0.1 {
				t.Errorf("region %+v does not hold the caption %+v", r, b)
			}
			above, below := b.Y-r.Y, (r.Y+r.Height)-(b.Y+b.Height)
			if c.Kind == KindFigure && above < 40 || c.Kind == KindTable && max(above, below) < 20 {
				t.Errorf("%s: the region %+v reaches %.0f pt above the caption %+v and %.0f below: it labels nothing", c.Kind, r, above, b, below)
			}
			if r.Height > 0.9*pc.Height {
				t.Errorf("region %+v is about the whole page", r)
			}
		})
	}
}
