package plan_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/backend/vault"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// titledExtractor gives every PDF three pages, a title line and an
// outline of one section (its name, on page 1), so the index is real
// without PDF parsing.
type titledExtractor struct{}

func (titledExtractor) ExtractFile(_ context.Context, f *os.File) (*pdf.Document, error) {
	title := strings.TrimSuffix(filepath.Base(f.Name()), ".pdf")
	return &pdf.Document{
		Pages:          []pdf.Page{{Number: 1, Text: title}, {Number: 2, Text: "two"}, {Number: 3, Text: "three"}},
		FirstPageLines: []pdf.Line{{Text: "The " + title + " Paper", Size: 20}},
		Outline:        []pdf.Section{{Title: title, Level: 1, Page: 1}},
	}, nil
}

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testVault is a vault with three papers, notes and a link out of it.
func testVault(t *testing.T) (*plan.Resolver, string) {
	t.Helper()
	root := t.TempDir()
	outside := t.TempDir()
	write(t, root, "papers/raft/raft.pdf", "%PDF raft")
	write(t, root, "papers/raft/NOTES.md", "my notes")
	write(t, root, "papers/paxos/paxos.pdf", "%PDF paxos")
	write(t, root, "papers/raft-evil/evil.pdf", "%PDF evil")
	write(t, root, "notes/consensus/summary.md", "summary")
	write(t, root, "notes/consensus/TODO", "todo")
	write(t, root, "AGENTS.md", "how to work here")
	write(t, root, ".hidden.md", "hidden")
	write(t, root, "cover.png", "\x89PNG")
	write(t, outside, "secret.md", "secret")
	os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, "leak.md"))
	os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, "notes/leak.md"))
	os.Symlink(outside, filepath.Join(root, "notes/leakdir"))
	db, err := index.Open(index.Path(root), index.Options{Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	snap, err := vault.Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := index.NewIndexer(db, titledExtractor{}, index.SyncOptions{}).Sync(context.Background(), snap); err != nil {
		t.Fatal(err)
	}
	return &plan.Resolver{Vault: root, Papers: db}, root
}

func resolve(t *testing.T, r *plan.Resolver, req plan.Request) *plan.Plan {
	t.Helper()
	p, err := r.Resolve(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func src(kind, ref string) grant.Source { return grant.Source{Kind: kind, Ref: ref} }

func TestResolveAllowedAndMode(t *testing.T) {
	r, _ := testVault(t)
	long := strings.Repeat("word ", 400)
	tests := []struct {
		name    string
		req     plan.Request
		mode    string
		allowed []grant.Source
		refused int
	}{
		{"current paper", plan.Request{Surface: "sidebar", CurrentPaper: "papers/raft"}, "mcp",
			[]grant.Source{src("paper", "papers/raft")}, 0},
		{"selection grants its paper", plan.Request{Surface: "sidebar", Selections: []plan.Selection{{SourcePath: "papers/paxos/paxos.pdf", Page: 2, Text: "two"}}}, "mcp",
			[]grant.Source{src("paper", "papers/paxos")}, 0},
		{"selection in a file", plan.Request{Surface: "quickChat", Selections: []plan.Selection{{SourcePath: "notes/consensus/summary.md", Text: long}}}, "mcp",
			[]grant.Source{src("file", "notes/consensus/summary.md")}, 0},
		{"mentions of each kind", plan.Request{Surface: "quickChat", Mentions: []plan.Mention{
			{Kind: "paper", Path: "papers/paxos"}, {Kind: "paper", Path: "papers/raft/raft.pdf"},
			{Kind: "directory", Path: "notes/consensus"}, {Kind: "file", Path: "notes/consensus/TODO"}}}, "mcp",
			[]grant.Source{src("paper", "papers/paxos"), src("paper", "papers/raft"), src("directory", "notes/consensus"), src("file", "notes/consensus/TODO")}, 0},
		{"paper folder mentioned as a directory, PDF as a file", plan.Request{Surface: "quickChat", Mentions: []plan.Mention{
			{Kind: "directory", Path: "papers/raft"}, {Kind: "file", Path: "papers/paxos/paxos.pdf"}}}, "mcp",
			[]grant.Source{src("paper", "papers/paxos"), src("paper", "papers/raft")}, 0},
		{"a folder covers the papers inside it at any depth", plan.Request{Surface: "quickChat", Mentions: []plan.Mention{{Kind: "directory", Path: "papers"}}}, "mcp",
			[]grant.Source{src("paper", "papers/paxos"), src("paper", "papers/raft"), src("paper", "papers/raft-evil"), src("directory", "papers")}, 0},
		{"@vault grants every top folder and its papers, and the text files at the top", plan.Request{Surface: "quickChat", Mentions: []plan.Mention{{Kind: "vault"}}}, "mcp",
			[]grant.Source{src("paper", "papers/paxos"), src("paper", "papers/raft"), src("paper", "papers/raft-evil"), src("directory", "notes"), src("directory", "papers"), src("file", "AGENTS.md")}, 0},
		{"remote is prompt-only", plan.Request{Surface: "sidebar", CurrentPaper: "papers/raft", Remote: true}, "prompt-only",
			[]grant.Source{src("paper", "papers/raft")}, 0},
		{"nothing pointed at is prompt-only", plan.Request{Surface: "quickChat"}, "prompt-only", []grant.Source{}, 0},
		{"refusals", plan.Request{Surface: "quickChat", CurrentPaper: "papers/nope", Mentions: []plan.Mention{
			{Kind: "directory", Path: "../"}, {Kind: "file", Path: "/etc/passwd"}, {Kind: "file", Path: "notes/leak.md"},
			{Kind: "directory", Path: "notes/leakdir"}, {Kind: "directory", Path: ".agentero"}, {Kind: "paper", Path: "papers/raft/NOTES.md"},
			{Kind: "file", Path: "notes/%2e%2e/%2e%2e/etc"}, {Kind: "directory", Path: "notes/consensus/summary.md"},
			{Kind: "file", Path: "notes/consensus"}, {Kind: "folder", Path: "notes"}, {Kind: "paper", Path: "papers/raft-ev"}}},
			"prompt-only", []grant.Source{}, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := resolve(t, r, tt.req)
			if p.Mode != tt.mode {
				t.Errorf("mode = %q, want %q", p.Mode, tt.mode)
			}
			if diff := cmp.Diff(tt.allowed, p.Allowed); diff != "" {
				t.Errorf("allowed (-want +got):\n%s", diff)
			}
			if len(p.Refused) != tt.refused {
				t.Errorf("refused = %+v, want %d", p.Refused, tt.refused)
			}
			// An mcp turn gets the three source tools and context_history,
			// and no tool that writes: the agent was not allowed to write
			// (this vault has no context documents and no skills).
			if (p.Mode == "mcp") != slices.Equal(p.Tools, append(slices.Clone(plan.Tools), plan.HistoryTool)) {
				t.Errorf("tools %v for mode %s", p.Tools, p.Mode)
			}
		})
	}
}

// TestWriteToolOnlyForWriters: a grant is read-only unless the turn's agent
// may write context documents; then it holds the write tool, and its
// fingerprint differs, so a session opened read-only never gains it.
func TestWriteToolOnlyForWriters(t *testing.T) {
	r, _ := testVault(t)
	req := plan.Request{Surface: "sidebar", CurrentPaper: "papers/raft"}
	read := resolve(t, r, req)
	if slices.Contains(read.Tools, grant.WriteDocTool) {
		t.Errorf("a default grant offers %s: %v", grant.WriteDocTool, read.Tools)
	}
	w := *r
	w.WriteDocs = true
	write := resolve(t, &w, req)
	if !slices.Contains(write.Tools, grant.WriteDocTool) {
		t.Errorf("a writer's grant lacks %s: %v", grant.WriteDocTool, write.Tools)
	}
	if write.Fingerprint == read.Fingerprint {
		t.Error("the write tool does not change the fingerprint")
	}
	if p := resolve(t, &w, plan.Request{Surface: "quickChat"}); len(p.Tools) != 0 {
		t.Errorf("a prompt-only turn of a writer has tools %v", p.Tools)
	}
}

func TestEvidenceCards(t *testing.T) {
	r, _ := testVault(t)
	long := strings.Repeat("consensus ", 200) // 2000 characters
	p := resolve(t, r, plan.Request{Surface: "sidebar", CurrentPaper: "papers/raft",
		Selections: []plan.Selection{{SourcePath: "papers/raft/raft.pdf", Page: 3, Text: "  Raft decomposes\n consensus  "},
			{SourcePath: "papers/paxos/paxos.pdf", Page: 2, Text: long}},
		Mentions: []plan.Mention{{Kind: "paper", Path: "papers/raft"}}})
	want := []plan.Card{
		// the section each page is in: the one section, from page 1
		{Kind: "paper", Ref: "papers/raft", Title: "The raft Paper", Page: 3, Section: "raft", Quote: "Raft decomposes consensus", CitationURI: "papers/raft/raft.pdf#page=3"},
		{Kind: "paper", Ref: "papers/paxos", Title: "The paxos Paper", Page: 2, Section: "paxos", Quote: strings.TrimSpace(strings.Repeat("consensus ", 120)), Cut: true, CitationURI: "papers/paxos/paxos.pdf#page=2"},
	}
	if diff := cmp.Diff(want, p.Evidence); diff != "" {
		t.Errorf("evidence (-want +got):\n%s", diff)
	}
	if n := len([]rune(p.Evidence[1].Quote)); n > plan.MaxQuoteChars {
		t.Errorf("cut quote has %d characters", n)
	}
	bad := resolve(t, r, plan.Request{Surface: "sidebar", Selections: []plan.Selection{{SourcePath: "papers/raft/raft.pdf", Page: 9, Text: "x"}}})
	if len(bad.Refused) != 1 || len(bad.Evidence) != 0 {
		t.Errorf("page out of range: %+v", bad)
	}
	if _, err := r.Resolve(context.Background(), plan.Request{Surface: "elsewhere"}); err == nil {
		t.Error("unknown surface accepted")
	}
}

func TestFingerprint(t *testing.T) {
	r, _ := testVault(t)
	base := plan.Request{Surface: "sidebar", CurrentPaper: "papers/raft", Selections: []plan.Selection{{SourcePath: "papers/raft/raft.pdf", Page: 2, Text: "one quote"}}}
	fp := resolve(t, r, base).Fingerprint

	sameQuoteEdited := base
	sameQuoteEdited.Selections = []plan.Selection{{SourcePath: "papers/raft/raft.pdf", Page: 3, Text: "another quote entirely"}}
	if got := resolve(t, r, sameQuoteEdited).Fingerprint; got != fp {
		t.Error("editing the quoted text changed the fingerprint")
	}
	otherSurface := base
	otherSurface.Surface = "quickChat"
	if got := resolve(t, r, otherSurface).Fingerprint; got != fp {
		t.Error("the surface changed the fingerprint")
	}
	moreSources := base
	moreSources.Mentions = []plan.Mention{{Kind: "directory", Path: "notes/consensus"}}
	if resolve(t, r, moreSources).Fingerprint == fp {
		t.Error("adding a source kept the fingerprint")
	}
	remote := base
	remote.Remote = true
	if resolve(t, r, remote).Fingerprint == fp {
		t.Error("changing the mode kept the fingerprint")
	}
	r.Budget = grant.DefaultBudget()
	r.Budget.FullChars = 10000
	if resolve(t, r, base).Fingerprint == fp {
		t.Error("changing the budget kept the fingerprint")
	}
	p := resolve(t, &plan.Resolver{Vault: r.Vault, Papers: r.Papers}, base)
	if plan.Fingerprint(p.Tools[:2], p.Allowed, p.Budget, p.Mode) == fp {
		t.Error("changing the tools kept the fingerprint")
	}
	if plan.Fingerprint(p.Tools, p.Allowed, p.Budget, p.Mode) != fp {
		t.Error("Fingerprint does not match the plan's")
	}
}

func TestRenderGolden(t *testing.T) {
	r, root := testVault(t)
	cases := map[string]plan.Request{
		"mcp": {Surface: "sidebar", CurrentPaper: "papers/raft",
			Selections: []plan.Selection{{SourcePath: "papers/raft/raft.pdf", Page: 3, Text: "Raft decomposes the consensus problem\ninto three subproblems."},
				{SourcePath: "papers/paxos/paxos.pdf", Page: 1, Text: strings.Repeat("a long passage ", 100)}},
			Mentions: []plan.Mention{{Kind: "directory", Path: "notes/consensus"}, {Kind: "paper", Path: "papers/paxos"}}},
		"prompt-only-remote": {Surface: "sidebar", CurrentPaper: "papers/raft", Remote: true,
			Selections: []plan.Selection{{SourcePath: "papers/raft/raft.pdf", Page: 2, Text: strings.Repeat("cut here ", 200)}}},
		"prompt-only-nothing": {Surface: "quickChat"},
	}
	for name, req := range cases {
		t.Run(name, func(t *testing.T) {
			p := resolve(t, r, req)
			got := p.Render()
			if again := resolve(t, r, req).Render(); again != got {
				t.Fatal("the same request rendered different bytes")
			}
			if strings.Contains(got, root) {
				t.Error("the prompt names the vault's absolute path")
			}
			golden := filepath.Join("testdata", name+".golden")
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
				t.Errorf("rendered prompt (-golden +got):\n%s", diff)
			}
		})
	}
}

func TestGrantRoundTrip(t *testing.T) {
	r, root := testVault(t)
	p := resolve(t, r, plan.Request{Surface: "sidebar", CurrentPaper: "papers/raft", Mentions: []plan.Mention{{Kind: "directory", Path: "notes/consensus"}}})
	path, err := grant.Write(p.Grant(root, "conv-1.turn-2", fixedNow))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, ".agentero", "context-sessions", "conv-1.turn-2", "grant.json"); path != want {
		t.Errorf("grant path = %s, want %s", path, want)
	}
	g, err := grant.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.Fingerprint != p.Fingerprint || g.Mode != "mcp" || !cmp.Equal(g.Allowed, p.Allowed) || g.Budget != p.Budget {
		t.Errorf("loaded grant %+v differs from plan %+v", g, p)
	}
	for _, bad := range []string{"../x", ".hidden", "a/b", ""} {
		if _, err := grant.Write(p.Grant(root, bad, fixedNow)); err == nil {
			t.Errorf("runtime id %q accepted", bad)
		}
	}
}
