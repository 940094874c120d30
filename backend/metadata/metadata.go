// Package metadata owns a paper's metadata: what its PDF says about itself
// (FromDocument: Info/XMP, the page-1 header read for title, authors and
// year, header.go; the abstract, abstract.go; a garbled text layer,
// quality.go), how that merges with metadata.json (Derive, guess.go: the
// file's values win, except those an added file's import read from the
// PDF), and the writes to metadata.json: the user's edits made in the app,
// and what an online lookup found (online.go), each field marked with
// where its value came from. The index stores what Derive returns; intake
// describes a PDF it adds with Describe.
//
// Provenance lives in metadata.json beside the values, in two keys the
// index keeps as unknown keys:
//
//	"edited": ["title", "year"]                  fields the user set in Agentero
//	"source": {"title": "user", "doi": "crossref"} where each written value came from
//
// A field listed in "edited" is the user's: an importer or an online
// lookup never overwrites it (Merge skips it). Field names are the
// metadata.json keys: title, authors, year, doi, arxiv_id, tags.
package metadata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/ident"
	"github.com/agentero/agentero/backend/vault"
)

// The fields a user edits, by their metadata.json keys.
const (
	Title   = "title"
	Authors = "authors"
	Year    = "year"
	DOI     = "doi"
	ArxivID = "arxiv_id"
	Tags    = "tags"
)

// Fields lists the editable fields in the order the editor shows them.
var Fields = []string{Title, Authors, Year, DOI, ArxivID, Tags}

// Sources of a value.
const (
	SourceUser     = "user"
	SourceCrossref = "crossref"
	SourceArxiv    = "arxiv"
	// sourcePDF is an added file's fields' source: read from its PDF.
	sourcePDF = "pdf"
)

// Values are a paper's editable metadata.
type Values struct {
	Title   string   `json:"title"`
	Authors []string `json:"authors"`
	Year    int      `json:"year"`
	DOI     string   `json:"doi"`
	ArxivID string   `json:"arxivId"`
	Tags    []string `json:"tags"`
	// Abstract is written by online lookups only (the editor leaves it).
	Abstract string `json:"abstract"`
}

// abstractField is the metadata.json key of the abstract.
const abstractField = "abstract"

// Details is what metadata.json holds for the editor: the values, which of
// them the user set, and where each came from.
type Details struct {
	Ref    string            `json:"ref"`
	Values Values            `json:"values"`
	Edited []string          `json:"edited"`
	Source map[string]string `json:"source"`
	Exists bool              `json:"exists"` // the paper has a metadata.json
}

// Problem is one invalid field, with a sentence for the user.
type Problem struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// InvalidError lists the problems of an edit; nothing was written.
type InvalidError struct{ Problems []Problem }

func (e *InvalidError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Message
	}
	return strings.Join(msgs, " ")
}

var (
	doiShape   = regexp.MustCompile(`^10\.\d{4,9}/\S+$`)
	arxivShape = regexp.MustCompile(`^(\d{4}\.\d{4,5}|[a-z-]+(\.[a-z]{2})?/\d{7})(v\d+)?$`)
)

// Validate checks the fields of v named in fields.
func Validate(v Values, fields []string) []Problem {
	var out []Problem
	bad := func(f, msg string) { out = append(out, Problem{f, msg}) }
	for _, f := range fields {
		switch f {
		case Title:
			if len(v.Title) > 1000 {
				bad(f, "The title is longer than 1,000 characters.")
			}
		case Authors:
			for _, a := range v.Authors {
				if len(a) > 300 {
					bad(f, "An author's name is longer than 300 characters.")
					break
				}
			}
		case Year:
			if v.Year != 0 && (v.Year < 1000 || v.Year > 9999) {
				bad(f, "The year must be four digits, such as 2017.")
			} else if v.Year > time.Now().Year()+1 {
				bad(f, fmt.Sprintf("The year %d is in the future.", v.Year))
			}
		case DOI:
			if d := ident.NormalizeDOI(v.DOI); v.DOI != "" && !doiShape.MatchString(d) {
				bad(f, "A DOI looks like 10.1145/3132747.3132765: “10.”, digits, a slash, then the item’s own part.")
			}
		case ArxivID:
			if a := ident.NormalizeArxiv(v.ArxivID); v.ArxivID != "" && !arxivShape.MatchString(a) {
				bad(f, "An arXiv id looks like 1706.03762 (or hep-th/9901001 for older papers).")
			}
		case Tags:
			for _, t := range v.Tags {
				if strings.ContainsAny(t, "\n\r") || len(t) > 100 {
					bad(f, "A tag is one line of at most 100 characters.")
					break
				}
			}
		default:
			bad(f, fmt.Sprintf("%q is not a field that can be edited.", f))
		}
	}
	return out
}

// metaPath is the metadata.json of the paper ref.
func metaPath(ref string) string { return path.Join(ref, "metadata.json") }

// Read returns the paper's metadata.json (empty when it has none).
func Read(ctx context.Context, root, ref string) (File, bool, error) {
	data, err := vault.ReadFile(ctx, root, metaPath(ref), vault.KindMetadata)
	if errors.Is(err, fs.ErrNotExist) {
		return File{Extra: map[string]json.RawMessage{}}, false, nil
	}
	if err != nil {
		return File{}, false, err
	}
	var m File
	if err := json.Unmarshal(data, &m); err != nil {
		return File{}, true, fmt.Errorf("%s is not valid JSON (%v): fix or remove it before editing", metaPath(ref), err)
	}
	if m.Extra == nil {
		m.Extra = map[string]json.RawMessage{}
	}
	return m, true, nil
}

