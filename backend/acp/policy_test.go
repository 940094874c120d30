package acp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/quote"
	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/go-cmp/cmp"
)

var claudeOptions = []sdk.PermissionOption{
	{OptionId: "allow_always", Name: "Always Allow", Kind: sdk.PermissionOptionKindAllowAlways},
	{OptionId: "allow", Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce},
	{OptionId: "reject", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
}

func geminiOptions(server, tool string) []sdk.PermissionOption {
	return []sdk.PermissionOption{
		{OptionId: "proceed_always_server", Name: "Always Allow " + server, Kind: sdk.PermissionOptionKindAllowAlways},
		{OptionId: "proceed_always_tool", Name: "Always Allow " + tool, Kind: sdk.PermissionOptionKindAllowAlways},
		{OptionId: "proceed_once", Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce},
		{OptionId: "cancel", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
	}
}

func titled(title string, opts []sdk.PermissionOption) sdk.RequestPermissionRequest {
	return sdk.RequestPermissionRequest{Options: opts, ToolCall: sdk.ToolCallUpdate{ToolCallId: "t1", Title: &title}}
}

// TestContextToolMatching: a request is for one of the turn's context tools
// only when it names our server and a granted tool of ours, in one of the
// forms agents use, as a whole.
func TestContextToolMatching(t *testing.T) {
	granted := plan.Tools
	gemini := func(id, server, tool string) sdk.RequestPermissionRequest {
		r := titled(`{"query":"raft"}`, geminiOptions(server, tool))
		r.ToolCall.ToolCallId = sdk.ToolCallId(id)
		return r
	}
	meta := titled("context_search", claudeOptions)
	meta.ToolCall.Meta = map[string]any{"claudeCode": map[string]any{"toolName": "mcp__agentero-context__context_search"}}
	tests := []struct {
		name    string
		req     sdk.RequestPermissionRequest
		granted []string
		want    string
	}{
		{"claude title", titled("mcp__agentero-context__context_search", claudeOptions), granted, "context_search"},
		{"claude read", titled("mcp__agentero-context__context_read", claudeOptions), granted, "context_read"},
		{"claude meta", meta, granted, "context_search"},
		{"case and spaces", titled("  MCP__Agentero-Context__Context_Read ", claudeOptions), granted, "context_read"},
		{"qualified", titled("agentero-context__paper_relations", claudeOptions), granted, "paper_relations"},
		{"slash", titled("agentero-context/context_search", claudeOptions), granted, "context_search"},
		{"opencode", titled("agentero-context_context_search", claudeOptions), granted, "context_search"},
		{"gemini display name", titled("context_read (agentero-context MCP Server)", claudeOptions), granted, "context_read"},
		{"gemini options", gemini("x", "agentero-context", "context_search"), granted, "context_search"},
		{"gemini call id", gemini("context_read-1712345678", "agentero-context", "other"), granted, "context_read"},

		{"another server", titled("mcp__evil__context_search", claudeOptions), granted, ""},
		{"server prefix", titled("mcp__agentero-context-2__context_search", claudeOptions), granted, ""},
		{"longer tool", titled("mcp__agentero-context__context_search_all", claudeOptions), granted, ""},
		{"containing ours", titled("Run mcp__agentero-context__context_search now", claudeOptions), granted, ""},
		{"nested server", titled("mcp__evil__agentero-context__context_search", claudeOptions), granted, ""},
		{"bare tool name", titled("context_search", claudeOptions), granted, ""},
		{"not granted", titled("mcp__agentero-context__context_history", claudeOptions), granted, ""},
		{"prompt-only turn", titled("mcp__agentero-context__context_search", claudeOptions), nil, ""},
		{"gemini other server", gemini("context_search-1", "evil", "context_search"), granted, ""},
		{"gemini our server, other tool", gemini("write-1", "agentero-context", "write_file"), granted, ""},
		{"edit", titled("Edit `/vault/notes/ideas.md`", claudeOptions), granted, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := contextTool(tt.req, toolState{}, tt.granted); got != tt.want {
				t.Errorf("contextTool = %q, want %q", got, tt.want)
			}
		})
	}
	// The title may come from the tool call the agent announced before.
	known := toolState{ev: events.AgentToolEvent{Title: "mcp__agentero-context__context_search"}}
	if got := contextTool(sdk.RequestPermissionRequest{Options: claudeOptions, ToolCall: sdk.ToolCallUpdate{ToolCallId: "t1"}}, known, granted); got != "context_search" {
		t.Errorf("from the announced call: %q", got)
	}
}

func TestOptionChoice(t *testing.T) {
	tests := []struct {
		name          string
		opts          []sdk.PermissionOption
		allow, reject string // "" = none
	}{
		{"claude", claudeOptions, "allow_always", "reject"},
		{"gemini", geminiOptions("agentero-context", "context_search"), "proceed_always_server", "cancel"},
		{"once only", []sdk.PermissionOption{{OptionId: "r", Kind: sdk.PermissionOptionKindRejectAlways}, {OptionId: "o", Kind: sdk.PermissionOptionKindAllowOnce}}, "o", "r"},
		{"none", nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := allowOption(tt.opts)
			r, _ := rejectOption(tt.opts)
			if string(a.OptionId) != tt.allow || string(r.OptionId) != tt.reject {
				t.Errorf("allow %q reject %q, want %q and %q", a.OptionId, r.OptionId, tt.allow, tt.reject)
			}
		})
	}
}

