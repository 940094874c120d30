package outline

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/quote"
	"github.com/agentero/agentero/internal/corpustest"
)

// TestCorpusSections: every corpus paper of 6 pages or more with a text
// layer has at least 4 sections, each titled as printed at its offset on
// its page; the share of such papers is printed, with a floor of 90 %.
// Most of these papers have no outline, so this is mostly detection.
func TestCorpusSections(t *testing.T) {
	rows := corpustest.Manifest(t)
	ex := pdf.NewExtractor(pdf.Options{})
	defer ex.Close()
	good, total, detected := 0, 0, 0
	for _, row := range rows {
		pages, _ := strconv.Atoi(row["pages"])
		if pages < 6 || row["text_extracts"] != "yes" {
			continue
		}
		total++
		doc, err := ex.Extract(context.Background(), filepath.Join(corpustest.Dir(), row["file"]))
		if err != nil {
			t.Errorf("%s: %v", row["file"], err)
			continue
		}
		secs, src := Sections(doc)
		if src == FromHeadings {
			detected++
		}
		var wrong []string
		for _, s := range secs {
			if msg := checkOnPage(doc, s); msg != "" {
				wrong = append(wrong, msg)
			}
		}
		switch {
		case len(secs) < 4:
			t.Logf("%s: %d sections (%s), want at least 4", row["file"], len(secs), src)
		case len(wrong) > 0:
			t.Errorf("%s: sections not on their pages: %s", row["file"], strings.Join(wrong, "; "))
		default:
			good++
		}
	}
	t.Logf("sections: %d of %d papers of 6 pages or more with text have at least 4, each on its page (%d from headings)", good, total, detected)
	if total == 0 {
		t.Fatal("no corpus paper of 6 pages or more")
	}
	if good*10 < total*9 {
		t.Errorf("sections for %d of %d papers, want at least 90 %%", good, total)
	}
}

// checkOnPage says what is wrong with where s says it starts: its title
// must begin at its offset on its page (case, spacing and hyphens aside).
func checkOnPage(doc *pdf.Document, s Section) string {
	if s.Page < 1 || s.Page > len(doc.Pages) {
		return s.Title + ": no page " + strconv.Itoa(s.Page)
	}
	r := []rune(doc.Pages[s.Page-1].Text)
	if s.Offset < 0 || s.Offset > len(r) {
		return s.Title + ": offset out of the page"
	}
	if !strings.HasPrefix(quote.Fold(string(r[s.Offset:])), quote.Fold(s.Title)) {
		return s.Title + " is not at offset " + strconv.Itoa(s.Offset) + " of page " + strconv.Itoa(s.Page)
	}
	return ""
}