// Load returns the paper's Details.
func Load(ctx context.Context, root, ref string) (Details, error) {
	m, exists, err := Read(ctx, root, ref)
	if err != nil {
		return Details{}, err
	}
	return Details{Ref: ref, Exists: exists, Edited: m.Edited(), Source: m.Sources(), Values: Values{
		Title: m.Title, Authors: nonNil(m.Authors), Year: m.Year, DOI: m.DOI, ArxivID: m.ArxivID, Tags: nonNil(m.Tags),
	}}, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// set writes field f of v into m.
func set(m *File, v Values, f string) {
	switch f {
	case Title:
		m.Title = strings.Join(strings.Fields(v.Title), " ")
	case Authors:
		m.Authors = clean(v.Authors)
	case Year:
		m.Year = v.Year
	case DOI:
		m.DOI = ident.NormalizeDOI(v.DOI)
	case ArxivID:
		m.ArxivID = ident.NormalizeArxiv(v.ArxivID)
	case Tags:
		m.Tags = clean(v.Tags)
	case abstractField:
		m.Abstract = strings.TrimSpace(v.Abstract)
	}
}

// empty reports whether field f of m holds no value.
func empty(m File, f string) bool {
	switch f {
	case Title:
		return m.Title == ""
	case Authors:
		return len(m.Authors) == 0
	case Year:
		return m.Year == 0
	case DOI:
		return m.DOI == ""
	case ArxivID:
		return m.ArxivID == ""
	case Tags:
		return len(m.Tags) == 0
	case abstractField:
		return m.Abstract == ""
	}
	return true
}

func clean(list []string) []string {
	var out []string
	for _, s := range list {
		if s = strings.Join(strings.Fields(s), " "); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// Save writes the user's edit of the fields named in fields to the paper's
// metadata.json, keeping every other key, and marks them as the user's
// ("edited", source "user"). A field left empty is removed and unmarked:
// the index derives it from the PDF again. Invalid values are refused with
// an *InvalidError and nothing is written.
func Save(ctx context.Context, root, ref string, v Values, fields []string) error {
	if probs := Validate(v, fields); len(probs) > 0 {
		return &InvalidError{probs}
	}
	m, _, err := Read(ctx, root, ref)
	if err != nil {
		return err
	}
	ed, src := m.Edited(), m.Sources()
	for _, f := range fields {
		set(&m, v, f)
		ed = slices.DeleteFunc(ed, func(e string) bool { return e == f })
		delete(src, f)
		if !empty(m, f) {
			ed = append(ed, f)
			src[f] = SourceUser
		}
	}
	return write(root, ref, m, ed, src)
}

// Merge writes what a lookup found (source names it) into the fields named
// in fields, and returns the fields it wrote. It never overwrites a field
// the user edited, nor one metadata.json holds from anywhere but an earlier
// lookup (an import, a file written by hand): it fills empty fields and
// refreshes its own. A field whose value is unchanged is not counted.
func Merge(ctx context.Context, root, ref string, v Values, fields []string, source string) ([]string, error) {
	m, _, err := Read(ctx, root, ref)
	if err != nil {
		return nil, err
	}
	ed, src := m.Edited(), m.Sources()
	before, _ := json.Marshal(m)
	var wrote []string
	for _, f := range fields {
		if slices.Contains(ed, f) {
			continue
		}
		// a lookup fills empty fields and rewrites its own; of the values
		// read from the PDF when the paper was added, it rewrites the
		// abstract, whose end the first pages' layout only suggests
		lookedUp := src[f] == SourceCrossref || src[f] == SourceArxiv
		if !empty(m, f) && !lookedUp && !(f == abstractField && src[f] == sourcePDF) {
			continue
		}
		probe := m
		set(&probe, v, f)
		if empty(probe, f) {
			continue
		}
		b1, _ := json.Marshal(m)
		m = probe
		if b2, _ := json.Marshal(m); string(b1) != string(b2) {
			wrote = append(wrote, f)
			src[f] = source
		}
	}
	if after, _ := json.Marshal(m); string(after) == string(before) {
		return nil, nil
	}
	return wrote, write(root, ref, m, ed, src)
}

// write stores m with its provenance as the paper's metadata.json, whole
// or not at all, in the paper's folder as the vault's opener resolves it
// (a folder reached through a link out of the vault is refused).
func write(root, ref string, m File, ed []string, src map[string]string) error {
	r, err := vault.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("open the vault: %w", err)
	}
	defer r.Close()
	real, info, err := r.Stat(ref, vault.KindMetadata)
	if err != nil || !info.IsDir() {
		return fmt.Errorf("the paper folder %s is not in the vault", ref)
	}
	slices.Sort(ed)
	if len(ed) > 0 {
		b, _ := json.Marshal(ed)
		m.Extra["edited"] = b
	} else {
		delete(m.Extra, "edited")
	}
	if len(src) > 0 {
		b, _ := json.Marshal(src)
		m.Extra["source"] = b
	} else {
		delete(m.Extra, "source")
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path.Join(r.Abs(real), "metadata.json"), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("save %s: %w", metaPath(ref), err)
	}
	return nil
}

// ParseYear parses a year typed by the user: "" is none.
func ParseYear(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	y, err := strconv.Atoi(s)
	if err != nil || len(s) != 4 {
		return 0, errors.New("The year must be four digits, such as 2017.")
	}
	return y, nil
}
