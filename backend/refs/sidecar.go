package refs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentero/agentero/backend/ident"
	"github.com/agentero/agentero/backend/vault"
)

// The citation sidecar, source/agentero-cite.json (SPEC §5). Agentero reads
// any sidecar it finds; it writes one only when asked to, only where none
// is or where its own is stale, and never over a sidecar another tool made.

// SidecarName is the sidecar's path inside a paper folder.
const SidecarName = "source/agentero-cite.json"

// Modes of the sidecars Agentero writes: built from the PDF text, or from
// source/*.bib|*.bbl.
const (
	ModePDF = "agentero-pdf"
	ModeBib = "agentero-bib"
)

// Citation statuses: resolved when the citation is identified — matched
// to a library paper, or carrying a DOI or arXiv id.
const (
	StatusResolved   = "resolved"
	StatusUnresolved = "unresolved"
)

// ours reports whether a sidecar of this mode is Agentero's own.
func ours(mode string) bool { return mode == ModePDF || mode == ModeBib }

// Sidecar is the sidecar file.
type Sidecar struct {
	SchemaVersion int               `json:"schemaVersion"`
	Source        SidecarSource     `json:"source"`
	Citations     []SidecarCitation `json:"citations"`
	Messages      []json.RawMessage `json:"messages"`
}

// SidecarSource says who made a sidecar, when, and from what.
type SidecarSource struct {
	Mode        string `json:"mode"`
	GeneratedAt string `json:"generatedAt"`
	Fingerprint string `json:"fingerprint"`
}

// SidecarCitation is one reference.
type SidecarCitation struct {
	ID         string      `json:"id"`
	Display    string      `json:"display,omitempty"`
	Raw        string      `json:"raw,omitempty"`
	Metadata   Metadata    `json:"metadata"`
	LocalMatch *LocalMatch `json:"localMatch,omitempty"`
	Status     string      `json:"status"`
}

// Metadata is what is known of a cited work.
type Metadata struct {
	Title   string   `json:"title,omitempty"`
	Authors []string `json:"authors,omitempty"`
	Year    int      `json:"year,omitempty"`
	Venue   string   `json:"venue,omitempty"`
	DOI     string   `json:"doi,omitempty"`
	ArxivID string   `json:"arxivId,omitempty"`
	URL     string   `json:"url,omitempty"`
}

