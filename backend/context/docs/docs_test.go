package docs_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/context/docs"
)

// vaultWith writes files (paths relative to the context folder) into a new
// vault and returns its root.
func vaultWith(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	ctx := filepath.Join(root, filepath.FromSlash(docs.Dir))
	if err := os.MkdirAll(ctx, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		p := filepath.Join(ctx, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func scan(t *testing.T, root string) *docs.Catalog {
	t.Helper()
	c, err := docs.Scan(root)
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	return c
}

func TestFrontMatter(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		want    docs.Doc // ID and Bytes are filled in by the test
		body    string
		problem string // non-empty: the document is refused with this in its problem
	}{
		{name: "no front matter is manual", file: "# Notes\n", body: "# Notes\n",
			want: docs.Doc{Trigger: docs.Manual, Priority: docs.Normal, NoFrontMatter: true}},
		{name: "trust and sensitivity", file: "---\ndescription: keys\ntrustLevel: external\nsensitivity: sensitive\n---\nk\n", body: "k\n",
			want: docs.Doc{Description: "keys", Trigger: docs.Manual, Priority: docs.Normal, TrustLevel: "external", Sensitivity: "sensitive"}},
		{name: "unknown trust level", file: "---\ntrustLevel: total\n---\n", problem: `trustLevel "total" is not one of user, workspace, external`},
		{name: "unknown sensitivity", file: "---\nsensitivity: secret\n---\n", problem: `sensitivity "secret" is not one of public, internal, sensitive`},
		{name: "all keys", file: "---\ndescription: Lab safety rules\ntrigger: always_on\npriority: critical\n---\nWear goggles.\n", body: "Wear goggles.\n",
			want: docs.Doc{Description: "Lab safety rules", Trigger: docs.AlwaysOn, Priority: docs.Critical}},
		{name: "trigger absent is manual", file: "---\ndescription: x\n---\nbody", body: "body",
			want: docs.Doc{Description: "x", Trigger: docs.Manual, Priority: docs.Normal}},
		{name: "double quoted with colon", file: "---\ndescription: \"Order domain: overview\"\ntrigger: \"model_decision\"\n---\n", body: "",
			want: docs.Doc{Description: "Order domain: overview", Trigger: docs.ModelDecision, Priority: docs.Normal}},
		{name: "single quoted", file: "---\ndescription: 'the lab''s rules'\npriority: 'low'\n---\nb\n", body: "b\n",
			want: docs.Doc{Description: "the lab's rules", Trigger: docs.Manual, Priority: docs.Low}},
		{name: "unknown keys tolerated with nested values", file: "---\ntrustLevel: workspace\ntags:\n  - a\n  - b\nmeta:\n  owner: me\ndescription: d # a comment\n# whole-line comment\n\ntrigger: model_decision\n---\nx\n", body: "x\n",
			want: docs.Doc{Description: "d", Trigger: docs.ModelDecision, Priority: docs.Normal}},
		{name: "CRLF and BOM", file: "\uFEFF---\r\ndescription: win\r\ntrigger: always_on\r\n---\r\nline\r\n", body: "line\r\n",
			want: docs.Doc{Description: "win", Trigger: docs.AlwaysOn, Priority: docs.Normal}},
		{name: "dots close the block", file: "---\ntrigger: manual\n...\nb", body: "b",
			want: docs.Doc{Trigger: docs.Manual, Priority: docs.Normal}},
		{name: "multi-byte description", file: "---\ndescription: 订单知识目录总览\ntrigger: model_decision\n---\n", body: "",
			want: docs.Doc{Description: "订单知识目录总览", Trigger: docs.ModelDecision, Priority: docs.Normal}},

		{name: "unknown trigger", file: "---\ntrigger: always\n---\n", problem: `trigger "always" is not one of always_on, model_decision, manual`},
		{name: "trigger in wrong case", file: "---\ntrigger: Always_On\n---\n", problem: `trigger "Always_On"`},
		{name: "unknown priority", file: "---\npriority: urgent\n---\n", problem: `priority "urgent" is not one of critical, high, normal, low`},
		{name: "empty trigger", file: "---\ntrigger:\n---\n", problem: "trigger is empty"},
		{name: "not closed", file: "---\ndescription: x\ntrigger: always_on\n", problem: "not closed"},
		{name: "only the opening line", file: "---", problem: "not closed"},
		{name: "line without a colon", file: "---\ndescription x\n---\n", problem: `line 2: expected "key: value"`},
		{name: "key twice", file: "---\ntrigger: manual\ntrigger: always_on\n---\n", problem: "line 3: trigger is given twice"},
		{name: "description as a list", file: "---\ndescription: [a, b]\n---\n", problem: "description must be a one-line string"},
		{name: "block description", file: "---\ndescription: >\n  folded\n---\n", problem: "description must be a one-line string"},
		{name: "indented line under a known key", file: "---\ndescription:\n  x\n---\n", problem: "description is empty"},
		{name: "indented after known value", file: "---\ntrigger: manual\n  more\n---\n", problem: "line 3: unexpected indented line"},
		{name: "unclosed quote", file: "---\ndescription: \"abc\n---\n", problem: "unclosed quote"},
		{name: "unquoted colon", file: "---\ndescription: a: b\n---\n", problem: "must be quoted"},
		{name: "description too long", file: "---\ndescription: " + strings.Repeat("x", 501) + "\n---\n", problem: "longer than 500 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := scan(t, vaultWith(t, map[string]string{"doc.md": tt.file}))
			if tt.problem != "" {
				if c.Len() != 0 || len(c.Problems) != 1 {
					t.Fatalf("docs %v, problems %v: want the document refused", c.Docs(), c.Problems)
				}
				if p := c.Problems[0]; p.Path != ".agentero/context/doc.md" || !strings.Contains(p.Problem, tt.problem) {
					t.Errorf("problem = %+v, want one for .agentero/context/doc.md mentioning %q", p, tt.problem)
				}
				if _, err := c.Read("doc.md", 0); !errors.Is(err, docs.ErrNotFound) {
					t.Errorf("Read of a refused document: err = %v, want ErrNotFound", err)
				}
				return
			}
			if len(c.Problems) != 0 {
				t.Fatalf("problems: %v", c.Problems)
			}
			want := tt.want
			want.ID, want.Bytes = "doc.md", len(tt.body)
			if want.TrustLevel == "" {
				want.TrustLevel = docs.DefaultTrust
			}
			if want.Sensitivity == "" {
				want.Sensitivity = docs.DefaultSensitivity
			}
			if want.NoFrontMatter != (len(c.Notices) == 1 && strings.Contains(c.Notices[0].Problem, "no front matter: treated as manual")) {
				t.Errorf("notices = %v: a document without front matter is reported, no other", c.Notices)
			}
			if diff := cmp.Diff([]docs.Doc{want}, c.Docs()); diff != "" {
				t.Errorf("docs (-want +got):\n%s", diff)
			}
			seg, err := c.Read("doc.md", 0)
			if err != nil || seg.Text != tt.body {
				t.Errorf("body = %q, %v; want %q", seg.Text, err, tt.body)
			}
		})
	}
}

func TestTriggers(t *testing.T) {
	root := vaultWith(t, map[string]string{
		"safety.md":      "---\ndescription: Safety\ntrigger: always_on\n---\nNo open flames.\n",
		"index.md":       "---\ndescription: Map of the notes\ntrigger: model_decision\n---\nSee methods/.\n",
		"profile.md":     "---\ndescription: Who I am\ntrigger: manual\n---\nA biologist.\n",
		"plain.md":       "Just text, no front matter.\n",
		"methods/pcr.md": "---\ndescription: PCR protocol\ntrigger: model_decision\npriority: high\n---\n95 °C.\n",
		"notes.txt":      "not Markdown: ignored\n",
		".hidden.md":     "---\ntrigger: always_on\n---\nhidden files are not documents\n",
	})
	c := scan(t, root)
	m, ix, err := c.Assemble(0)
	if err != nil {
		t.Fatal(err)
	}
	var inManifest []string
	for _, e := range m.Entries {
		inManifest = append(inManifest, e.ID+":"+string(e.Load)+":"+e.Reason)
	}
	if diff := cmp.Diff([]string{"safety.md:full:always_on"}, inManifest); diff != "" {
		t.Errorf("manifest (-want +got):\n%s", diff)
	}
	wantIndex := []docs.IndexEntry{
		{ID: "methods/pcr.md", Description: "PCR protocol", Priority: docs.High, TrustLevel: docs.DefaultTrust},
		{ID: "index.md", Description: "Map of the notes", Priority: docs.Normal, TrustLevel: docs.DefaultTrust},
	}
	if diff := cmp.Diff(wantIndex, ix.Entries); diff != "" {
		t.Errorf("index (-want +got):\n%s", diff)
	}
	if r := ix.Render(); strings.Contains(r, "See methods/") || !strings.Contains(r, `"methods/pcr.md" (trust: workspace): PCR protocol`) {
		t.Errorf("the index must carry ids and descriptions, never bodies:\n%s", r)
	}
	if r := m.Render(); strings.Contains(r, "A biologist") || strings.Contains(r, "Who I am") || !strings.Contains(r, "No open flames.") {
		t.Errorf("manifest must hold the always-on body and nothing of manual documents:\n%s", r)
	}
	p, err := c.List("", 0)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, d := range p.Docs {
		listed = append(listed, d.ID+":"+string(d.Trigger))
	}
	want := []string{"index.md:model_decision", "methods/pcr.md:model_decision", "plain.md:manual", "profile.md:manual", "safety.md:always_on"}
	if diff := cmp.Diff(want, listed); diff != "" {
		t.Errorf("listing (-want +got):\n%s", diff)
	}
}

func TestNoContextFolder(t *testing.T) {
	c := scan(t, t.TempDir())
	m, ix, err := c.Assemble(0)
	if err != nil || c.Len() != 0 || len(m.Entries) != 0 || len(ix.Entries) != 0 || m.Render() != "" || ix.Render() != "" {
		t.Errorf("empty vault: len %d, manifest %+v, index %+v, err %v", c.Len(), m, ix, err)
	}
	if _, err := c.Read("x.md", 0); !errors.Is(err, docs.ErrNotFound) {
		t.Errorf("Read in an empty vault: %v", err)
	}
}

func TestRules(t *testing.T) {
	root := vaultWith(t, map[string]string{
		"profile.md":         "---\ndescription: Profile\ntrigger: manual\n---\nprofile body\n",
		"safety.md":          "---\ndescription: Safety\ntrigger: manual\n---\nsafety body\n",
		"archive/old.md":     "---\ndescription: Old decision\ntrigger: always_on\npriority: critical\n---\nold body\n",
		"archive/deep/x.md":  "---\ndescription: Deep\ntrigger: model_decision\n---\ndeep body\n",
		"archive/preload.md": "---\ndescription: Forbidden and preloaded\n---\nforbidden body\n",
		"guide.md":           "---\ndescription: Guide\ntrigger: always_on\npriority: low\n---\nguide body\n",
		docs.RulesFile: `{
			"preloadPaths": ["profile.md", "safety.md", "archive/preload.md", "missing.md"],
			"forbiddenLoad": ["archive/**"],
			"priorityRules": [{"pattern": "safety.md", "priority": "critical"}, {"pattern": "*.md", "priority": "high"}, {"pattern": "safety.md", "priority": "low"}]
		}`,
	})
	c := scan(t, root)
	m, ix, err := c.Assemble(0)
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		ID       string
		Priority docs.Priority
		Reason   string
	}
	var entries []got
	for _, e := range m.Entries {
		entries = append(entries, got{e.ID, e.Priority, e.Reason})
	}
	want := []got{
		{"safety.md", docs.Critical, "preloadPaths"}, // first matching priority rule wins
		{"guide.md", docs.High, "always_on"},
		{"profile.md", docs.High, "preloadPaths"},
	}
	if diff := cmp.Diff(want, entries); diff != "" {
		t.Errorf("manifest: forbiddenLoad must beat preloadPaths and always_on (-want +got):\n%s", diff)
	}
	if len(ix.Entries) != 0 {
		t.Errorf("a forbidden model_decision document entered the index: %+v", ix.Entries)
	}
	for _, id := range []string{"archive/old.md", "archive/preload.md"} {
		if strings.Contains(m.Render(), id) {
			t.Errorf("forbidden %s is in the manifest", id)
		}
	}
	// Forbidden keeps documents out of the base context; the agent may still
	// read them on request, like manual ones.
	if seg, err := c.Read("archive/old.md", 0); err != nil || seg.Text != "old body\n" {
		t.Errorf("read forbidden document: %q, %v", seg.Text, err)
	}
	if diff := cmp.Diff([]docs.Problem{{Path: ".agentero/context/rules.json", Problem: `preloadPaths "missing.md" matches no document`}}, c.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestMalformedRules(t *testing.T) {
	tests := []struct{ name, rules, want string }{
		{"not JSON", `{preloadPaths: []}`, "invalid character"},
		{"misspelt key", `{"forbidenLoad": ["a/**"]}`, `unknown field "forbidenLoad"`},
		{"bad priority", `{"priorityRules": [{"pattern": "a.md", "priority": "urgent"}]}`, `priority "urgent"`},
		{"bad pattern", `{"forbiddenLoad": ["a/[x"]}`, "syntax error in pattern"},
		{"traversal", `{"preloadPaths": ["../../AGENTS.md"]}`, "clean path inside the context folder"},
		{"absolute", `{"preloadPaths": ["/etc/passwd"]}`, "relative slash path"},
		{"negative budget", `{"preloadByteBudget": -1}`, "preloadByteBudget must be between"},
		{"two objects", `{} {}`, "trailing data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := docs.Scan(vaultWith(t, map[string]string{docs.RulesFile: tt.rules, "a.md": "x"}))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "rules.json") {
				t.Errorf("Scan err = %v, want it to name rules.json and %q", err, tt.want)
			}
		})
	}
}

