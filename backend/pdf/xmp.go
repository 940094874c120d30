package pdf

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// maxXMPBytes bounds the decoded XMP packet; real ones are a few KiB.
const maxXMPBytes = 1 << 20

// readXMP fills the fields of info that are still empty from the document's
// XMP metadata stream (plainXMP, else read with pdfcpu). A file pdfcpu
// cannot read, or one without XMP, leaves info as it is: PDFium has already
// read the file, and XMP only adds to it.
func readXMP(ctx context.Context, rs io.ReadSeeker, info *Info, log *slog.Logger) {
	packet, ok := plainXMP(rs)
	var err error
	if !ok {
		packet, err = xmpPacket(ctx, rs)
	}
	if err != nil {
		log.Debug("pdf: read xmp", "err", err)
		return
	}
	if packet == nil {
		return
	}
	x, err := parseXMP(packet)
	if err != nil {
		log.Debug("pdf: parse xmp", "err", err)
		return
	}
	fill := func(dst *string, src string) {
		if *dst == "" {
			*dst = src
		}
	}
	fill(&info.Title, x.Title)
	fill(&info.Author, x.Author)
	fill(&info.Subject, x.Subject)
	fill(&info.Keywords, x.Keywords)
	fill(&info.Creator, x.Creator)
	fill(&info.Producer, x.Producer)
	fill(&info.DOI, x.DOI)
	if info.CreationYear == 0 {
		info.CreationYear = x.CreationYear
	}
}

// maxPlainScan is the largest file plainXMP reads whole.
const maxPlainScan = 64 << 20

// plainXMP finds the document's XMP packet in the raw bytes of the file, as
// XMP is meant to be found: producers store the catalog's metadata stream
// uncompressed. It counts only when exactly one packet in the file declares
// the PDF schema (pdf:Producer and the like): the document's packet does,
// the XMP of embedded images does not. A file without a /Metadata name
// has none (ok, nil packet) when it has no object streams either, or no
// /XML name (see below). Otherwise ok is false
// and the catalog's stream must be read properly: pdfcpu parses the whole
// file for it, a large part of the cost of a file read with native PDFium.
func plainXMP(rs io.ReadSeeker) (packet []byte, ok bool) {
	size, err := rs.Seek(0, io.SeekEnd)
	if err != nil || size > maxPlainScan {
		return nil, false
	}
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return nil, false
	}
	buf := scanBuffers.get(int(size))
	defer scanBuffers.put(buf)
	// The file as it is now: one that shrank since Seek is read to its
	// end, one that grew to size.
	n, err := io.ReadFull(rs, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, false
	}
	data := buf[:n]
	var found []byte
	for rest := data; ; {
		start := bytes.Index(rest, []byte("<?xpacket begin"))
		if start < 0 {
			break
		}
		end := bytes.Index(rest[start:], []byte("<?xpacket end"))
		if end < 0 {
			break
		}
		p := rest[start : start+end]
		rest = rest[start+end:]
		if !bytes.Contains(p, []byte(nsPDF)) {
			continue
		}
		if found != nil {
			return nil, false // two candidates: only the catalog can tell
		}
		found = p
	}
	if found != nil {
		found = bytes.Clone(found) // buf is reused
	}
	if found == nil {
		// Without object streams every dictionary is plain text: no
		// /Metadata key anywhere means no metadata stream to read. With
		// them, the catalog's /Metadata key may be compressed, but the
		// stream it names is not (a stream is never in an object
		// stream), and a metadata stream's dictionary says /Type
		// /Metadata /Subtype /XML: neither name anywhere, no stream.
		meta := bytes.Contains(data, []byte("/Metadata"))
		none := !meta && (!bytes.Contains(data, []byte("/ObjStm")) || !bytes.Contains(data, []byte("/XML")))
		return nil, none
	}
	return found, true
}

// scanBuffers keeps the buffer plainXMP reads a file into for the next
// file: a worker reads one file after another, and a fresh buffer the
// size of each (cleared, then given back to the system) costs more than
// scanning it.
var scanBuffers reusedBuffer

// maxReusedBuffer is the largest buffer kept between files.
const maxReusedBuffer = 16 << 20

// reusedBuffer is one byte buffer handed to one user at a time; a user
// who finds it taken gets a new one.
type reusedBuffer struct {
	mu  sync.Mutex
	buf []byte
}

