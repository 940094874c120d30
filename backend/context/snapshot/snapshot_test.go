package snapshot_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentero/agentero/backend/context/docs"
	"github.com/agentero/agentero/backend/context/snapshot"
)

var update = flag.Bool("update", false, "rewrite golden files")

var fixedNow = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func opts() snapshot.Options {
	return snapshot.Options{Now: func() time.Time { return fixedNow }}
}

// write puts files (vault-relative paths) into root.
func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func build(t *testing.T, root string) *snapshot.Snapshot {
	t.Helper()
	s, err := snapshot.Build(root, opts())
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return s
}

func TestGuidanceSelection(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string // chosen path, "" for none
	}{
		{"none", map[string]string{"notes/AGENTS.md": "not at the root"}, ""},
		{"AGENTS.md first", map[string]string{"AGENTS.md": "a", "CLAUDE.md": "c", ".claude/AGENTS.md": "d"}, "AGENTS.md"},
		{"then CLAUDE.md", map[string]string{"CLAUDE.md": "c", ".claude/AGENTS.md": "d"}, "CLAUDE.md"},
		{"then .claude/AGENTS.md", map[string]string{".claude/AGENTS.md": "d"}, ".claude/AGENTS.md"},
		{"a folder named AGENTS.md is skipped", map[string]string{"AGENTS.md/x": "x", "CLAUDE.md": "c"}, "CLAUDE.md"},
		{"an empty AGENTS.md still counts", map[string]string{"AGENTS.md": "", "CLAUDE.md": "c"}, "AGENTS.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, tt.files)
			s := build(t, root)
			got := ""
			if s.Guidance != nil {
				got = s.Guidance.Path
				if s.Guidance.Text != tt.files[got] {
					t.Errorf("text = %q, want %q", s.Guidance.Text, tt.files[got])
				}
			}
			if got != tt.want {
				t.Errorf("guidance = %q, want %q", got, tt.want)
			}
		})
	}

	t.Run("parent folders are not searched", func(t *testing.T) {
		parent := t.TempDir()
		write(t, parent, map[string]string{"AGENTS.md": "parent guidance", "vault/papers/x/NOTES.md": "n"})
		if s := build(t, filepath.Join(parent, "vault")); s.Guidance != nil || s.Render() != "" {
			t.Errorf("guidance from a parent folder: %+v", s.Guidance)
		}
	})
	t.Run("AGENTS.md imports are not expanded", func(t *testing.T) {
		root := t.TempDir()
		write(t, root, map[string]string{"AGENTS.md": "rules\n<!-- @import x.md -->\n", "x.md": "X BODY\n"})
		s := build(t, root)
		if s.Guidance.Text != "rules\n<!-- @import x.md -->\n" || len(s.Imports) != 0 {
			t.Errorf("AGENTS.md was expanded: %q %+v", s.Guidance.Text, s.Imports)
		}
	})
	t.Run("a guidance symlink out of the vault is refused", func(t *testing.T) {
		outside := filepath.Join(t.TempDir(), "AGENTS.md")
		os.WriteFile(outside, []byte("SECRET"), 0o644)
		root := t.TempDir()
		write(t, root, map[string]string{"CLAUDE.md": "claude"})
		if err := os.Symlink(outside, filepath.Join(root, "AGENTS.md")); err != nil {
			t.Skip(err)
		}
		s := build(t, root)
		if s.Guidance != nil || strings.Contains(s.Render(), "SECRET") {
			t.Errorf("guidance = %+v", s.Guidance)
		}
		want := []snapshot.Issue{{Path: "AGENTS.md", Problem: "is a symlink that leaves the vault"}}
		if diff := cmp.Diff(want, s.Issues); diff != "" {
			t.Errorf("issues (-want +got):\n%s", diff)
		}
	})
}

