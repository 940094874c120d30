package refs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/vault"
)

// parserVersion changes whenever reading or matching reference lists gives
// different results: every list is then read again.
const parserVersion = 1

// Options tunes Sync. The zero value reads and matches reference lists
// into the index and writes no sidecar.
type Options struct {
	// WriteSidecars writes source/agentero-cite.json into paper folders
	// where none is or Agentero's own is stale. SPEC §1: outside
	// .agentero/ Agentero writes only when the user asks for it.
	WriteSidecars bool
	Logger        *slog.Logger // nil = discard
	Now           func() time.Time
}

// Stats summarises one Sync.
type Stats struct {
	Papers    int      `json:"papers"`    // papers with a reference list read
	Scanned   []string `json:"scanned"`   // papers whose lists were read in this sync
	Rematched []string `json:"rematched"` // papers whose lists were matched again against a changed library
	Removed   []string `json:"removed"`   // papers that left the citing scan
	Edges     int      `json:"edges"`     // in-library citations
	// Redated are papers whose year is now the one the library's papers
	// cite them by (index.SetCitedYears), or no longer is.
	Redated  []string `json:"redated"`
	Sidecars []string `json:"sidecars"` // sidecars written
	// Skipped are reference files and sidecars not read: links out of
	// the vault, FIFOs, devices, files past their cap (vault.Open).
	Skipped []vault.Skipped `json:"skipped"`
	Seconds float64         `json:"seconds"`
}

// Sync brings the reference lists in the index in line with the vault,
// after an index sync: a paper's list is read again only when its inputs
// changed (its PDF's text, its source/*.bib|*.bbl, a foreign sidecar), and
// matched again only when the library changed; removed papers drop out
// with their index rows. It then rewrites .agentero/citing-scan.json when
// the scan changed, and, with WriteSidecars, the stale sidecars.
//
// Sync is the only writer of refs' tables in the index file (see store.go),
// and creates or migrates them first, so it needs a read-write index. Sync
// calls must not overlap for one vault; the library runs it after its own
// (serialised) index sync.
func Sync(ctx context.Context, db *index.DB, vaultRoot string, opts Options) (Stats, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	start := opts.Now()
	st := Stats{Scanned: []string{}, Rematched: []string{}, Removed: []string{}, Redated: []string{}, Sidecars: []string{}, Skipped: []vault.Skipped{}}
	if err := migrate(ctx, db); err != nil {
		return st, fmt.Errorf("sync references: %w", err)
	}
	papers, err := db.RefInputs(ctx)
	if err != nil {
		return st, fmt.Errorf("sync references: %w", err)
	}
	states, err := listStates(ctx, db)
	if err != nil {
		return st, fmt.Errorf("sync references: %w", err)
	}
	vr, err := vault.OpenRoot(vaultRoot)
	if err != nil {
		return st, fmt.Errorf("sync references: %w", err)
	}
	defer vr.Close()
	lib := newLibrary(papers)
	sources := map[string]source{}
	// matchAgain matches a stored list again against lib, and counts it
	// once among the lists rematched (unless it was read in this sync).
	counted := map[string]bool{}
	matchAgain := func(ref string, src source, lib *library) error {
		if err := rematch(ctx, db, ref, src, lib); errors.Is(err, index.ErrNotFound) {
			return nil // removed since the list of papers was read
		} else if err != nil {
			return fmt.Errorf("sync references of %s: %w", ref, err)
		}
		if !counted[ref] {
			counted[ref] = true
			st.Rematched = append(st.Rematched, ref)
		}
		return nil
	}
	for _, p := range papers {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if p.Status == index.StatusPending {
			continue
		}
		src := findSource(ctx, vr, p)
		sources[p.Ref] = src
		st.Skipped = append(st.Skipped, src.skipped...)
		old, had := states[p.Ref]
		switch {
		case !had || old.ScanKey != src.key:
			for _, k := range src.skipped {
				opts.Logger.Warn("reference file not read", "path", k.Path, "problem", k.Problem)
			}
			l, err := readList(ctx, db, p, src, lib)
			if err != nil {
				return st, fmt.Errorf("sync references of %s: %w", p.Ref, err)
			}
			if err := putList(ctx, db, l, opts.Now()); errors.Is(err, index.ErrNotFound) {
				continue // removed since the list of papers was read
			} else if err != nil {
				return st, fmt.Errorf("sync references: %w", err)
			}
			st.Scanned = append(st.Scanned, p.Ref)
			counted[p.Ref] = true
		case old.LibKey != lib.key:
			if err := matchAgain(p.Ref, src, lib); err != nil {
				return st, err
			}
		}
	}
	// A paper may now show the year the library cites it by; matching
	// weighs years, so the lists are matched once more against those.
	redated, err := setCitedYears(ctx, db)
	if err != nil {
		return st, err
	}
	if len(redated) > 0 {
		st.Redated = redated
		if papers, err = db.RefInputs(ctx); err != nil {
			return st, fmt.Errorf("sync references: %w", err)
		}
		lib = newLibrary(papers)
		for _, p := range papers {
			if src, ok := sources[p.Ref]; ok {
				if err := matchAgain(p.Ref, src, lib); err != nil {
					return st, err
				}
			}
		}
		if _, err := setCitedYears(ctx, db); err != nil {
			return st, err
		}
	}
	scan, err := writeScan(ctx, db, vaultRoot, opts.Now(), lib.key, &st)
	if err != nil {
		return st, err
	}
	st.Papers = len(scan.Papers)
	if opts.WriteSidecars {
		for _, p := range papers {
			src, ok := sources[p.Ref]
			if !ok || src.foreign {
				continue
			}
			wrote, err := writeSidecar(ctx, db, vaultRoot, p.Ref, src, lib.key, opts.Now())
			if err != nil {
				opts.Logger.Warn("sidecar not written", "ref", p.Ref, "err", err)
				continue
			}
			if wrote {
				st.Sidecars = append(st.Sidecars, p.Ref)
			}
		}
	}
	st.Seconds = opts.Now().Sub(start).Seconds()
	if len(st.Scanned)+len(st.Rematched)+len(st.Removed)+len(st.Redated) > 0 {
		opts.Logger.Info("references synced", "scanned", len(st.Scanned), "rematched", len(st.Rematched),
			"removed", len(st.Removed), "redated", len(st.Redated), "edges", st.Edges, "seconds", st.Seconds)
	}
	return st, nil
}

