package mcp

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/vault"
)

// The path and citation-URI checks are fuzzed; their seed corpus is in
// testdata/fuzz/<FuzzName>. Run one with, for example,
//   go test -tags sqlite_fts5 -run '^$' -fuzz FuzzCleanRef -fuzztime 60s ./backend/mcp/

// fuzzGrant grants a paper folder, a directory and a file.
func fuzzGrant(vaultDir string) *grant.Grant {
	return &grant.Grant{Version: grant.Version, Vault: vaultDir, RuntimeID: "fuzz", Mode: grant.ModeMCP,
		Budget: grant.DefaultBudget(), Allowed: []grant.Source{
			{Kind: grant.KindPaper, Ref: "papers/a"},
			{Kind: grant.KindDirectory, Ref: "notes/n"},
			{Kind: grant.KindFile, Ref: "notes/f.md"},
		}}
}

// safeForm is what every decoding of a clean ref must be: relative, and
// free of "..", NUL, backslashes and Agentero's state.
func checkSafe(t *testing.T, s string) {
	t.Helper()
	if strings.ContainsAny(s, "\x00\\") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || filepath.IsAbs(s) {
		t.Fatalf("unsafe form %q", s)
	}
	for _, part := range strings.Split(s, "/") {
		if part == ".." || part == vault.StateDir {
			t.Fatalf("unsafe component in %q", s)
		}
	}
}

func FuzzCleanRef(f *testing.F) {
	g := fuzzGrant("/vault")
	f.Fuzz(func(t *testing.T, raw string) {
		ref, err := grant.CleanRef(raw)
		if err != nil {
			if err != grant.ErrRefused {
				t.Fatalf("CleanRef(%q): error %v is not the refusal", raw, err)
			}
			return
		}
		if !vault.ValidRel(ref) {
			t.Fatalf("CleanRef(%q) = %q, not a clean vault path", raw, ref)
		}
		// The ref, and its URL-decoded and double-decoded forms, are safe.
		d := ref
		for range 3 {
			checkSafe(t, d)
			next, err := url.PathUnescape(d)
			if err != nil || next == d {
				break
			}
			d = next
		}
		src, err := g.Covering(ref)
		if err != nil {
			return
		}
		inside := ref == src.Ref || strings.HasPrefix(ref, src.Ref+"/")
		switch {
		case !inside:
			t.Fatalf("%q covered by %v from outside it", ref, src)
		case src.Kind == grant.KindFile && ref != src.Ref:
			t.Fatalf("%q covered by file %v", ref, src)
		case src.Kind == grant.KindDirectory && strings.EqualFold(filepath.Ext(ref), ".pdf"):
			t.Fatalf("PDF %q covered by directory %v", ref, src)
		}
	})
}

func FuzzParseRef(f *testing.F) {
	f.Fuzz(func(t *testing.T, raw string) {
		loc, err := parseRef(raw)
		if err != nil {
			if _, ok := err.(userError); !ok && !errors.Is(err, grant.ErrRefused) {
				t.Fatalf("parseRef(%q): error %T", raw, err)
			}
			if strings.Contains(err.Error(), raw) && len(raw) > 3 {
				t.Fatalf("the error echoes the input: %q", err)
			}
			return
		}
		if loc.External() || loc.Page < 0 || loc.Page > maxPage {
			t.Fatalf("parseRef(%q) = %+v", raw, loc)
		}
		if _, err := citation.Parse(raw); err != nil && (loc.Path != raw || loc.Page != 0 || loc.Quote != "") {
			t.Fatalf("a path that is no citation URI changed: %q -> %+v", raw, loc)
		}
		// What the server writes parses back to the same location.
		if loc.Page > 0 {
			again, err := parseRef(loc.String())
			if err != nil || again != loc {
				t.Fatalf("round trip of %+v: %+v, %v", loc, again, err)
			}
		}
	})
}

// fuzzVault is a vault with links in and out of the granted sources.
func fuzzVault(t testing.TB) string {
	root := t.TempDir()
	for _, p := range []string{"papers/a/a.pdf", "papers/a/NOTES.md", "papers/a-evil/x.md", "papers/b/b.pdf",
		"notes/n/x.md", "notes/n/sub/y.md", "notes/f.md", "notes/g.md", "notes/secret.md", ".agentero/index.sqlite"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte("text"), 0o644)
	}
	for link, target := range map[string]string{
		"papers/a/out.pdf":   "../b/b.pdf",
		"papers/a/evil":      "../a-evil",
		"papers/a/in.md":     "NOTES.md",
		"papers/a/state":     "../../.agentero",
		"notes/n/up":         "..",
		"notes/n/hop1":       "hop2",
		"notes/n/hop2":       "../secret.md",
		"notes/n/loop":       "loop",
		"notes/n/in":         "sub",
		"notes/n/abs":        "/etc",
		"notes/n/sub/back":   "../x.md",
		"notes/n/sub/parent": "../../n",
	} {
		os.Symlink(target, filepath.Join(root, filepath.FromSlash(link)))
	}
	return root
}

func FuzzResolve(f *testing.F) {
	root := fuzzVault(f)
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		f.Fatal(err)
	}
	g := fuzzGrant(root)
	f.Fuzz(func(t *testing.T, raw string) {
		loc, err := parseRef(raw)
		if err != nil {
			return
		}
		ref, src, abs, err := g.Resolve(loc.Path)
		if err != nil {
			if err != grant.ErrRefused && !strings.HasPrefix(err.Error(), "not found: ") {
				t.Fatalf("Resolve(%q): %v", loc.Path, err)
			}
			return
		}
		srcReal, err := filepath.EvalSymlinks(filepath.Join(rootReal, filepath.FromSlash(src.Ref)))
		if err != nil {
			t.Fatal(err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil || real != abs {
			t.Fatalf("Resolve(%q) = %q, which is not a real path (%q, %v)", loc.Path, abs, real, err)
		}
		if abs != srcReal && !strings.HasPrefix(abs, srcReal+string(filepath.Separator)) {
			t.Fatalf("Resolve(%q) = %q (ref %q), outside its source %s", loc.Path, abs, ref, srcReal)
		}
		rel, _ := filepath.Rel(rootReal, abs)
		if vault.Hidden(filepath.ToSlash(rel)) || strings.Contains(filepath.ToSlash(rel), "secret") ||
			strings.HasPrefix(filepath.ToSlash(rel), "papers/b") || strings.HasPrefix(filepath.ToSlash(rel), "papers/a-evil") {
			t.Fatalf("Resolve(%q) reached %q", loc.Path, rel)
		}
	})
}