func TestImports(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		depth   int
		want    string // expanded CLAUDE.md
		imports []snapshot.Import
		issues  []snapshot.Issue
	}{
		{
			name:  "relative to the importing file",
			files: map[string]string{"CLAUDE.md": "top\n<!-- @import notes/a.md -->\nend\n", "notes/a.md": "A\n<!--@import   b.md-->\n", "notes/b.md": "B"},
			want:  "top\nA\nB\nend\n",
			imports: []snapshot.Import{
				{Path: "notes/a.md", From: "CLAUDE.md", Line: 2, Depth: 1, Bytes: 4},
				{Path: "notes/b.md", From: "notes/a.md", Line: 2, Depth: 2, Bytes: 1},
			},
		},
		{
			name:    "dot-dot that stays inside the vault",
			files:   map[string]string{"CLAUDE.md": "<!-- @import notes/a.md -->\n", "notes/a.md": "<!-- @import ../rules.md -->\n", "rules.md": "R\n"},
			want:    "R\n",
			imports: []snapshot.Import{{Path: "notes/a.md", From: "CLAUDE.md", Line: 1, Depth: 1, Bytes: 2}, {Path: "rules.md", From: "notes/a.md", Line: 1, Depth: 2, Bytes: 2}},
		},
		{
			name: "depth limit",
			files: map[string]string{
				"CLAUDE.md": "0\n<!-- @import 1.md -->\n", "1.md": "1\n<!-- @import 2.md -->\n", "2.md": "2\n<!-- @import 3.md -->\n",
				"3.md": "3\n<!-- @import 4.md -->\n",
			},
			depth: 2,
			want:  "0\n1\n2\n<!-- @import 3.md: not imported (the import depth limit of 2 is reached) -->\n",
			imports: []snapshot.Import{
				{Path: "1.md", From: "CLAUDE.md", Line: 2, Depth: 1, Bytes: 81},
				{Path: "2.md", From: "1.md", Line: 2, Depth: 2, Bytes: 79},
				{Path: "3.md", From: "2.md", Line: 2, Depth: 3, Problem: "the import depth limit of 2 is reached"},
			},
			issues: []snapshot.Issue{{Path: "2.md", Problem: "line 2: @import 3.md: the import depth limit of 2 is reached"}},
		},
		{
			name:  "cycle",
			files: map[string]string{"CLAUDE.md": "c\n<!-- @import a.md -->\n", "a.md": "a\n<!-- @import b.md -->\n", "b.md": "b\n<!-- @import a.md -->\n"},
			want:  "c\na\nb\n<!-- @import a.md: not imported (import cycle a.md → b.md → a.md) -->\n",
			imports: []snapshot.Import{
				{Path: "a.md", From: "CLAUDE.md", Line: 2, Depth: 1, Bytes: 78},
				{Path: "b.md", From: "a.md", Line: 2, Depth: 2, Bytes: 76},
				{Path: "a.md", From: "b.md", Line: 2, Depth: 3, Problem: "import cycle a.md → b.md → a.md"},
			},
			issues: []snapshot.Issue{{Path: "b.md", Problem: "line 2: @import a.md: import cycle a.md → b.md → a.md"}},
		},
		{
			name:    "self import",
			files:   map[string]string{"CLAUDE.md": "c\n<!-- @import ./CLAUDE.md -->\n"},
			want:    "c\n<!-- @import ./CLAUDE.md: not imported (import cycle CLAUDE.md → CLAUDE.md) -->\n",
			imports: []snapshot.Import{{Path: "CLAUDE.md", From: "CLAUDE.md", Line: 2, Depth: 1, Problem: "import cycle CLAUDE.md → CLAUDE.md"}},
			issues:  []snapshot.Issue{{Path: "CLAUDE.md", Problem: "line 2: @import ./CLAUDE.md: import cycle CLAUDE.md → CLAUDE.md"}},
		},
		{
			name:  "imported twice is expanded once",
			files: map[string]string{"CLAUDE.md": "<!-- @import a.md -->\n<!-- @import b.md -->\n", "a.md": "<!-- @import common.md -->\n", "b.md": "<!-- @import common.md -->\n", "common.md": "C\n"},
			want:  "C\n<!-- @import common.md: not imported (already imported above) -->\n",
			imports: []snapshot.Import{
				{Path: "a.md", From: "CLAUDE.md", Line: 1, Depth: 1, Bytes: 2},
				{Path: "common.md", From: "a.md", Line: 1, Depth: 2, Bytes: 2},
				{Path: "b.md", From: "CLAUDE.md", Line: 2, Depth: 1, Bytes: 66},
				{Path: "common.md", From: "b.md", Line: 1, Depth: 2, Problem: "already imported above"},
			},
		},
		{
			name: "refused paths",
			files: map[string]string{"CLAUDE.md": strings.Join([]string{
				"<!-- @import ../outside.md -->", "<!-- @import notes/../../x.md -->", "<!-- @import /etc/passwd -->", "<!-- @import ~/.claude/CLAUDE.md -->",
				"<!-- @import .agentero/context/a.md -->", "<!-- @import missing.md -->", "<!-- @import https://example.com/x.md -->", "<!-- @import notes -->", ""}, "\n"),
				".agentero/context/a.md": "---\ntrigger: manual\n---\nstate\n", "notes/n.md": "n"},
			want: "<!-- @import ../outside.md: not imported (the path leaves the vault) -->\n" +
				"<!-- @import notes/../../x.md: not imported (the path leaves the vault) -->\n" +
				"<!-- @import /etc/passwd: not imported (absolute paths are not imported: use a path relative to the importing file) -->\n" +
				"<!-- @import ~/.claude/CLAUDE.md: not imported (absolute paths are not imported: use a path relative to the importing file) -->\n" +
				"<!-- @import .agentero/context/a.md: not imported (.agentero/ is Agentero's own folder and is not imported) -->\n" +
				"<!-- @import missing.md: not imported (not found) -->\n" +
				"<!-- @import https://example.com/x.md: not imported (absolute paths are not imported: use a path relative to the importing file) -->\n" +
				"<!-- @import notes: not imported (is not a file) -->\n",
		},
		{
			name:  "imports in code fences are text",
			files: map[string]string{"CLAUDE.md": "```md\n<!-- @import a.md -->\n```\n~~~~\n<!-- @import a.md -->\n```\n~~~~\n<!-- @import a.md -->\n", "a.md": "A\n"},
			want:  "```md\n<!-- @import a.md -->\n```\n~~~~\n<!-- @import a.md -->\n```\n~~~~\nA\n",
			imports: []snapshot.Import{
				{Path: "a.md", From: "CLAUDE.md", Line: 8, Depth: 1, Bytes: 2},
			},
		},
		{
			name:    "hidden folders other than .agentero may be imported",
			files:   map[string]string{"CLAUDE.md": "<!-- @import .claude/rules.md -->\n", ".claude/rules.md": "hidden rules\n"},
			want:    "hidden rules\n",
			imports: []snapshot.Import{{Path: ".claude/rules.md", From: "CLAUDE.md", Line: 1, Depth: 1, Bytes: 13}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, tt.files)
			o := opts()
			o.MaxImportDepth = tt.depth
			s, err := snapshot.Build(root, o)
			if err != nil {
				t.Fatal(err)
			}
			if s.Guidance == nil || s.Guidance.Path != "CLAUDE.md" {
				t.Fatalf("guidance = %+v", s.Guidance)
			}
			if diff := cmp.Diff(tt.want, s.Guidance.Text); diff != "" {
				t.Errorf("expanded text (-want +got):\n%s", diff)
			}
			if tt.imports != nil {
				if diff := cmp.Diff(tt.imports, s.Imports); diff != "" {
					t.Errorf("imports (-want +got):\n%s", diff)
				}
			}
			if tt.issues == nil {
				tt.issues = []snapshot.Issue{}
				for _, im := range s.Imports {
					if im.Problem != "" && im.Problem != "already imported above" {
						tt.issues = append(tt.issues, snapshot.Issue{Path: im.From, Problem: "line " + strconv.Itoa(im.Line) + ": @import " + im.Path + ": " + im.Problem})
					}
				}
			}
			if diff := cmp.Diff(tt.issues, s.Issues); diff != "" {
				t.Errorf("issues (-want +got):\n%s", diff)
			}
		})
	}
}

