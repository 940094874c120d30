//go:build unix

package refs_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/refs"
	"github.com/google/go-cmp/cmp"
)

// private is a title only files outside the vault hold.
const private = "PRIVATE-SENTINEL Grant Proposal"

// TestSyncReadsReferenceFilesInsideTheVaultOnly plants in paper folders the
// reference files of issue 13: links to a private .bib and sidecar outside
// the vault, to /dev/zero, a FIFO named x.bib, a .bib past its cap, a
// source/ folder that links out. Sync ends, reads none of them, says which
// it skipped, still reads the good .bib beside them, and writes no sidecar
// through a link.
func TestSyncReadsReferenceFilesInsideTheVaultOnly(t *testing.T) {
	v := newVault(t, "bitcoin.pdf", "peercoin.pdf")
	outside := t.TempDir()
	put := func(dir, rel, body string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, rel string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(v.root, filepath.FromSlash(rel))); err != nil {
			t.Fatal(err)
		}
	}
	put(outside, "private.bib", "@article{p, title={"+private+"}, year=2020}")
	put(outside, "src/private.bib", "@article{p, title={"+private+"}, year=2020}")
	put(outside, "agentero-cite.json", `{"schemaVersion":1,"source":{"mode":"zotero"},"citations":[{"id":"1","metadata":{"title":"`+private+`"},"status":"unresolved"}]}`)
	put(v.root, bitcoin+"/source/good.bib", "@article{g, title={A Good Reference Inside the Vault}, year=2001}")
	link(filepath.Join(outside, "private.bib"), bitcoin+"/source/outside.bib")
	link("../../../../"+filepath.Base(outside)+"/private.bib", bitcoin+"/source/climb.bib")
	link("/dev/zero", bitcoin+"/source/zero.bib")
	link("/dev/random", bitcoin+"/source/random.bib")
	link(filepath.Join(outside, "agentero-cite.json"), bitcoin+"/source/agentero-cite.json")
	if err := syscall.Mkfifo(filepath.Join(v.root, bitcoin, "source", "x.bib"), 0o644); err != nil {
		t.Fatal(err)
	}
	huge, err := os.Create(filepath.Join(v.root, bitcoin, "source", "huge.bib"))
	if err != nil {
		t.Fatal(err)
	}
	if err := huge.Truncate(17 << 20); err != nil { // past the 16 MB cap; sparse
		t.Fatal(err)
	}
	huge.Close()
	link(filepath.Join(outside, "src"), peercoin+"/source")
	before := listing(t, outside)

	done := make(chan refs.Stats, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		st, err := refs.Sync(ctx, v.db, v.root, refs.Options{WriteSidecars: true})
		if err != nil {
			t.Errorf("refs.Sync: %v", err)
		}
		done <- st
	}()
	var st refs.Stats
	select {
	case st = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("refs.Sync hangs on the vault's reference files")
	}

	var skipped []string
	for _, k := range st.Skipped {
		skipped = append(skipped, k.Path)
	}
	sort.Strings(skipped)
	want := []string{bitcoin + "/source/agentero-cite.json", bitcoin + "/source/climb.bib", bitcoin + "/source/huge.bib",
		bitcoin + "/source/outside.bib", bitcoin + "/source/random.bib", bitcoin + "/source/x.bib",
		bitcoin + "/source/zero.bib", peercoin + "/source", peercoin + "/source/agentero-cite.json"}
	if d := cmp.Diff(want, skipped); d != "" {
		t.Errorf("skipped files (-want +got):\n%s", d)
	}
	for _, ref := range []string{bitcoin, peercoin} {
		l, err := refs.ReadList(t.Context(), v.db, ref)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range l.Citations {
			if strings.Contains(c.Title+c.Raw, "PRIVATE-SENTINEL") {
				t.Errorf("%s cites %q: a reference file outside the vault was read", ref, c.Title)
			}
		}
		if ref == bitcoin && (len(l.Citations) != 1 || l.Citations[0].Title != "A Good Reference Inside the Vault") {
			t.Errorf("%s's references = %+v, want the good .bib's one entry", ref, l.Citations)
		}
		if !strings.Contains(l.Note, "not read: "+ref+"/source") {
			t.Errorf("%s's note %q does not say what was not read", ref, l.Note)
		}
	}
	if data, err := os.ReadFile(refs.ScanPath(v.root)); err != nil || strings.Contains(string(data), "PRIVATE-SENTINEL") {
		t.Errorf("citing scan: %v, holds the private title: %v", err, strings.Contains(string(data), "PRIVATE-SENTINEL"))
	}
	if d := cmp.Diff(before, listing(t, outside)); d != "" {
		t.Errorf("writing sidecars changed the folder outside the vault (-before +after):\n%s", d)
	}
	if st, err := os.Lstat(filepath.Join(v.root, bitcoin, "source", "agentero-cite.json")); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the linked sidecar was replaced: %v", err)
	}
}

// listing names every file under dir with its size and content hash-free
// mode: enough to see a file appear or change.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		data := ""
		if info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			data = string(b)
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel+" "+info.Mode().String()+" "+data)
		return nil
	})
	return out
}