// TestLocator: paths are judged where they really lead, however they are
// written; a file of the vault opens by its citation URI.
func TestLocator(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	v := filepath.Join(base, "vault")
	cwd := filepath.Join(base, "cache", "sessions", "c1")
	for _, d := range []string{filepath.Join(v, "papers", "raft"), filepath.Join(v, "notes"), filepath.Join(v, ".agentero"), cwd, filepath.Join(base, "elsewhere")} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(v, "papers", "raft", "paper.pdf"), []byte("%PDF"), 0o644)
	os.WriteFile(filepath.Join(v, "notes", "a.md"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(base, "elsewhere", "x.md"), []byte("x"), 0o644)
	os.Symlink(v, filepath.Join(cwd, "link"))                             // a way into the vault from the session's folder
	os.Symlink(filepath.Join(base, "elsewhere"), filepath.Join(v, "out")) // a way out of it
	link := filepath.Join(base, "vault-link")
	os.Symlink(v, link)
	l := newLocator(link, cwd) // the vault opened through a link

	tests := []struct {
		path string
		page int
		want events.ToolLocation
	}{
		{filepath.Join(v, "papers/raft/paper.pdf"), 3, events.ToolLocation{InVault: true, CitationURI: "papers/raft/paper.pdf#page=3"}},
		{filepath.Join(link, "notes/a.md"), 0, events.ToolLocation{InVault: true, CitationURI: "notes/a.md"}},
		{"link/notes/a.md", 0, events.ToolLocation{InVault: true, CitationURI: "notes/a.md"}},
		{"../../../vault/notes/a.md", 0, events.ToolLocation{InVault: true, CitationURI: "notes/a.md"}},
		{"file://" + filepath.Join(v, "notes/a.md"), 0, events.ToolLocation{InVault: true, CitationURI: "notes/a.md"}},
		{filepath.Join(v, "notes/new.md"), 0, events.ToolLocation{InVault: true}},           // not there yet: nothing to open
		{filepath.Join(v, "out/x.md"), 0, events.ToolLocation{}},                            // a link out of the vault
		{v + "/out/../notes/a.md", 0, events.ToolLocation{}},                                // ".." after the link: elsewhere/../notes
		{filepath.Join(v, ".agentero/index.sqlite"), 0, events.ToolLocation{InVault: true}}, // inside, never opened
		{v, 0, events.ToolLocation{InVault: true}},                                          // the vault itself
		{filepath.Join(base, "vaultish/notes/a.md"), 0, events.ToolLocation{}},              // a sibling prefix
		{"notes/a.md", 0, events.ToolLocation{}},                                            // relative to the session folder
		{filepath.Join(base, "elsewhere/x.md"), 0, events.ToolLocation{}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got := l.locate(tt.path, 0, tt.page)
			tt.want.Path = tt.path
			if got != tt.want {
				t.Errorf("locate(%q) = %+v, want %+v", tt.path, got, tt.want)
			}
		})
	}

	// A raw input's paths: path-like keys as they are, absolute words of a
	// command; a page it names opens the PDF there.
	raw := map[string]any{"command": "cat " + filepath.Join(v, "notes/a.md") + " | head", "file_path": "link/papers/raft/paper.pdf", "pages": "4-5"}
	extra, in := l.reach(nil, raw, nil)
	var uris []string
	for _, e := range extra {
		uris = append(uris, e.CitationURI)
	}
	if want := []string{"notes/a.md", "papers/raft/paper.pdf#page=4"}; !in || !cmp.Equal(uris, want) {
		t.Errorf("reach = %v (in vault %v), want %v", uris, in, want)
	}
	if _, in := l.reach(nil, map[string]any{"query": "raft", "ref": "papers/raft"}, nil); in {
		t.Error("a context tool's input was taken for a path into the vault")
	}
}