func TestImportSymlinkEscape(t *testing.T) {
	outsideDir := t.TempDir()
	os.WriteFile(filepath.Join(outsideDir, "secret.md"), []byte("TOP SECRET\n"), 0o644)
	root := t.TempDir()
	write(t, root, map[string]string{
		"CLAUDE.md":              "<!-- @import link.md -->\n<!-- @import dirlink/secret.md -->\n<!-- @import state.md -->\n<!-- @import inside.md -->\n",
		"real.md":                "inside the vault\n",
		".agentero/context/s.md": "state\n",
	})
	for link, target := range map[string]string{
		"link.md":   filepath.Join(outsideDir, "secret.md"),
		"dirlink":   outsideDir,
		"state.md":  filepath.Join(root, ".agentero", "context", "s.md"),
		"inside.md": filepath.Join(root, "real.md"),
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Skip("symlinks not available:", err)
		}
	}
	s := build(t, root)
	want := "<!-- @import link.md: not imported (is a symlink that leaves the vault) -->\n" +
		"<!-- @import dirlink/secret.md: not imported (is a symlink that leaves the vault) -->\n" +
		"<!-- @import state.md: not imported (leads into .agentero/, Agentero's own folder) -->\n" +
		"inside the vault\n"
	if diff := cmp.Diff(want, s.Guidance.Text); diff != "" {
		t.Errorf("expanded text (-want +got):\n%s", diff)
	}
	// Three refused imports, and the planted context document reported as
	// having no front matter (treated as manual).
	if strings.Contains(s.Render(), "SECRET") || len(s.Issues) != 4 || !strings.Contains(s.Issues[3].Problem, "no front matter: treated as manual") {
		t.Errorf("issues = %+v", s.Issues)
	}
}