func TestPathsConfined(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("---\ntrigger: always_on\n---\nTOP SECRET\n"), 0o600)
	root := vaultWith(t, map[string]string{
		"a.md":     "---\ntrigger: always_on\n---\nalpha\n",
		"sub/b.md": "bravo\n",
	})
	ctx := filepath.Join(root, filepath.FromSlash(docs.Dir))
	os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("vault guidance\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(ctx, "escape.md")); err != nil {
		t.Skip("symlinks not available:", err)
	}
	os.Symlink(filepath.Join(root, "AGENTS.md"), filepath.Join(ctx, "vault-link.md")) // in the vault, but outside the folder
	os.Symlink(filepath.Join(ctx, "a.md"), filepath.Join(ctx, "alias.md"))            // inside: fine
	os.Symlink(filepath.Dir(outside), filepath.Join(ctx, "linkdir"))                  // folders are not followed

	c := scan(t, root)
	var ids []string
	for _, d := range c.Docs() {
		ids = append(ids, d.ID)
	}
	if diff := cmp.Diff([]string{"a.md", "alias.md", "sub/b.md"}, ids); diff != "" {
		t.Errorf("documents (-want +got):\n%s", diff)
	}
	wantProblems := []docs.Problem{
		{Path: ".agentero/context/escape.md", Problem: "is a symlink that leaves the context folder"},
		{Path: ".agentero/context/vault-link.md", Problem: "is a symlink that leaves the context folder"},
	}
	if diff := cmp.Diff(wantProblems, c.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	m, _, err := c.Assemble(0)
	if err != nil || strings.Contains(m.Render(), "TOP SECRET") {
		t.Errorf("manifest leaked the outside file or failed (%v):\n%s", err, m.Render())
	}
	for _, id := range []string{"escape.md", "vault-link.md", "../../AGENTS.md", "/etc/passwd", "sub/../a.md", "./a.md", "sub//b.md",
		".hidden.md", "a.txt", "a.md\x00", `sub\b.md`, "linkdir/secret.md", "", strings.Repeat("a/", 600) + "x.md", "missing.md"} {
		if _, err := c.Read(id, 0); !errors.Is(err, docs.ErrNotFound) {
			t.Errorf("Read(%q): err = %v, want ErrNotFound", id, err)
		}
	}
	// A document swapped for an escaping symlink after the scan is refused at read time.
	os.Remove(filepath.Join(ctx, "sub", "b.md"))
	os.Symlink(outside, filepath.Join(ctx, "sub", "b.md"))
	if seg, err := c.Read("sub/b.md", 0); err == nil || strings.Contains(seg.Text, "SECRET") {
		t.Errorf("read through a swapped symlink: %q, %v", seg.Text, err)
	}
}
