package refs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/refs"
	"github.com/google/go-cmp/cmp"
)

const (
	bitcoin   = "papers/bitcoin"
	peercoin  = "papers/peercoin"
	primecoin = "papers/primecoin"
)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func citedBy(t *testing.T, v *testVault, ref string) []string {
	t.Helper()
	cards, err := refs.Relations(context.Background(), v.db, ref, refs.CitedBy, 50)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, c := range cards {
		out = append(out, c.PaperPath)
	}
	return out
}

// noSidecars fails if any paper folder holds a sidecar.
func noSidecars(t *testing.T, v *testVault, refs ...string) {
	t.Helper()
	for _, ref := range refs {
		if _, err := os.Stat(v.sidecarPath(ref)); err == nil {
			t.Errorf("%s has a sidecar, but none was asked for", ref)
		}
	}
}

func TestSidecarsWrittenOnlyWhenAskedRoundTripAndStale(t *testing.T) {
	v := newVault(t, "bitcoin.pdf", "peercoin.pdf", "primecoin.pdf")
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	opts := refs.Options{Now: func() time.Time { return now }}

	v.sync(t, opts)
	noSidecars(t, v, bitcoin, peercoin, primecoin)
	if _, err := os.Stat(refs.ScanPath(v.root)); err != nil {
		t.Errorf("no citing scan in .agentero: %v", err)
	}

	opts.WriteSidecars = true
	st := v.sync(t, opts)
	if d := cmp.Diff([]string{bitcoin, peercoin, primecoin}, st.Sidecars); d != "" {
		t.Errorf("sidecars written (-want +got):\n%s", d)
	}
	data := readFile(t, v.sidecarPath(primecoin))
	if !bytes.Contains(data, []byte(`"messages": []`)) || !bytes.Contains(data, []byte(`"schemaVersion": 1`)) {
		t.Errorf("sidecar lacks schemaVersion 1 or messages []:\n%s", data)
	}
	sc, _, err := refs.ReadSidecar(t.Context(), v.root, primecoin)
	if err != nil {
		t.Fatal(err)
	}
	if sc.SchemaVersion != 1 || sc.Source.Mode != refs.ModePDF || !strings.HasPrefix(sc.Source.Fingerprint, "sha256:") ||
		sc.Source.GeneratedAt != "2026-11-29T10:00:00Z" {
		t.Errorf("sidecar source = %+v, schema %d", sc.Source, sc.SchemaVersion)
	}
	matches := map[string]string{}
	for _, c := range sc.Citations {
		if c.LocalMatch != nil {
			matches[c.LocalMatch.PaperPath] = c.LocalMatch.MatchBy
			if c.Status != refs.StatusResolved {
				t.Errorf("matched citation %q is %s", c.ID, c.Status)
			}
		} else if c.Metadata.DOI == "" && c.Metadata.ArxivID == "" && c.Status != refs.StatusUnresolved {
			t.Errorf("unidentified citation %q is %s", c.ID, c.Status)
		}
	}
	if d := cmp.Diff(map[string]string{bitcoin: "title", peercoin: "title"}, matches); d != "" {
		t.Errorf("primecoin's sidecar matches (-want +got):\n%s", d)
	}

	// Round trip: the sidecar holds what the index holds.
	l, err := refs.ReadList(context.Background(), v.db, primecoin)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ ID, Raw, Title, DOI, Match, By string }
	var fromIndex, fromFile []row
	for _, c := range l.Citations {
		fromIndex = append(fromIndex, row{c.ID, c.Raw, c.Title, c.DOI, c.MatchRef, c.MatchBy})
	}
	for _, c := range sc.Citations {
		r := row{c.ID, c.Raw, c.Metadata.Title, c.Metadata.DOI, "", ""}
		if c.LocalMatch != nil {
			r.Match, r.By = c.LocalMatch.PaperPath, c.LocalMatch.MatchBy
		}
		fromFile = append(fromFile, r)
	}
	if d := cmp.Diff(fromIndex, fromFile); d != "" {
		t.Errorf("sidecar differs from the index (-index +sidecar):\n%s", d)
	}
	var back refs.Sidecar
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	enc := json.NewEncoder(&again)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(back); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, again.Bytes()) {
		t.Errorf("sidecar does not survive a read and write:\n%s\n---\n%s", data, again.Bytes())
	}

	// Up to date: not written again.
	now = now.Add(time.Hour)
	if st := v.sync(t, opts); len(st.Sidecars) != 0 {
		t.Errorf("unchanged vault rewrote sidecars %v", st.Sidecars)
	}
	if !bytes.Equal(data, readFile(t, v.sidecarPath(primecoin))) {
		t.Error("unchanged vault changed a sidecar")
	}

	// The library changes: Agentero's own sidecars are stale and rewritten.
	if err := os.RemoveAll(filepath.Join(v.root, "papers", "peercoin")); err != nil {
		t.Fatal(err)
	}
	v.index(t)
	st = v.sync(t, opts)
	if d := cmp.Diff([]string{bitcoin, primecoin}, st.Sidecars); d != "" {
		t.Errorf("after a paper left, rewritten sidecars (-want +got):\n%s", d)
	}
	sc, _, _ = refs.ReadSidecar(t.Context(), v.root, primecoin)
	for _, c := range sc.Citations {
		if c.LocalMatch != nil && c.LocalMatch.PaperPath == peercoin {
			t.Errorf("rewritten sidecar still matches the removed paper: %+v", c)
		}
	}
}