func TestStoredSnapshotIsFrozen(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"AGENTS.md":                   "Cite page numbers.\n",
		".agentero/context/lab.md":    "---\ndescription: Lab\ntrigger: always_on\n---\nUse SI units.\n",
		".agentero/context/topics.md": "---\ndescription: Topics\ntrigger: model_decision\n---\nx\n",
	})
	dir := filepath.Join(root, ".agentero", "chats", "conv-1")
	first, created, err := snapshot.LoadOrBuild(dir, root, opts())
	if err != nil || !created {
		t.Fatalf("LoadOrBuild: created %v, %v", created, err)
	}
	before := first.Render()

	// The user edits the guidance and the documents after the session began.
	write(t, root, map[string]string{
		"AGENTS.md":                   "Cite page numbers and quote exactly.\n",
		"CLAUDE.md":                   "claude\n",
		".agentero/context/lab.md":    "---\ndescription: Lab\ntrigger: always_on\n---\nUse SI units. Never imperial.\n",
		".agentero/context/topics.md": "---\ndescription: Topics\ntrigger: always_on\n---\nx\n",
	})

	// Resume, load and handover reuse the stored snapshot unchanged.
	for _, step := range []string{"resume", "load", "handover"} {
		got, created, err := snapshot.LoadOrBuild(dir, root, snapshot.Options{Now: time.Now})
		if err != nil || created {
			t.Fatalf("%s: created %v, %v", step, created, err)
		}
		if diff := cmp.Diff(first, got); diff != "" {
			t.Errorf("%s: stored snapshot changed (-first +got):\n%s", step, diff)
		}
		if got.Render() != before {
			t.Errorf("%s: rendered snapshot changed", step)
		}
	}
	loaded, err := snapshot.Load(dir)
	if err != nil || loaded.Hash != first.Hash {
		t.Errorf("Load: %v", err)
	}

	// A new session sees the change.
	fresh := build(t, root)
	if fresh.Hash == first.Hash || !strings.Contains(fresh.Render(), "quote exactly") || !strings.Contains(fresh.Render(), "Never imperial") ||
		len(fresh.Manifest.Entries) != 2 || len(fresh.Index.Entries) != 0 {
		t.Errorf("a fresh Build does not see the edits:\n%s", fresh.Render())
	}
	if strings.Contains(before, "quote exactly") {
		t.Error("the stored snapshot saw the edit")
	}
}

func TestLoadRefusesDamage(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"AGENTS.md": "Be brief.\n"})
	dir := t.TempDir()
	if _, err := snapshot.Load(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of nothing: %v, want ErrNotExist", err)
	}
	if err := snapshot.Save(dir, build(t, root)); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, snapshot.FileName)
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), "Be brief.", "Be verbose.", 1)), 0o644)
	if _, err := snapshot.Load(dir); err == nil || !strings.Contains(err.Error(), "does not match its hash") {
		t.Errorf("Load of an edited snapshot: %v", err)
	}
	os.WriteFile(p, []byte("{"), 0o644)
	if _, err := snapshot.Load(dir); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("Load of a broken snapshot: %v", err)
	}
	if _, _, err := snapshot.LoadOrBuild(dir, root, opts()); err == nil {
		t.Error("LoadOrBuild replaced a damaged snapshot silently")
	}
}

