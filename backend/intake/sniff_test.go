package intake

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/pdf"
)

// TestSniffPDF: a file is taken for a PDF only when it starts with the
// header, after nothing but a byte-order mark and white space.
func TestSniffPDF(t *testing.T) {
	tests := []struct {
		name, head, refused string // refused: what the refusal says; "" = taken
	}{
		{"header", "%PDF-1.7\n%âãÏÓ\n", ""},
		{"byte-order mark", "\xef\xbb\xbf%PDF-1.4\n", ""},
		{"white space", "\r\n \t\x00%PDF-1.4\n", ""},
		{"header after text", "my password is hunter2\n%PDF-1.4\n", `holds "%PDF-" after other text`},
		{"header in a comment of a script", "#!/bin/sh\n# %PDF-\necho hi\n", `holds "%PDF-" after other text`},
		{"no header", "just some text", "does not start as a PDF file does"},
		{"header without its dash", "%PDF1.4\n", "does not start as a PDF file does"},
		{"empty", "", "does not start as a PDF file does"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := sniffPDF("notes.pdf", []byte(tt.head))
			switch {
			case tt.refused == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.refused != "" && (err == nil || !strings.Contains(err.Error(), tt.refused)):
				t.Errorf("sniffPDF = %v, want a refusal saying %q", err, tt.refused)
			}
		})
	}
}

// TestAddTakesOnlyPDFsPDFiumOpens: a text file holding the header in its
// first kilobyte, or starting with it, is not added (the second because
// PDFium cannot open it); a real PDF with a byte-order mark before its
// header is.
func TestAddTakesOnlyPDFsPDFiumOpens(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "downloads")
	src := copyCorpus(t, dir, "paxos-made-simple.pdf")
	real, _ := os.ReadFile(src[0])
	marked := filepath.Join(dir, "marked.pdf")
	os.WriteFile(marked, append([]byte("\xef\xbb\xbf\n"), real...), 0o644)
	os.Remove(src[0])
	inside := filepath.Join(dir, "inside.pdf")
	os.WriteFile(inside, []byte("Wi-Fi password: hunter2\n%PDF-1.4\n"), 0o644)
	starts := filepath.Join(dir, "starts.pdf")
	os.WriteFile(starts, []byte("%PDF-1.4\nWi-Fi password: hunter2\n"), 0o644)
	root := t.TempDir()
	ex := pdf.NewExtractor(pdf.Options{CacheDir: filepath.Join(t.TempDir(), "wazero"), PDFium: os.Getenv("AGENTERO_PDFIUM")})
	defer ex.Close()
	rep, err := Add(ctx, root, []string{inside, starts, marked}, Options{Describe: PDFDescriber(ex)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Added) != 1 || rep.Added[0].File != marked {
		t.Errorf("added %+v, want the marked PDF alone", rep.Added)
	}
	why := map[string]string{}
	for _, it := range rep.Skipped {
		why[it.File] = it.Why
	}
	for file, want := range map[string]string{inside: `holds "%PDF-" after other text`, starts: "PDFium cannot open it"} {
		if !strings.Contains(why[file], want) {
			t.Errorf("%s: skipped because %q, want %q", filepath.Base(file), why[file], want)
		}
	}
}