// A sidecar another tool wrote is read, and never written over.
func TestForeignSidecarReadNeverClobbered(t *testing.T) {
	v := newVault(t, "bitcoin.pdf", "peercoin.pdf")
	foreign := `{
  "schemaVersion": 1,
  "source": {"mode": "zotero-export", "generatedAt": "2025-01-01T00:00:00Z", "fingerprint": "theirs"},
  "citations": [
    {"id": "nakamoto2008", "metadata": {"title": "Bitcoin: A Peer-to-Peer Electronic Cash System", "year": "2008",
      "authors": [{"given": "Satoshi", "family": "Nakamoto"}]}, "status": "unresolved"},
    {"id": "other", "raw": "Someone. Another work. 2011. doi:10.1000/ 182", "metadata": {}, "status": "unresolved"},
    {"id": "local", "metadata": {"title": "A local note"}, "localMatch": {"paperPath": "papers/bitcoin/bitcoin.pdf", "matchBy": "title"}, "status": "resolved"}
  ],
  "messages": [{"level": "info", "text": "kept as is"}]
}
`
	path := v.sidecarPath(peercoin)
	writeFile(t, path, foreign)
	writeFile(t, v.sidecarPath(bitcoin), "not JSON at all")

	st := v.sync(t, refs.Options{WriteSidecars: true})
	if got := string(readFile(t, path)); got != foreign {
		t.Errorf("foreign sidecar changed:\n%s", got)
	}
	if got := string(readFile(t, v.sidecarPath(bitcoin))); got != "not JSON at all" {
		t.Errorf("unreadable sidecar changed: %q", got)
	}
	if len(st.Sidecars) != 0 {
		t.Errorf("sidecars written: %v, want none", st.Sidecars)
	}
	l, err := refs.ReadList(context.Background(), v.db, peercoin)
	if err != nil {
		t.Fatal(err)
	}
	if l.Mode != "zotero-export" || len(l.Citations) != 3 {
		t.Fatalf("peercoin's list: mode %q, %d citations; want the foreign sidecar's 3", l.Mode, len(l.Citations))
	}
	c0, c1, c2 := l.Citations[0], l.Citations[1], l.Citations[2]
	if c0.MatchRef != bitcoin || c0.MatchBy != "title" || c0.Year != 2008 || c0.Authors[0] != "Satoshi Nakamoto" {
		t.Errorf("first citation = %+v, want bitcoin matched by title", c0)
	}
	if c1.DOI != "10.1000/182" || c1.MatchRef != "" {
		t.Errorf("second citation = %+v, want DOI 10.1000/182 read from raw, unmatched", c1)
	}
	if c2.MatchRef != bitcoin {
		t.Errorf("third citation = %+v, want the sidecar's own localMatch kept", c2)
	}
	if d := cmp.Diff([]string{peercoin}, citedBy(t, v, bitcoin)); d != "" {
		t.Errorf("bitcoin cited by (-want +got):\n%s", d)
	}
}