func TestBuildFailsLoudly(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"AGENTS.md": "guidance\n", ".agentero/context/rules.json": `{"manifestByteBudget": 300}`}
	for _, id := range []string{"a", "b", "c"} {
		files[".agentero/context/"+id+".md"] = "---\ntrigger: always_on\ndescription: a document that must always be there\n---\nbody\n"
	}
	write(t, root, files)
	_, err := snapshot.Build(root, opts())
	if !errors.Is(err, docs.ErrManifestTooLarge) {
		t.Errorf("Build: %v, want ErrManifestTooLarge", err)
	}
	write(t, root, map[string]string{".agentero/context/rules.json": `{"forbiddenLoad": "a.md"}`})
	if _, err := snapshot.Build(root, opts()); err == nil || !strings.Contains(err.Error(), "rules.json") {
		t.Errorf("Build with malformed rules: %v", err)
	}
}

func TestDocumentProblemsAreIssues(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		".agentero/context/bad.md":  "---\ntrigger: allways_on\n---\nbody\n",
		".agentero/context/good.md": "---\ntrigger: always_on\n---\ngood\n",
	})
	s := build(t, root)
	want := []snapshot.Issue{{Path: ".agentero/context/bad.md", Problem: `front matter line 2: trigger "allways_on" is not one of always_on, model_decision, manual`}}
	if diff := cmp.Diff(want, s.Issues); diff != "" {
		t.Errorf("issues (-want +got):\n%s", diff)
	}
	if len(s.Manifest.Entries) != 1 || s.Manifest.Entries[0].ID != "good.md" {
		t.Errorf("manifest = %+v", s.Manifest.Entries)
	}
}

func TestRenderGolden(t *testing.T) {
	root := t.TempDir()
	var long strings.Builder
	for i := range 400 {
		long.WriteString("Step " + strings.Repeat("·", i%7) + " keep the raw data; note the instrument and its calibration date.\n")
	}
	write(t, root, map[string]string{
		"CLAUDE.md":                       "# Vault guidance\n\nAnswer from the papers; cite pages.\n<!-- @import notes/style.md -->\n<!-- @import missing.md -->\n",
		"notes/style.md":                  "Write short paragraphs.\n",
		".agentero/context/rules.json":    `{"preloadPaths": ["profile.md"], "forbiddenLoad": ["archive/**"], "priorityRules": [{"pattern": "safety.md", "priority": "critical"}]}`,
		".agentero/context/safety.md":     "---\ndescription: Lab safety\ntrigger: always_on\n---\nNever suggest unsupervised work with BSL-2 organisms.\n",
		".agentero/context/profile.md":    "---\ndescription: Who the user is\n---\nA PhD student in structural biology.\n",
		".agentero/context/protocols.md":  "---\ndescription: \"Protocols: the lab's standard steps\"\ntrigger: always_on\npriority: low\n---\n" + long.String(),
		".agentero/context/index.md":      "---\ndescription: Map of the lab's notes\ntrigger: model_decision\npriority: high\n---\nbody\n",
		".agentero/context/glossary.md":   "---\ndescription: Terms\ntrigger: model_decision\n---\nbody\n",
		".agentero/context/archive/x.md":  "---\ndescription: Old\ntrigger: always_on\n---\nold\n",
		".agentero/context/manual.md":     "---\ndescription: Manual only\n---\nmanual\n",
		".agentero/context/broken.md":     "---\ntrigger: sometimes\n---\n",
		".agentero/context/attachment.md": "---\ndescription: 附录\ntrigger: model_decision\n---\n中文\n",
	})
	s := build(t, root)
	got := s.Render()
	golden := filepath.Join("testdata", "snapshot.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("rendered snapshot (-golden +got):\n%s", diff)
	}
	if s.Bytes.Total != len(got) || s.Bytes.Guidance+1+s.Bytes.Manifest+1+s.Bytes.Index != len(got) || s.Manifest.BodyBytes > s.Manifest.Budget || s.Manifest.Bytes-s.Manifest.BodyBytes > s.Manifest.ManifestBudget {
		t.Errorf("bytes = %+v for %d rendered", s.Bytes, len(got))
	}
	if again := build(t, root); again.Render() != got || again.Hash != s.Hash {
		t.Error("the same vault rendered different bytes")
	}
}
