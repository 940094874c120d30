package intake

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/internal/corpustest"
)

// The extractor the preview is given reads page 1 alone: else
// PDFHeadDescriber would read whole documents and the test below compare
// a reading with itself.
var _ HeadExtractor = (*pdf.Extractor)(nil)

// TestHeadDescriberCorpus: what page 1 (with Info and XMP) says of each
// corpus PDF, as the loose-folder preview reads it, is what the whole
// document says: the same title, authors, year, DOI and arXiv id, and so
// the same folder name. The abstract is not among them: a paper may print
// it on page 2 (Paxos Made Simple does), and the preview only names
// papers; Add reads the whole document.
func TestHeadDescriberCorpus(t *testing.T) {
	dir := corpustest.NeedCorpus(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if len(files) < 40 {
		t.Fatalf("%d corpus PDFs, want the 41 of the shared corpus", len(files))
	}
	ex := pdf.NewExtractor(pdf.Options{Workers: 1, CacheDir: filepath.Join(t.TempDir(), "wazero"), PDFium: os.Getenv("AGENTERO_PDFIUM")})
	defer ex.Close()
	whole, head := PDFDescriber(ex), PDFHeadDescriber(ex)
	titled := 0
	for _, file := range files {
		name := filepath.Base(file)
		w, err := whole(t.Context(), file)
		if err != nil {
			t.Errorf("%s: whole reading: %v", name, err)
			continue
		}
		h, err := head(t.Context(), file)
		if err != nil {
			t.Errorf("%s: page-1 reading: %v", name, err)
			continue
		}
		if w.Title != "" {
			titled++
		}
		if h.Abstract != "" && h.Abstract != w.Abstract {
			t.Errorf("%s: page 1's abstract %q, the whole document's %q", name, h.Abstract, w.Abstract)
		}
		h.Abstract, w.Abstract = "", ""
		if !reflect.DeepEqual(h, w) {
			t.Errorf("%s: page 1 says\n  %+v\nthe whole document\n  %+v", name, h, w)
		}
		if hs, ws := slug(h.Authors, h.Year, h.Title, name), slug(w.Authors, w.Year, w.Title, name); hs != ws {
			t.Errorf("%s: folder %s from page 1, %s from the whole document", name, hs, ws)
		}
	}
	if titled < len(files)*3/4 {
		t.Errorf("only %d of %d PDFs have a title: the comparison says little", titled, len(files))
	}
}