// UnmarshalJSON reads metadata leniently, as other tools write it: a year
// as a number or a string, authors as strings or as {given, family} or
// {name} objects.
func (m *Metadata) UnmarshalJSON(b []byte) error {
	var raw struct {
		Title   string            `json:"title"`
		Authors []json.RawMessage `json:"authors"`
		Year    json.RawMessage   `json:"year"`
		Venue   string            `json:"venue"`
		DOI     string            `json:"doi"`
		ArxivID string            `json:"arxivId"`
		URL     string            `json:"url"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*m = Metadata{Title: raw.Title, Venue: raw.Venue, DOI: raw.DOI, ArxivID: raw.ArxivID, URL: raw.URL}
	var y any
	if len(raw.Year) > 0 && json.Unmarshal(raw.Year, &y) == nil {
		switch v := y.(type) {
		case float64:
			m.Year = int(v)
		case string:
			if len(v) >= 4 {
				m.Year, _ = strconv.Atoi(v[:4])
			}
		}
	}
	for _, a := range raw.Authors {
		var s string
		if json.Unmarshal(a, &s) == nil {
			m.Authors = append(m.Authors, s)
			continue
		}
		var o struct{ Given, Family, Name, Literal string }
		if json.Unmarshal(a, &o) == nil {
			name := strings.TrimSpace(o.Given + " " + o.Family)
			for _, alt := range []string{o.Name, o.Literal} {
				if name == "" {
					name = alt
				}
			}
			if name != "" {
				m.Authors = append(m.Authors, name)
			}
		}
	}
	return nil
}

// LocalMatch is the library paper a citation is.
type LocalMatch struct {
	PaperPath string `json:"paperPath"`
	MatchBy   string `json:"matchBy"`
}

// ReadSidecar reads the sidecar of the paper ref in the vault at root,
// through the vault's opener. It returns the file's bytes too, and
// fs.ErrNotExist (wrapped) when there is none.
func ReadSidecar(ctx context.Context, root, ref string) (*Sidecar, []byte, error) {
	data, err := vault.ReadFile(ctx, root, path.Join(ref, SidecarName), vault.KindSidecar)
	if err != nil {
		return nil, nil, err
	}
	return parseSidecar(data)
}

func parseSidecar(data []byte) (*Sidecar, []byte, error) {
	var s Sidecar
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, data, fmt.Errorf("read %s: %w", SidecarName, err)
	}
	return &s, data, nil
}

// readSidecar is ReadSidecar through an open root.
func readSidecar(ctx context.Context, vr *vault.Root, ref string) (*Sidecar, []byte, error) {
	data, err := readAll(ctx, vr, path.Join(ref, SidecarName), vault.KindSidecar)
	if err != nil {
		return nil, nil, err
	}
	return parseSidecar(data)
}

// WriteSidecar writes s as the sidecar of the paper ref in the vault at
// root, atomically (a temporary file renamed over the old one), creating
// source/ if needed. It writes beneath the vault only (os.Root), and not
// through a symlinked paper or source folder: a link there may lead to
// another paper's folder, or out of the vault.
func WriteSidecar(root, ref string, s *Sidecar) error {
	if s.Messages == nil {
		s.Messages = []json.RawMessage{}
	}
	if s.Citations == nil {
		s.Citations = []SidecarCitation{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	if err := writeBeneath(root, path.Join(ref, SidecarName), buf.Bytes()); err != nil {
		return fmt.Errorf("write sidecar: %w", err)
	}
	return nil
}

// writeBeneath writes data at rel beneath the folder root, through no
// symlink, as a temporary file renamed into place.
func writeBeneath(root, rel string, data []byte) error {
	vr, err := vault.OpenRoot(root)
	if err != nil {
		return err
	}
	defer vr.Close()
	dir := path.Dir(rel)
	for d := dir; d != "."; d = path.Dir(d) {
		if real, err := vr.Canonical(d); err == nil && real != d {
			return fmt.Errorf("%s is a symlink: nothing is written through it", d)
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := r.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp := path.Join(dir, fmt.Sprintf(".%s.%x.tmp", path.Base(rel), rand.Uint64()))
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	serr := f.Sync()
	if err := errors.Join(werr, serr, f.Close()); err != nil {
		r.Remove(tmp)
		return err
	}
	if err := r.Rename(tmp, rel); err != nil {
		r.Remove(tmp)
		return err
	}
	return nil
}

// sidecarEntries reads a foreign sidecar's citations, unmatched, and the
// matches it made that name a library paper, by position.
func sidecarEntries(s *Sidecar, lib *library) ([]Citation, []citeMatch) {
	entries := make([]Citation, len(s.Citations))
	given := make([]citeMatch, len(s.Citations))
	for i, c := range s.Citations {
		md := c.Metadata
		e := Citation{ID: c.ID, Title: md.Title, Authors: md.Authors, Year: md.Year, Venue: md.Venue, URL: md.URL}
		if e.Authors == nil {
			e.Authors = []string{}
		}
		var readings, arxivs []string
		if d := ident.NormalizeDOI(md.DOI); d != "" {
			e.DOI = d
			readings = append(readings, d)
		}
		if a := ident.NormalizeArxiv(md.ArxivID); a != "" {
			e.ArxivID = a
			arxivs = append(arxivs, a)
		}
		if c.Raw != "" {
			best, rs := findDOIs(c.Raw)
			readings = append(readings, rs...)
			if e.DOI == "" && len(best) > 0 {
				e.DOI = best[0]
			}
			arxivs = append(arxivs, ident.FindArxivs(c.Raw)...)
			e.Raw = strings.Join(strings.Fields(c.Raw), " ")
		} else {
			e.Raw = bibRaw(e)
		}
		e.IDs = identifiers(readings, arxivs)
		e.Display = display(c.ID, e.Authors, e.Year)
		entries[i] = e
		if lm := c.LocalMatch; lm != nil {
			ref := strings.Trim(filepath.ToSlash(lm.PaperPath), "/")
			if strings.HasSuffix(strings.ToLower(ref), ".pdf") {
				ref = filepath.ToSlash(filepath.Dir(ref))
			}
			if _, ok := lib.byRef[ref]; ok {
				by := lm.MatchBy
				if by != ByDOI && by != ByArxiv && by != ByTitle {
					by = ByTitle
				}
				given[i] = citeMatch{ref, by}
			}
		}
	}
	return entries, given
}