// TestQuotes: a quoted passage is found on its page whatever the spacing,
// hyphenation, ellipses or a citation inside it; a short phrase is not a
// passage. (How a citation is written is citation.Find's, tested there.)
func TestQuotes(t *testing.T) {
	page := quote.NewPaper([]quote.Page{{Number: 3, Text: "Raft decomposes the consensus problem into three rela-\ntively independent subproblems: leader election, log replication, and safety. " +
		"A leader must eventually be elected."}})
	tests := []struct {
		text  string
		found bool
	}{
		{"The paper says “Raft decomposes the consensus problem into three relatively independent subproblems”.", true},
		{"> Raft decomposes the consensus problem\n> into three relatively independent subproblems ([p. 3](papers/raft/paper.pdf#page=3))", true},
		{`It says "decomposes the consensus problem … leader election, log replication, and safety".`, true},
		{`It says "decomposes the consensus problem papers/raft/paper.pdf#page=3 leader election, log replication, and safety".`, true},
		{"“Raft decomposes the consensus problem into four parts and more”", false},
		{"“leader election”", false}, // a phrase, not a passage
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			qs := quotesIn(tt.text, citation.Find(tt.text))
			found := false
			for _, q := range qs {
				_, ok := page.Find(3, q.text)
				found = found || ok
			}
			if found != tt.found {
				t.Errorf("found = %v, want %v (quotes %+v)", found, tt.found, qs)
			}
		})
	}
}

// TestTurnClockStopsForTheUser: the agent's time does not run while the
// user decides, and runs out when the agent takes it.
func TestTurnClockStopsForTheUser(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, c := newTurnClock(context.Background(), time.Minute)
		time.Sleep(50 * time.Second)
		release := c.hold()
		time.Sleep(time.Hour) // the user takes their time
		if ctx.Err() != nil {
			t.Fatal("the clock ran while the user decided")
		}
		release()
		release() // harmless
		time.Sleep(9 * time.Second)
		if ctx.Err() != nil {
			t.Fatal("the clock ran out early")
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if ctx.Err() == nil {
			t.Fatal("the clock never ran out")
		}
		if !c.stop() {
			t.Error("stop does not report the expiry")
		}
	})
	synctest.Test(t, func(t *testing.T) {
		ctx, c := newTurnClock(context.Background(), time.Minute)
		time.Sleep(30 * time.Second)
		if c.stop() || ctx.Err() == nil {
			t.Error("a stopped clock reports an expiry, or leaves its context running")
		}
	})
}

// FuzzAnswerCitations: whatever an answer holds, finding its quotes
// neither panics nor gives a piece too short to look for, nor one that
// holds a citation.
func FuzzAnswerCitations(f *testing.F) {
	f.Add("see [p. 3](papers/raft/paper.pdf#page=3&quote=Raft%20is) and “a long enough passage to count as a quote here”")
	f.Add("> quoted\n> lines papers/raft/paper.pdf#page=%zz%2")
	f.Add("&amp;%%%papers/raft/paper.pdf#page=99999999999999999999")
	f.Add("“a passage that holds papers/raft/paper.pdf#page=3 a citation in its middle”")
	f.Fuzz(func(t *testing.T, answer string) {
		cited := citation.Find(answer)
		for _, q := range quotesIn(answer, cited) {
			for _, p := range strings.Split(q.text, " … ") {
				if len(quote.Fold(p)) < minPiece {
					t.Errorf("piece %q is shorter than %d", p, minPiece)
				}
			}
			for _, c := range cited {
				if strings.Contains(q.text, c.Raw) && len(c.Raw) > 12 {
					t.Errorf("quote %q holds the citation %q", q.text, c.Raw)
				}
			}
		}
	})
}

// FuzzLocate: a path is in the vault only when it really leads there, and
// only a path in the vault gets a citation URI.
func FuzzLocate(f *testing.F) {
	base, _ := filepath.EvalSymlinks(f.TempDir())
	v := filepath.Join(base, "vault")
	os.MkdirAll(filepath.Join(v, "notes"), 0o755)
	os.WriteFile(filepath.Join(v, "notes", "a.md"), []byte("a"), 0o644)
	cwd := filepath.Join(base, "cwd")
	os.MkdirAll(cwd, 0o755)
	l := newLocator(v, cwd)
	for _, s := range []string{"../vault/notes/a.md", v + "/notes/../notes/a.md", "~/x", "file://" + v + "/notes/a.md", v + "x/notes/a.md", "\x00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		loc := l.locate(p, 0, 0)
		if loc.CitationURI != "" && !loc.InVault {
			t.Errorf("%q opens %q but is not in the vault", p, loc.CitationURI)
		}
		if real, ok := l.canonical(p); ok && loc.InVault && real != v && !strings.HasPrefix(real, v+string(filepath.Separator)) {
			t.Errorf("%q leads to %q, outside the vault, yet is marked in it", p, real)
		}
	})
}