// source is where a paper's reference list is read from.
type source struct {
	mode    string   // ModePDF, ModeBib, or a foreign sidecar's mode
	key     string   // hash of everything read: a change means read again
	sidecar *Sidecar // a foreign sidecar to read
	foreign bool     // a sidecar Agentero did not write is there: never overwrite it
	bbl     bool     // bib holds .bbl files (else .bib)
	bib     []string // the contents of source/*.bbl, or else source/*.bib
	skipped []vault.Skipped
}

// findSource decides where a paper's list comes from: a foreign sidecar,
// else source/*.bbl, else source/*.bib, else the PDF text. Every file is
// read through the vault's opener: one that links out of the vault, is not
// a regular file or is past its cap is skipped, and said so.
func findSource(ctx context.Context, vr *vault.Root, p index.RefInput) source {
	h := sha256.New()
	fmt.Fprintf(h, "refs %d\n", parserVersion)
	src := source{mode: ModePDF}
	skip := func(err error) {
		var fe *vault.FileError
		k := vault.Skipped{Problem: err.Error()}
		if errors.As(err, &fe) {
			k.Path = fe.Path
			k.Problem = strings.TrimPrefix(fe.Error(), fe.Path+": ")
		}
		src.skipped = append(src.skipped, k)
		fmt.Fprintf(h, "skipped %s %s\n", k.Path, k.Problem)
	}
	sc, data, err := readSidecar(ctx, vr, p.Ref)
	switch {
	case err == nil && !ours(sc.Source.Mode):
		src.mode, src.sidecar, src.foreign = sc.Source.Mode, sc, true
		if src.mode == "" {
			src.mode = "sidecar"
		}
		fmt.Fprintf(h, "sidecar\n%s", data)
		src.key = "sha256:" + hex.EncodeToString(h.Sum(nil))
		return src
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		// Unreadable, refused, or not JSON: not ours to replace, nor to read.
		src.foreign = true
		if data == nil {
			skip(err)
		}
		fmt.Fprintf(h, "unreadable sidecar\n%s\n", data)
	}
	_, entries, err := vr.ReadDir(path.Join(p.Ref, "source"), vault.KindReferences)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		skip(err)
	}
	var bbl, bib []string
	for _, e := range entries {
		name := e.Name()
		switch strings.ToLower(path.Ext(name)) {
		case ".bbl":
			bbl = append(bbl, name)
		case ".bib":
			bib = append(bib, name)
		}
	}
	files := bib
	if len(bbl) > 0 {
		files, src.bbl = bbl, true
	}
	sort.Strings(files)
	for _, name := range files {
		data, err := readAll(ctx, vr, path.Join(p.Ref, "source", name), vault.KindReferences)
		if err != nil {
			skip(err)
			continue
		}
		src.bib = append(src.bib, string(data))
		fmt.Fprintf(h, "bib %s %d\n%s\n", name, len(data), data)
	}
	if len(src.bib) > 0 {
		src.mode = ModeBib
	} else {
		fmt.Fprintf(h, "pdf %s %d %s\n", p.SHA256, p.ExtractorVersion, p.Status)
	}
	src.key = "sha256:" + hex.EncodeToString(h.Sum(nil))
	return src
}

