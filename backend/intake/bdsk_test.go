package intake

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// Bdsk-File fields as BibDesk writes them (the starts of real ones: the
// plain form, the keyed-archiver form of older BibDesk, and a UTF-16 path
// written decomposed), cut to whole base64 quads after the path.
var bdskFields = []struct{ field, path string }{
	{"YnBsaXN0MDDSAQIDBFxyZWxhdGl2ZVBhdGhZYWxpYXNEYXRhXxBAcGFwZXJzL0JlcmcvVGhlIG11bHRpcGxlIGJvZGllcyBvZiB0aGUgbWVkaWNhbCByZWNvcmQgVG93YXJkLnBkZk8RAfAAAAAAAfAAAgAABk1hY09TWAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABCRAAB/////x9UaGUgbXVsdGlwbGUgYm9kaWUjRkZGRkZGRkYucGRmAAAA",
		"papers/Berg/The multiple bodies of the medical record Toward.pdf"},
	{"YnBsaXN0MDDUAQIDBAUGJCVYJHZlcnNpb25YJG9iamVjdHNZJGFyY2hpdmVyVCR0b3ASAAGGoKgHCBMUFRYaIVUkbnVsbNMJCgsMDxJXTlMua2V5c1pOUy5vYmplY3RzViRjbGFzc6INDoACgAOiEBGABIAFgAdccmVsYXRpdmVQYXRoWWFsaWFzRGF0YV8QXEJpYmxpb2dyYXBoeS9hcnRpY2xlL0J1ZXR0bmVyL0Egbm92ZWwgYXBwcm9hY2ggZm9yIHJlc29sdmluZyBkaWZmZXJlbmNlcyBpbiBzaW5nbGUtY2VsbDAucGRm0hcLGBlXTlMuZGF0YU8RAnIAAAAAAnIAAgAADE1h",
		"Bibliography/article/Buettner/A novel approach for resolving differences in single-cell0.pdf"},
	{"YnBsaXN0MDDSAQIDBFxyZWxhdGl2ZVBhdGhZYWxpYXNEYXRhbxAaAEcAbwMIAHQAYgBlAHIAZwAvAEcAbwMIAHQAYgBlAHIAZwBfADIAMAAyADMALgBwAGQAZk8RAdIAAAAAAdIAAgAADE1hY2ludG9zaCBIRAAA",
		norm.NFC.String("Götberg/Götberg_2023.pdf")},
	{"YnBsaXN0MDDSAQIDBFxyZWxhdGl2ZVBhdGg=", ""}, // no path
	{"not base64 at all", ""},
}

func TestBdskPath(t *testing.T) {
	for _, c := range bdskFields {
		if got := bdskPath(c.field); got != c.path {
			t.Errorf("bdskPath(%.30s…) = %q, want %q", c.field, got, c.path)
		}
	}
}

// TestBibFileBibDesk: a BibDesk entry's PDF is found relative to the .bib
// file, also when the disk has the name decomposed (a folder from a Mac).
func TestBibFileBibDesk(t *testing.T) {
	dir := t.TempDir()
	want := fakePDF(t, filepath.Join(dir, norm.NFD.String("Götberg"), norm.NFD.String("Götberg_2023.pdf")))
	fields := map[string]string{"bdsk-file-1": bdskFields[2].field}
	if got, why := bibFile(fileField(fields), dir); got != want {
		t.Errorf("bibFile = %q, %q; want %q", got, why, want)
	}
	local := fakePDF(t, filepath.Join(dir, "old style.pdf"))
	if got, _ := bibFile(fileField(map[string]string{"local-url": "file://localhost" + filepath.ToSlash(dir) + "/old%20style.pdf"}), dir); got != local {
		t.Errorf("Local-Url: %q, want %q", got, local)
	}
	if _, err := os.Stat(want); err != nil {
		t.Fatal(err)
	}
}