func TestBibSource(t *testing.T) {
	v := newVault(t, "bitcoin.pdf", "peercoin.pdf")
	bib := filepath.Join(v.root, "papers", "peercoin", "source", "refs.bib")
	writeFile(t, bib, `@misc{nakamoto, author = {Satoshi Nakamoto}, title = {Bitcoin: {A} Peer-to-Peer Electronic Cash System}, year = 2008}
@article{x, title = {Something Else}, doi = {10.1000/182}, year = 2001}`)
	v.index(t)
	v.sync(t, refs.Options{})
	l, err := refs.ReadList(context.Background(), v.db, peercoin)
	if err != nil {
		t.Fatal(err)
	}
	if l.Mode != refs.ModeBib || len(l.Citations) != 2 || l.Citations[0].ID != "nakamoto" || l.Citations[0].MatchRef != bitcoin ||
		l.Citations[1].DOI != "10.1000/182" {
		t.Errorf("list from refs.bib = %+v", l)
	}
	if err := os.Remove(bib); err != nil {
		t.Fatal(err)
	}
	v.index(t)
	st := v.sync(t, refs.Options{})
	l, _ = refs.ReadList(context.Background(), v.db, peercoin)
	if d := cmp.Diff([]string{peercoin}, st.Scanned); d != "" || l.Mode != refs.ModePDF {
		t.Errorf("after removing refs.bib: scanned %v, mode %q; want peercoin read again from its PDF", st.Scanned, l.Mode)
	}
}