// readAll reads one file of the vault through the open root.
func readAll(ctx context.Context, vr *vault.Root, rel string, kind vault.Kind) ([]byte, error) {
	f, err := vr.Open(rel, kind)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadAll(ctx)
}

// readList reads and matches a paper's reference list from its source.
func readList(ctx context.Context, db *index.DB, p index.RefInput, src source, lib *library) (List, error) {
	l := List{Ref: p.Ref, ScanKey: src.key, LibKey: lib.key, Mode: src.mode}
	var entries []Citation
	var given []citeMatch
	switch {
	case src.sidecar != nil:
		entries, given = sidecarEntries(src.sidecar, lib)
	case len(src.bib) > 0:
		for _, b := range src.bib {
			if src.bbl {
				entries = append(entries, parseBbl(b)...)
			} else {
				entries = append(entries, parseBib(b)...)
			}
		}
		if len(entries) == 0 {
			l.Note = "no entries in source/*.bib|*.bbl"
		}
	case p.Status == index.StatusError || p.Status == index.StatusNoText || p.Status == index.StatusGarbled:
		l.Note = "the PDF has no text to read references from"
	default:
		pages, err := db.PageTexts(ctx, p.Ref)
		if err != nil {
			return l, err
		}
		texts, _, note := extractEntries(pages)
		l.Note = note
		for _, t := range texts {
			entries = append(entries, parseEntry(t))
		}
	}
	for i := range entries {
		if entries[i].ID == "" {
			entries[i].ID = strconv.Itoa(i + 1)
		}
	}
	for _, k := range src.skipped {
		l.Note = strings.TrimPrefix(l.Note+"; ", "; ") + "not read: " + k.Path + ": " + k.Problem
	}
	lib.match(p.Ref, entries, given)
	l.Citations = entries
	return l, nil
}

// rematch matches a stored list again against a changed library, writing
// only the matches that changed.
func rematch(ctx context.Context, db *index.DB, ref string, src source, lib *library) error {
	l, err := ReadList(ctx, db, ref)
	if err != nil {
		return err
	}
	var given []citeMatch
	if src.sidecar != nil {
		_, given = sidecarEntries(src.sidecar, lib)
	}
	cs := slices.Clone(l.Citations)
	lib.match(ref, cs, given)
	var changed []int
	for i, c := range l.Citations {
		if c.MatchRef != cs[i].MatchRef || c.MatchBy != cs[i].MatchBy || c.WorkKey != cs[i].WorkKey {
			changed = append(changed, i)
		}
	}
	return setMatches(ctx, db, ref, lib.key, cs, changed)
}

// fingerprint is a sidecar's source.fingerprint: the list's inputs and the
// library it was matched against.
func fingerprint(scanKey, libKey string) string {
	h := sha256.Sum256([]byte(scanKey + "\n" + libKey))
	return "sha256:" + hex.EncodeToString(h[:])
}

// writeSidecar writes a paper's sidecar when it is missing or Agentero's
// own and stale. It never replaces a sidecar of another mode, and writes
// none for a paper with no references found.
func writeSidecar(ctx context.Context, db *index.DB, root, ref string, src source, libKey string, now time.Time) (bool, error) {
	fp := fingerprint(src.key, libKey)
	old, _, err := ReadSidecar(ctx, root, ref)
	switch {
	case err == nil && (!ours(old.Source.Mode) || old.Source.Fingerprint == fp):
		return false, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return false, nil // not ours to replace
	}
	l, err := ReadList(ctx, db, ref)
	if err != nil || len(l.Citations) == 0 {
		return false, nil
	}
	return true, WriteSidecar(root, ref, sidecarOf(l, fp, now))
}

// sidecarOf renders a stored list as a sidecar.
func sidecarOf(l List, fp string, now time.Time) *Sidecar {
	s := &Sidecar{SchemaVersion: 1, Source: SidecarSource{Mode: l.Mode, GeneratedAt: now.UTC().Format(time.RFC3339), Fingerprint: fp}}
	for _, c := range l.Citations {
		sc := SidecarCitation{ID: c.ID, Display: c.Display, Raw: c.Raw, Status: StatusUnresolved,
			Metadata: Metadata{Title: c.Title, Authors: c.Authors, Year: c.Year, Venue: c.Venue, DOI: c.DOI, ArxivID: c.ArxivID, URL: c.URL}}
		if len(sc.Metadata.Authors) == 0 {
			sc.Metadata.Authors = nil
		}
		if c.MatchRef != "" {
			sc.LocalMatch = &LocalMatch{PaperPath: c.MatchRef, MatchBy: c.MatchBy}
		}
		if c.MatchRef != "" || c.DOI != "" || c.ArxivID != "" {
			sc.Status = StatusResolved
		}
		s.Citations = append(s.Citations, sc)
	}
	return s
}
