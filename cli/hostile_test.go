//go:build unix

package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/internal/hostilevault"
	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// bound is how long one command may take on the hostile vault; a command
// still running then hangs on something the vault planted.
const bound = 4 * time.Minute

// TestHostileVault runs every command on the hostile vault of issue 13
// (internal/hostilevault): each command ends, none prints the marker of the
// files outside the vault, none writes outside it, every hostile file is
// reported or ignored, and the good papers index.
func TestHostileVault(t *testing.T) {
	v := hostilevault.Build(t)
	before := v.Snapshot(t)
	e := env(t)
	noMarker := func(t *testing.T, what, text string) {
		t.Helper()
		if strings.Contains(strings.ToLower(text), hostilevault.Marker) {
			t.Errorf("%s shows the marker of a file outside the vault:\n%.2000s", what, text)
		}
	}
	// do runs a command in-process within bound, and checks its output.
	do := func(t *testing.T, args ...string) (stdout string, code int) {
		t.Helper()
		type result struct {
			out, errOut string
			code        int
		}
		done := make(chan result, 1)
		go func() {
			o, eo, c := runIn(t, e, args...)
			done <- result{o, eo, c}
		}()
		select {
		case r := <-done:
			noMarker(t, strings.Join(args[:1], " ")+"'s stdout", r.out)
			noMarker(t, strings.Join(args[:1], " ")+"'s stderr", r.errOut)
			if r.code != 0 || testing.Verbose() {
				t.Logf("%v: exit %d\n%.3000s\n%.1000s", args, r.code, r.out, r.errOut)
			}
			return r.out, r.code
		case <-time.After(bound):
			t.Fatalf("%v hangs (still running after %v)", args, bound)
		}
		return "", -1
	}
	root := v.Root

	t.Run("index", func(t *testing.T) {
		out, code := do(t, "index", root, "--json")
		if code != 0 {
			t.Fatalf("index exit %d", code)
		}
		var st index.Stats
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		db, err := index.Open(index.Path(root), index.Options{ReadOnly: true, Schemas: []index.Schema{refs.Schema()}})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, ref := range v.Good {
			p, err := db.Paper(t.Context(), ref)
			if err != nil || p.Pages == 0 || p.Status != index.StatusOK {
				t.Errorf("good paper %s: %+v, %v; want indexed, ok", ref, p, err)
			}
		}
		for _, p := range v.Plants {
			if p.Vault != "root" || p.Report == hostilevault.ReportAny {
				continue
			}
			if p.Report == hostilevault.ReportIndex && !reported(st, p.Path) {
				t.Errorf("%s (%s) is not reported by index:\n%s", p.Path, p.What, out)
			}
			var n int
			if err := db.SQL().QueryRow(`SELECT count(*) FROM files WHERE (path = ?1 OR path LIKE ?1 || '/%') AND text != ''`, p.Path).Scan(&n); err != nil || n != 0 {
				t.Errorf("%s (%s): %d text files indexed from it (%v)", p.Path, p.What, n, err)
			}
			if err := db.SQL().QueryRow(`SELECT count(*) FROM papers WHERE (ref = ?1 OR pdf_path = ?1 OR ref LIKE ?1 || '/%') AND page_count > 0`, p.Path).Scan(&n); err != nil || n != 0 {
				t.Errorf("%s (%s): %d papers indexed from it (%v)", p.Path, p.What, n, err)
			}
		}
		// The planted trigger copied no page into the victim paper.
		var n int
		if err := db.SQL().QueryRow(`SELECT count(*) FROM pages g JOIN papers p ON p.id = g.paper_id WHERE p.ref = ? AND g.page > p.page_count`, v.Victim).Scan(&n); err != nil || n != 0 {
			t.Errorf("the planted index copied %d pages into %s (%v)", n, v.Victim, err)
		}
	})

	t.Run("search", func(t *testing.T) {
		var res struct {
			Hits []struct{ Ref string }
		}
		out, code := do(t, "search", root, hostilevault.Marker, "--json")
		if json.Unmarshal([]byte(out), &res); code != 0 || len(res.Hits) != 0 {
			t.Errorf("search for the marker: exit %d, %d hits", code, len(res.Hits))
		}
		// The planted index's trigger is gone with the index: bitcoin's
		// words find bitcoin first, not a victim it copied them into.
		out, code = do(t, "search", root, "proof-of-work chain", "--json")
		json.Unmarshal([]byte(out), &res)
		if code != 0 || len(res.Hits) == 0 || res.Hits[0].Ref != hostilevault.Bitcoin {
			t.Errorf("search for a good paper's words: exit %d, hits %+v", code, res.Hits)
		}
	})

	req := filepath.Join(t.TempDir(), "request.json")
	if err := os.WriteFile(req, []byte(`{"surface":"quickChat","currentPaper":"papers/bitcoin","selections":[],"mentions":[
		{"kind":"paper","path":"papers/peercoin"},{"kind":"directory","path":"notes"},{"kind":"file","path":"notes/leak.md"},
		{"kind":"paper","path":"papers/linked-folder"},{"kind":"paper","path":"papers/evil"},{"kind":"file","path":"papers/bitcoin/evil.html"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var grantPath string
	t.Run("plan", func(t *testing.T) {
		out, code := do(t, "plan", root, "--request", req, "--runtime-id", "hostile-1", "--json")
		var p struct {
			Mode, GrantPath string
			Refused         []struct{ Path string }
		}
		if err := json.Unmarshal([]byte(out), &p); err != nil || code != 0 {
			t.Fatalf("plan: exit %d, %v\n%s", code, err, out)
		}
		grantPath = p.GrantPath
		if want := filepath.Join(root, ".agentero", "context-sessions", "hostile-1", "grant.json"); p.Mode != "mcp" || grantPath != want {
			t.Errorf("plan: mode %q, grant %q; want mcp, %q", p.Mode, grantPath, want)
		}
		refused := map[string]bool{}
		for _, r := range p.Refused {
			refused[r.Path] = true
		}
		for _, want := range []string{"notes/leak.md", "papers/linked-folder", "papers/evil"} {
			if !refused[want] {
				t.Errorf("the plan grants %s: refused only %+v", want, p.Refused)
			}
		}
	})

	t.Run("mcp", func(t *testing.T) {
		if grantPath == "" {
			t.Fatal("no grant: plan failed")
		}
		cmd := exec.Command(binary, "--agentero-context-mcp", grantPath)
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir())
		var stderr strings.Builder
		cmd.Stderr = &stderr
		ctx, cancel := context.WithTimeout(t.Context(), bound)
		defer cancel()
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "hostile", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("connect: %v\n%s", err, stderr.String())
		}
		defer cs.Close()
		call := func(tool string, args map[string]any) string {
			t.Helper()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
			if err != nil {
				t.Fatalf("%s %v: %v (hangs or fails)\n%s", tool, args, err, stderr.String())
			}
			var text strings.Builder
			for _, c := range res.Content {
				if tc, ok := c.(*sdk.TextContent); ok {
					text.WriteString(tc.Text)
				}
			}
			noMarker(t, fmt.Sprint(tool, " ", args), text.String())
			return text.String()
		}
		call("context_search", map[string]any{"query": hostilevault.Marker})
		if got := call("context_search", map[string]any{"query": "longest chain"}); !strings.Contains(got, "citationUri") {
			t.Errorf("context_search for a good note's words found nothing: %s", got)
		}
		if got := call("context_read", map[string]any{"ref": "notes/good.md"}); !strings.Contains(got, "good note") {
			t.Errorf("reading a good note: %s", got)
		}
		for _, ref := range []string{"notes", "notes/leak.md", "notes/zero.md", "notes/fifo.md", "notes/imported.md",
			"notes/outside-dir", "notes/outside-dir/sentinel.md", "papers/linked-folder", "papers/linked-folder/paper.pdf",
			"papers/evil/a.pdf", "papers/evil/b.pdf", "papers/evil/c.pdf", "papers/bitcoin/NOTES.md", "papers/bitcoin/metadata.json",
			"papers/bitcoin/source/outside.bib", "papers/bitcoin/source/climb.bib", "papers/bitcoin/source/zero.bib",
			"papers/bitcoin/source/x.bib", "papers/bitcoin/source/agentero-cite.json", "papers/bitcoin", "papers/bitcoin/evil.html"} {
			call("context_read", map[string]any{"ref": ref})
		}
		call("context_read", map[string]any{"ref": "papers/bitcoin", "mode": "full"})
		call("context_read", map[string]any{"ref": "papers/bitcoin", "mode": "region", "page": 1,
			"region": map[string]any{"x": 0, "y": 0, "width": 612, "height": 300}})
		call("paper_relations", map[string]any{"ref": "papers/bitcoin"})
	})

	var conversation string
	t.Run("ask", func(t *testing.T) {
		out, code := do(t, "ask", root, "--request", req, "--json", "What does the longest chain prove?")
		var got struct{ ConversationID string }
		if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || got.ConversationID == "" {
			t.Fatalf("ask: exit %d, %v\n%s", code, err, out)
		}
		conversation = got.ConversationID
	})

	t.Run("relations", func(t *testing.T) {
		if _, code := do(t, "relations", root, "papers/bitcoin", "--write-sidecars", "--json"); code != 0 {
			t.Errorf("relations exit %d", code)
		}
	})

	t.Run("context", func(t *testing.T) {
		out, code := do(t, "context", root, "--json")
		if code != 0 {
			t.Fatalf("context exit %d", code)
		}
		for _, p := range v.Plants {
			if p.Vault == "root" && p.Report == hostilevault.ReportContext && !strings.Contains(out, p.Path) {
				t.Errorf("%s (%s) is not reported by context:\n%s", p.Path, p.What, out)
			}
		}
		out, code = do(t, "context", v.Guided, "--json")
		if code != 0 || !strings.Contains(out, "AGENTS.md") || !strings.Contains(out, "leaves the vault") {
			t.Errorf("context of a vault whose AGENTS.md links out: exit %d\n%s", code, out)
		}
	})

	t.Run("compact", func(t *testing.T) {
		if conversation != "" {
			if _, code := do(t, "compact", root, "--conversation", conversation, "--json"); code != 0 {
				t.Errorf("compact exit %d", code)
			}
		}
		do(t, "compact", root, "--conversation", "fifo-compaction", "--json")
	})

	t.Run("planted conversations", func(t *testing.T) {
		for _, id := range []string{"x", "linked", "fifo"} {
			do(t, "ask", root, "--conversation", id, "--json", "Anything new?")
			do(t, "compact", root, "--conversation", id, "--json")
		}
		if _, err := os.Stat(filepath.Join(v.Parent, "elsewhere")); err == nil {
			t.Errorf("a planted conversation id wrote a folder outside the vault")
		}
	})
	t.Run("linked .agentero", func(t *testing.T) {
		for _, args := range [][]string{{"index", v.Linked, "--json"}, {"search", v.Linked, "title", "--json"}, {"context", v.Linked, "--json"}} {
			if _, code := do(t, args...); code == 0 {
				t.Errorf("%v on a vault whose .agentero links out: exit 0, want it refused", args)
			}
		}
	})
	t.Run("linked index.sqlite", func(t *testing.T) {
		// Refused or rebuilt inside the vault: either way the planted
		// index outside is neither read (do checks the marker) nor
		// written (the snapshot below).
		do(t, "index", v.LinkedIndex, "--json")
		do(t, "search", v.LinkedIndex, "title", "--json")
	})

	if d := cmp.Diff(before, v.Snapshot(t)); d != "" {
		t.Errorf("files appeared or changed outside the vaults (-before +after):\n%s", d)
	}
	for _, dir := range []string{v.Root, v.Linked, v.LinkedIndex, v.Guided} {
		if leaks := hostilevault.Leaks(t, dir); len(leaks) > 0 {
			t.Errorf("the marker of a file outside the vault is in %s: %v", dir, leaks)
		}
	}
}

// reported reports whether index's stats name the file rel: skipped, or a
// warning or error on its paper that names the file.
func reported(st index.Stats, rel string) bool {
	for _, k := range st.Skipped {
		if k.Path == rel {
			return true
		}
	}
	for _, e := range append(st.Warnings, st.Errors...) {
		if e.Ref == path.Dir(rel) && strings.Contains(e.Error, path.Base(rel)) {
			return true
		}
	}
	return false
}
