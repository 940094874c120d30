package pdf

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseXMP(t *testing.T) {
	tests := []struct {
		name   string
		packet string
		want   Info
	}{
		{
			name: "elements with rdf lists",
			packet: `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/"
   xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
 <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Implementing the Omega
   failure detector</rdf:li></rdf:Alt></dc:title>
 <dc:creator><rdf:Seq><rdf:li>Cristian Martín</rdf:li><rdf:li>Mikel Larrea</rdf:li></rdf:Seq></dc:creator>
 <dc:description><rdf:Alt><rdf:li xml:lang="x-default">J. Comput. Syst. Sci. 75</rdf:li></rdf:Alt></dc:description>
 <prism:doi>10.1016/J.JCSS.2008.10.002</prism:doi>
 <xmp:CreateDate>2009-01-12T10:00:00+01:00</xmp:CreateDate>
 <xmp:CreatorTool>Elsevier</xmp:CreatorTool>
 <pdf:Producer>Acrobat Distiller 8.1.0</pdf:Producer>
 <pdf:Keywords>failure detectors; crash-recovery</pdf:Keywords>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`,
			want: Info{
				Title:        "Implementing the Omega failure detector",
				Author:       "Cristian Martín, Mikel Larrea",
				Subject:      "J. Comput. Syst. Sci. 75",
				Keywords:     "failure detectors; crash-recovery",
				Creator:      "Elsevier",
				Producer:     "Acrobat Distiller 8.1.0",
				CreationYear: 2009,
				DOI:          "10.1016/j.jcss.2008.10.002",
			},
		},
		{
			name: "attributes",
			packet: `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
   xmlns:xmp="http://ns.adobe.com/xap/1.0/"
   pdfx:doi="https://doi.org/10.1145/2815400.2815428" pdf:Producer="pdfTeX-1.40.17" xmp:CreateDate="2015-08-01"/>
</rdf:RDF></x:xmpmeta>`,
			want: Info{Producer: "pdfTeX-1.40.17", CreationYear: 2015, DOI: "10.1145/2815400.2815428"},
		},
		{
			name: "doi from dc:identifier, file-name title dropped",
			packet: `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/">
 <dc:title><rdf:Alt><rdf:li>timeoutcdf.eps</rdf:li></rdf:Alt></dc:title>
 <dc:identifier>doi:10.1016/S0167-9473(02)00123-4</dc:identifier>
</rdf:Description></rdf:RDF></x:xmpmeta>`,
			want: Info{DOI: "10.1016/s0167-9473(02)00123-4"},
		},
		{
			name:   "no known properties",
			packet: `<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`,
			want:   Info{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseXMP([]byte(tt.packet))
			if err != nil {
				t.Fatalf("parseXMP: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parseXMP (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseXMPMalformed(t *testing.T) {
	if _, err := parseXMP([]byte("<x:xmpmeta><rdf:RDF>")); err == nil {
		t.Error("parseXMP of a cut packet succeeded, want an error")
	}
}

func FuzzParseXMP(f *testing.F) {
	f.Add([]byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"/>`))
	f.Add([]byte(`<a xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><b><li>t</li></b></dc:title></a>`))
	f.Fuzz(func(t *testing.T, packet []byte) {
		_, _ = parseXMP(packet) // must not panic
	})
}

func TestNormalizeDOI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"10.1016/J.JCSS.2008.10.002", "10.1016/j.jcss.2008.10.002"},
		{"https://doi.org/10.1145/3458723", "10.1145/3458723"},
		{"http://dx.doi.org/10.1145/3458723", "10.1145/3458723"},
		{"doi:10.18653/v1/N19-1423", "10.18653/v1/n19-1423"},
		{" 10.5281/zenodo.1 ", "10.5281/zenodo.1"},
		{"", ""},
		{"not a doi", ""},
		{"10.1145", ""},
		{"10.1145/a b", ""},
	}
	for _, tt := range tests {
		if got := normalizeDOI(tt.in); got != tt.want {
			t.Errorf("normalizeDOI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPlausibleTitle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Paxos Made Simple", "Paxos Made Simple"},
		{"paper.dvi", ""},
		{"rackawareness.eps", ""},
		{"Microsoft Word - History", ""},
		{"arXiv:quant-ph/9508027v2 25 Jan 1996", ""},
		{"Untitled", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := plausibleTitle(tt.in); got != tt.want {
			t.Errorf("plausibleTitle(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPDFDateYear(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"D:20140520103000+02'00'", 2014},
		{"20091231", 2009},
		{"2015-08-01T00:00:00Z", 2015},
		{"D:", 0},
		{"D:x2014", 0},
		{"Thu May  3 21:55:42 2012", 2012}, // a ctime date, as some producers write
		{"03/05/2012 10:00", 2012},
		{"from 1999 to 2004", 0},
		{"yesterday", 0},
		{"", 0},
	}
	for _, tt := range tests {
		if got := pdfDateYear(tt.in); got != tt.want {
			t.Errorf("pdfDateYear(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// TestReadXMPCorpus reads the XMP of a real paper through pdfcpu, without the
// Info dictionary.
func TestReadXMPCorpus(t *testing.T) {
	f, err := os.Open(corpusFile(t, "implementing-the-omega-failure-detector-in-crash-recovery-failure-model.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var info Info
	readXMP(t.Context(), f, &info, slog.New(slog.DiscardHandler))
	if got, want := info.DOI, "10.1016/j.jcss.2008.10.002"; got != want {
		t.Errorf("DOI = %q, want %q", got, want)
	}
	if got, want := info.Title, "Implementing the Omega failure detector in the crash-recovery failure model"; got != want {
		t.Errorf("Title = %q, want %q", got, want)
	}
}

// TestPlainXMPAgreesWithPdfcpu checks, on every corpus paper, that the XMP
// packet found in the raw file (when one is taken) reads as the catalog's
// metadata stream does through pdfcpu, and counts how often it is taken.
func TestPlainXMPAgreesWithPdfcpu(t *testing.T) {
	taken := 0
	rows := readManifest(t)
	for _, row := range rows {
		f, err := os.Open(filepath.Join(corpusDir, row.file))
		if err != nil {
			t.Fatal(err)
		}
		plain, ok := plainXMP(f)
		full, err := xmpPacket(t.Context(), f)
		f.Close()
		if !ok {
			continue
		}
		taken++
		if plain == nil {
			if full != nil {
				t.Errorf("%s: no metadata was found plain, but pdfcpu finds the catalog's", row.file)
			}
			continue
		}
		if err != nil || full == nil {
			t.Errorf("%s: a plain packet was taken, but pdfcpu finds no catalog metadata (%v)", row.file, err)
			continue
		}
		a, errA := parseXMP(plain)
		b, errB := parseXMP(full)
		if errA != nil || errB != nil || a != b {
			t.Errorf("%s: plain packet reads %+v (%v), the catalog's %+v (%v)", row.file, a, errA, b, errB)
		}
	}
	t.Logf("settled without pdfcpu for %d of %d papers", taken, len(rows))
	if taken == 0 {
		t.Error("no paper's packet was found plain; the fast path never runs")
	}
}

// TestPlainXMPWithoutMetadata checks when raw bytes settle that a file has
// no metadata stream: without a /Metadata name, and either without object
// streams (every dictionary is plain) or without /XML (the stream's own
// dictionary, never compressed, would name one or the other).
func TestPlainXMPWithoutMetadata(t *testing.T) {
	for _, c := range []struct {
		name, data string
		ok         bool
	}{
		{"plain dictionaries", "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj", true},
		{"object streams, no XML", "%PDF-1.5\n5 0 obj << /Type /ObjStm /N 3 /Filter /FlateDecode >> stream\nx\nendstream", true},
		{"object streams, an XML stream", "%PDF-1.5\n5 0 obj << /Type /ObjStm >> stream\nx\nendstream\n7 0 obj << /Subtype /XML /Length 1 >> stream", false},
		{"object streams, a metadata key", "%PDF-1.5\n5 0 obj << /Type /ObjStm >> stream\nx\nendstream /Metadata 7 0 R", false},
		{"plain metadata key", "%PDF-1.4\n1 0 obj << /Type /Catalog /Metadata 7 0 R >> endobj", false},
	} {
		packet, ok := plainXMP(strings.NewReader(c.data))
		if ok != c.ok || packet != nil {
			t.Errorf("%s: plainXMP = %q, %v; want nil, %v", c.name, packet, ok, c.ok)
		}
	}
}