func TestCitingScanIsIncremental(t *testing.T) {
	v := newVault(t, "bitcoin.pdf", "peercoin.pdf")
	st := v.sync(t, refs.Options{})
	if d := cmp.Diff([]string{bitcoin, peercoin}, st.Scanned); d != "" {
		t.Errorf("first sync scanned (-want +got):\n%s", d)
	}
	scan := func() *refs.Scan {
		t.Helper()
		s, err := refs.ReadScan(t.Context(), v.root)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cites := func(s *refs.Scan, ref string) []string {
		out := []string{}
		for _, c := range s.Papers[ref].Cites {
			out = append(out, c.PaperPath)
		}
		return out
	}
	if d := cmp.Diff([]string{bitcoin}, cites(scan(), peercoin)); d != "" {
		t.Errorf("peercoin cites (-want +got):\n%s", d)
	}
	before := readFile(t, refs.ScanPath(v.root))

	st = v.sync(t, refs.Options{})
	if len(st.Scanned)+len(st.Rematched)+len(st.Removed) != 0 {
		t.Errorf("unchanged vault: %+v, want nothing done", st)
	}
	if !bytes.Equal(before, readFile(t, refs.ScanPath(v.root))) {
		t.Error("unchanged vault rewrote the citing scan")
	}

	// A new paper is scanned; the others are only matched again.
	addPapers(t, v.root, "primecoin.pdf")
	v.index(t)
	st = v.sync(t, refs.Options{})
	if d := cmp.Diff([]string{primecoin}, st.Scanned); d != "" {
		t.Errorf("after adding primecoin, scanned (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{bitcoin, peercoin}, st.Rematched); d != "" {
		t.Errorf("after adding primecoin, matched again (-want +got):\n%s", d)
	}
	s := scan()
	if d := cmp.Diff([]string{bitcoin, peercoin}, cites(s, primecoin)); d != "" {
		t.Errorf("primecoin cites (-want +got):\n%s", d)
	}
	var by []string
	for _, m := range s.CitedBy(bitcoin) {
		by = append(by, m.PaperPath)
	}
	if d := cmp.Diff([]string{peercoin, primecoin}, by); d != "" {
		t.Errorf("scan: bitcoin cited by (-want +got):\n%s", d)
	}

	// New metadata changes what papers are matched against, not their text.
	// (The papers citing it give 2008, which the library already shows.)
	writeFile(t, filepath.Join(v.root, "papers", "bitcoin", "metadata.json"), `{"title": "Bitcoin: A Peer-to-Peer Electronic Cash System", "year": 2009}`)
	v.index(t)
	st = v.sync(t, refs.Options{})
	if len(st.Scanned) != 0 || len(st.Rematched) != 3 {
		t.Errorf("after new metadata: scanned %v, matched again %v; want none scanned, all matched again", st.Scanned, st.Rematched)
	}

	// A removed paper drops out of the scan and of what cites it.
	if err := os.RemoveAll(filepath.Join(v.root, "papers", "peercoin")); err != nil {
		t.Fatal(err)
	}
	v.index(t)
	st = v.sync(t, refs.Options{})
	if d := cmp.Diff([]string{peercoin}, st.Removed); d != "" || len(st.Scanned) != 0 {
		t.Errorf("after removing peercoin: removed %v, scanned %v", st.Removed, st.Scanned)
	}
	s = scan()
	if _, ok := s.Papers[peercoin]; ok {
		t.Error("removed paper still in the scan")
	}
	if d := cmp.Diff([]string{bitcoin}, cites(s, primecoin)); d != "" {
		t.Errorf("primecoin cites after peercoin left (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{primecoin}, citedBy(t, v, bitcoin)); d != "" {
		t.Errorf("index: bitcoin cited by (-want +got):\n%s", d)
	}
	if l, err := refs.ReadList(context.Background(), v.db, peercoin); err != index.ErrNotFound {
		t.Errorf("removed paper's list: %d citations, err %v; want ErrNotFound", len(l.Citations), err)
	}
}

// The index is a cache: deleted, it is rebuilt from the vault, and Sync
// reads the same reference lists into it again.
func TestDeletedIndexRebuildsTheLists(t *testing.T) {
	v := newVault(t, "bitcoin.pdf", "peercoin.pdf")
	ctx := context.Background()
	v.sync(t, refs.Options{})
	lists := func() []refs.List {
		t.Helper()
		var out []refs.List
		for _, ref := range []string{bitcoin, peercoin} {
			l, err := refs.ReadList(ctx, v.db, ref)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, l)
		}
		return out
	}
	before := lists()
	if len(before[1].Citations) == 0 {
		t.Fatal("peercoin's list is empty: nothing to compare")
	}

	if err := v.db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(index.Path(v.root) + suffix); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	db, err := index.Open(index.Path(v.root), index.Options{Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	v.db = db
	if _, err := refs.ReadList(ctx, v.db, peercoin); !errors.Is(err, index.ErrNotFound) {
		t.Fatalf("a new index holds a list before any sync: %v", err)
	}
	v.index(t)
	st := v.sync(t, refs.Options{})
	if d := cmp.Diff([]string{bitcoin, peercoin}, st.Scanned); d != "" {
		t.Errorf("sync of the rebuilt index scanned (-want +got):\n%s", d)
	}
	if d := cmp.Diff(before, lists()); d != "" {
		t.Errorf("lists after rebuilding the index (-before +after):\n%s", d)
	}
	if d := cmp.Diff([]string{peercoin}, citedBy(t, v, bitcoin)); d != "" {
		t.Errorf("bitcoin cited by, after the rebuild (-want +got):\n%s", d)
	}
}