// get returns a buffer of n bytes.
func (r *reusedBuffer) get(n int) []byte {
	r.mu.Lock()
	b := r.buf
	r.buf = nil
	r.mu.Unlock()
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// put keeps b for the next get, unless it is too large to keep.
func (r *reusedBuffer) put(b []byte) {
	if cap(b) > maxReusedBuffer {
		return
	}
	r.mu.Lock()
	if cap(b) > cap(r.buf) {
		r.buf = b
	}
	r.mu.Unlock()
}

// xmpPacket returns the decoded /Metadata stream of the catalog, or nil when
// there is none.
func xmpPacket(ctx context.Context, rs io.ReadSeeker) (packet []byte, err error) {
	defer func() {
		// pdfcpu panics on some malformed input.
		if p := recover(); p != nil {
			err = fmt.Errorf("pdfcpu panic: %v", p)
		}
	}()
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	pc, err := pdfcpu.ReadWithContext(ctx, rs, readConfig())
	if err != nil {
		return nil, err
	}
	root, err := pc.XRefTable.Catalog()
	if err != nil {
		return nil, err
	}
	obj, ok := root.Find("Metadata")
	if !ok {
		return nil, nil
	}
	sd, _, err := pc.XRefTable.DereferenceStreamDict(obj)
	if err != nil || sd == nil {
		return nil, err
	}
	if err := sd.DecodeWithLimit(maxXMPBytes); err != nil {
		return nil, err
	}
	return sd.Content, nil
}

// readConfig returns the pdfcpu configuration for reading. It is built here
// rather than by model.NewDefaultConfiguration, which writes a config.yml
// into the user's config directory unless a process-wide switch is set.
func readConfig() *model.Configuration {
	return &model.Configuration{
		Version:        model.VersionStr,
		Reader15:       true,
		ValidationMode: model.ValidationRelaxed,
		Eol:            types.EolLF,
		Limits:         model.DefaultResourceLimits(),
	}
}

// Namespaces of the XMP properties we read.
const (
	nsDC    = "http://purl.org/dc/elements/1.1/"
	nsPDF   = "http://ns.adobe.com/pdf/1.3/"
	nsXMP   = "http://ns.adobe.com/xap/1.0/"
	nsPDFX  = "http://ns.adobe.com/pdfx/1.3/"
	nsPRISM = "prismstandard.org/namespaces/" // any PRISM version
)

// parseXMP reads the properties Info cares about from an XMP packet. It
// accepts both forms XMP allows: properties as elements (with rdf:Alt,
// rdf:Seq or rdf:Bag lists) and as attributes of rdf:Description.
func parseXMP(packet []byte) (Info, error) {
	var authors, identifiers []string
	props := map[string]string{}
	set := func(key, value string) {
		value = cleanMeta(value)
		if value == "" {
			return
		}
		switch key {
		case "creator":
			authors = append(authors, value)
		case "identifier":
			identifiers = append(identifiers, value)
		default:
			if _, ok := props[key]; !ok {
				props[key] = value
			}
		}
	}

	dec := xml.NewDecoder(bytes.NewReader(packet))
	dec.Strict = false
	var current string // key of the property element we are inside, or ""
	var depth, currentDepth int
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Info{}, fmt.Errorf("xmp: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			for _, a := range t.Attr {
				if key := xmpKey(a.Name); key != "" {
					set(key, a.Value)
				}
			}
			if current == "" {
				if key := xmpKey(t.Name); key != "" {
					current, currentDepth = key, depth
					text.Reset()
				}
			} else if t.Name.Local == "li" {
				text.Reset()
			}
		case xml.CharData:
			if current != "" {
				text.Write(t)
			}
		case xml.EndElement:
			if current != "" && (t.Name.Local == "li" || depth == currentDepth) {
				set(current, text.String())
				text.Reset()
			}
			if depth == currentDepth {
				current = ""
			}
			depth--
		}
	}

	info := Info{
		Title:        plausibleTitle(props["title"]),
		Author:       strings.Join(authors, ", "),
		Subject:      props["description"],
		Keywords:     props["keywords"],
		Creator:      props["creatortool"],
		Producer:     props["producer"],
		CreationYear: pdfDateYear(props["createdate"]),
		DOI:          normalizeDOI(props["doi"]),
	}
	if info.DOI == "" {
		for _, id := range identifiers {
			if d := normalizeDOI(id); d != "" {
				info.DOI = d
				break
			}
		}
	}
	return info, nil
}

// xmpKey names the property an XML name stands for, or "" when Info does not
// use it.
func xmpKey(n xml.Name) string {
	switch {
	case n.Space == nsDC && (n.Local == "title" || n.Local == "creator" || n.Local == "description" || n.Local == "identifier"):
		return n.Local
	case n.Space == nsPDF && (n.Local == "Keywords" || n.Local == "Producer"):
		return strings.ToLower(n.Local)
	case n.Space == nsXMP && (n.Local == "CreatorTool" || n.Local == "CreateDate"):
		return strings.ToLower(n.Local)
	case (n.Space == nsPDFX || strings.Contains(n.Space, nsPRISM)) && n.Local == "doi":
		return "doi"
	}
	return ""
}

// normalizeDOI returns a DOI in the form the index stores: lower case,
// without "doi:" or a resolver URL in front. It returns "" when s does not
// hold a DOI.
func normalizeDOI(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, prefix := range []string{"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi.org/", "doi:"} {
		s = strings.TrimPrefix(s, prefix)
	}
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "10.") || !strings.Contains(s, "/") || strings.ContainsAny(s, " \t\n") {
		return ""
	}
	return s
}
