package index_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/agentero/agentero/internal/corpustest"
)

// citeRow is what the metadata test reads of a manifest row.
type citeRow struct {
	File, Title, FirstAuthor, Layout string
	Year                             int
}

func citeRows(t *testing.T) []citeRow {
	t.Helper()
	var out []citeRow
	for _, r := range corpustest.Manifest(t) {
		y, _ := strconv.Atoi(r["year"])
		out = append(out, citeRow{File: r["file"], Title: r["title"], FirstAuthor: r["first_author"], Layout: r["layout"], Year: y})
	}
	return out
}

// TestCorpusMetadata checks the metadata the index derives for the corpus's
// papers, with no metadata.json, against the manifest: every title that
// can be read (all but the image-only scan, whose only text is its file
// name), and first authors and years for most papers. Misses are listed.
func TestCorpusMetadata(t *testing.T) {
	_, db, _ := indexedCorpus(t)
	ctx := context.Background()
	var titleMiss, authorMiss, yearMiss []string
	authors, years, titles := 0, 0, 0
	for _, r := range citeRows(t) {
		p, err := db.Paper(ctx, refOf(r.File))
		if err != nil {
			t.Fatalf("%s: %v", r.File, err)
		}
		if !strings.HasPrefix(r.Layout, "image-only") {
			titles++
			if normTitle(p.Title) != normTitle(r.Title) {
				titleMiss = append(titleMiss, r.File+": "+strconv.Quote(p.Title)+" from "+p.TitleSource+", want "+strconv.Quote(r.Title))
			}
		}
		if r.FirstAuthor != "" {
			authors++
			got := ""
			if len(p.Authors) > 0 {
				got = p.Authors[0]
			}
			if !corpustest.SamePerson(got, r.FirstAuthor) {
				authorMiss = append(authorMiss, r.File+": "+strconv.Quote(got)+", want "+strconv.Quote(r.FirstAuthor))
			}
		}
		if r.Year != 0 {
			years++
			if p.Year != r.Year {
				yearMiss = append(yearMiss, r.File+": "+strconv.Itoa(p.Year)+", want "+strconv.Itoa(r.Year))
			}
		}
	}
	report := func(what string, miss []string, of int) float64 {
		right := float64(of-len(miss)) / float64(of)
		t.Logf("%s right for %d of %d papers (%.1f %%)", what, of-len(miss), of, 100*right)
		for _, m := range miss {
			t.Logf("  %s miss: %s", what, m)
		}
		return right
	}
	if report("title", titleMiss, titles) < 1 {
		t.Errorf("titles: %d of %d differ from the manifest:\n%s", len(titleMiss), titles, strings.Join(titleMiss, "\n"))
	}
	if report("first author", authorMiss, authors) < 0.9 {
		t.Errorf("first authors right for fewer than 90 %% of the papers:\n%s", strings.Join(authorMiss, "\n"))
	}
	// These are the years the papers give themselves. Where a paper only
	// dates its copy (a draft's date line, the PDF's creation date) the
	// library shows the year the library's papers cite it by, once the
	// references are synced: refs' TestCorpusYears holds those to 90 %.
	// This floor is what the papers alone give today, so that a
	// regression fails.
	if report("year", yearMiss, years) < 0.87 {
		t.Errorf("years right for fewer than 87 %% of the papers:\n%s", strings.Join(yearMiss, "\n"))
	}
}
