package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentero/agentero/internal/proctest"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/context/compact"
	"github.com/agentero/agentero/backend/mcp"
)

// The whole-vault server (`agentero mcp VAULT`, SPEC §9), tested like the
// per-turn one: the real binary, the official Go client, the test vault.

// startVault spawns `agentero mcp` on the test vault over stdio.
func startVault(t testing.TB) *session {
	t.Helper()
	needVault(t)
	cmd := exec.Command(binary, "mcp", vaultDir)
	cmd.Env = testEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "agentero-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("server exit: %v\n%s", err, stderr.String())
		}
	})
	return &session{t: t, cs: cs, stderr: &stderr}
}

// httpVault is `agentero mcp VAULT --http 127.0.0.1:0` running.
type httpVault struct {
	url, token string
	cmd        *exec.Cmd
	stderr     *bytes.Buffer
}

func startHTTPVault(t testing.TB) *httpVault {
	t.Helper()
	needVault(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	cmd := exec.Command(binary, "mcp", vaultDir, "--http", "127.0.0.1:0", "--token-file", tokenFile)
	cmd.Env = testEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &httpVault{cmd: cmd, stderr: &stderr}
	t.Cleanup(func() { h.stop(t) })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no first line: %v\n%s", err, stderr.String())
	}
	var first struct{ URL string }
	if err := json.Unmarshal([]byte(line), &first); err != nil || !strings.HasPrefix(first.URL, "http://127.0.0.1:") {
		t.Fatalf("first line %q: %v", line, err)
	}
	h.url = first.URL
	st, err := os.Stat(tokenFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, mode %v, want 0600", err, st.Mode())
	}
	data, _ := os.ReadFile(tokenFile)
	h.token = strings.TrimSpace(string(data))
	return h
}

// stop interrupts the server and checks it exits 0.
func (h *httpVault) stop(t testing.TB) {
	if h.cmd.ProcessState != nil {
		return
	}
	h.cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- h.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("agentero mcp --http exit: %v\n%s", err, h.stderr.String())
		}
	case <-time.After(30 * time.Second):
		h.cmd.Process.Kill()
		t.Errorf("agentero mcp --http did not stop on SIGINT")
	}
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connect opens an MCP session to h with the official Go client.
func (h *httpVault) connect(t testing.TB) *session {
	t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "agentero-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: h.url, DisableStandaloneSSE: true,
		HTTPClient: &http.Client{Transport: bearer{h.token, http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatalf("connect over HTTP: %v\n%s", err, h.stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return &session{t: t, cs: cs, stderr: h.stderr}
}

func toolsTokens(t *testing.T, s *session) (names []string, tokens int, raw []byte) {
	t.Helper()
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	raw, _ = json.Marshal(res.Tools)
	return names, compact.Tokens(string(raw)), raw
}

// TestVaultToolsList: four tools, their schemas held to a golden file, and
// their size in tokens (the project's estimator) printed beside
// agentero-context's and kept small.
func TestVaultToolsList(t *testing.T) {
	names, tokens, raw := toolsTokens(t, startVault(t))
	if diff := cmp.Diff([]string{"list_papers", "read", "relations", "search"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	_, turnTokens, _ := toolsTokens(t, start(t, usual()))
	t.Logf("tools/list: agentero (whole vault) %d tokens (%d bytes), 4 tools; agentero-context %d tokens, 3 tools", tokens, len(raw), turnTokens)
	fmt.Printf("tools/list tokens: agentero %d, agentero-context %d\n", tokens, turnTokens)
	if tokens > 1000 || tokens > turnTokens*4/3 {
		t.Errorf("tools/list is %d tokens: keep it under 1000 and near agentero-context's %d", tokens, turnTokens)
	}
	var indented bytes.Buffer
	json.Indent(&indented, raw, "", "  ")
	golden := filepath.Join("testdata", "vault-tools.golden.json")
	if *update {
		os.WriteFile(golden, append(indented.Bytes(), '\n'), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), indented.String()+"\n"); diff != "" {
		t.Errorf("tool schemas changed (-golden +got); run with -update if intended:\n%s", diff)
	}
}

// readableInVault are the hostile refs of agentero-context's table that
// stay inside the vault and out of its state: the whole vault may read them
// (some with a plain error, such as a PDF that is not a paper's).
var readableInVault = map[string]bool{
	"sibling-prefix paper": true, "sibling-prefix paper folder": true, "sibling-prefix directory": true,
	"symlink out of the directory": true, "symlink chain out": true, "symlinked folder out": true,
	"symlinked folder out, listed": true, "symlink to another paper's PDF": true,
	"symlink to another paper's folder": true, "through a symlinked paper folder": true,
	"symlink to the sibling": true, "ungranted paper": true, "ungranted paper's PDF": true,
	"ungranted paper's citation": true, "ungranted paper's citation with quote": true,
	"ungranted note": true, "parent of a grant": true, "papers folder": true,
	"a PDF under a directory grant is granted only as a paper": true, "dot": true,
}

// TestVaultRefusals: agentero-context's refusal table holds here too for
// everything that leaves the vault or reaches .agentero or a hidden name:
// one refusal text, naming no path. The rest of the table is readable.
func TestVaultRefusals(t *testing.T) {
	s := startVault(t)
	refused := mcp.ErrVaultRefused.Error()
	n := 0
	for _, c := range hostileRefs() {
		t.Run(c.name, func(t *testing.T) {
			text, isErr := s.call("read", map[string]any{"ref": c.ref})
			if readableInVault[c.name] {
				if text == refused {
					t.Errorf("read %q: refused, want it read (it is inside the vault)", c.ref)
				}
				return
			}
			n++
			if !isErr || text != refused {
				t.Errorf("read %q: %.200q, want the uniform refusal", c.ref, text)
			}
			if got := s.fails("relations", map[string]any{"ref": c.ref}); got != refused {
				t.Errorf("relations %q: %q, want the uniform refusal", c.ref, got)
			}
		})
	}
	if n < 25 {
		t.Errorf("only %d hostile refs refused", n)
	}
	// The state folder is neither listed nor searched.
	var root struct{ Entries []string }
	s.ok("read", map[string]any{"ref": "."}, &root)
	if strings.Contains(strings.Join(root.Entries, ","), ".agentero") || !strings.Contains(strings.Join(root.Entries, ","), "papers/") {
		t.Errorf("root listing: %v", root.Entries)
	}
	text, _ := s.call("search", map[string]any{"query": "agentero state"})
	if strings.Contains(text, ".agentero") {
		t.Errorf("search reached the state folder: %.300s", text)
	}
	// A folder filter that leaves the vault is refused the same way.
	for _, f := range []string{"../", "/etc", ".agentero", "papers/../.."} {
		if got := s.fails("list_papers", map[string]any{"folder": f}); got != refused {
			t.Errorf("list_papers folder %q: %q", f, got)
		}
	}
}

// vaultCalls is one call of every tool, the script the parallel clients and
// the HTTP/stdio comparison run.
var vaultCalls = []struct {
	tool string
	args map[string]any
}{
	{"list_papers", map[string]any{"limit": 5}},
	{"list_papers", map[string]any{"yearFrom": 2000, "limit": 3}},
	{"search", map[string]any{"query": "leader election"}},
	{"read", map[string]any{"ref": bitcoin}},
	{"read", map[string]any{"ref": pdfOf(bitcoin) + "#page=2"}},
	{"read", map[string]any{"ref": attention, "mode": "section", "section": "model architecture"}},
	{"read", map[string]any{"ref": paxos, "mode": "excerpt", "quote": "synod algorithm"}},
	{"read", map[string]any{"ref": "notes/private/secret.md"}},
	{"read", map[string]any{"ref": "notes/consensus"}},
	{"relations", map[string]any{"ref": paxos}},
}

// TestVaultTools: every tool over the whole vault, with cards whose
// citation URIs open, filters, and paging that neither skips nor repeats.
func TestVaultTools(t *testing.T) {
	s := startVault(t)
	var all struct {
		Papers []struct {
			Ref, Title, CitationURI string
			Authors                 []string
			Year                    int
		}
		Total      int
		NextCursor string
	}
	s.ok("list_papers", map[string]any{"limit": 50}, &all)
	if all.Total != len(vaultPapers) || len(all.Papers) != len(vaultPapers) || all.NextCursor != "" {
		t.Fatalf("list_papers: %d of %d, cursor %q; want the %d papers", len(all.Papers), all.Total, all.NextCursor, len(vaultPapers))
	}
	// Paging by 4 gives the same papers in the same order.
	var paged []string
	cursor := ""
	for i := 0; i < 10; i++ {
		var page struct {
			Papers     []struct{ Ref string }
			NextCursor string
		}
		args := map[string]any{"limit": 4}
		if cursor != "" {
			args["cursor"] = cursor
		}
		s.ok("list_papers", args, &page)
		for _, p := range page.Papers {
			paged = append(paged, p.Ref)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	var want []string
	for _, p := range all.Papers {
		want = append(want, p.Ref)
	}
	if diff := cmp.Diff(want, paged); diff != "" {
		t.Errorf("paging (-all +paged):\n%s", diff)
	}
	// A cursor is bound to its filters.
	var first struct{ NextCursor string }
	s.ok("list_papers", map[string]any{"limit": 2}, &first)
	s.fails("list_papers", map[string]any{"limit": 2, "tag": "x", "cursor": first.NextCursor})

	// Filters: author (a surname of the vault, in capitals), years, folder.
	surname := ""
	wantAuthor := map[string]bool{}
	for _, p := range all.Papers {
		if surname == "" && len(p.Authors) > 0 {
			f := strings.Fields(p.Authors[0])
			surname = f[len(f)-1]
		}
	}
	for _, p := range all.Papers {
		if surname != "" && strings.Contains(strings.ToLower(strings.Join(p.Authors, ",")), strings.ToLower(surname)) {
			wantAuthor[p.Ref] = true
		}
	}
	var byAuthor struct{ Papers []struct{ Ref string } }
	s.ok("list_papers", map[string]any{"author": strings.ToUpper(surname)}, &byAuthor)
	if surname == "" || len(byAuthor.Papers) != len(wantAuthor) {
		t.Errorf("author %q: %v, want %v", surname, byAuthor.Papers, wantAuthor)
	}
	for _, p := range byAuthor.Papers {
		if !wantAuthor[p.Ref] {
			t.Errorf("author %q: %s", surname, p.Ref)
		}
	}
	years := map[string]int{}
	for _, p := range all.Papers {
		years[p.Ref] = p.Year
	}
	var since struct{ Papers []struct{ Ref string } }
	s.ok("list_papers", map[string]any{"yearFrom": 2010, "yearTo": 2019}, &since)
	wantSince := 0
	for _, y := range years {
		if y >= 2010 && y <= 2019 {
			wantSince++
		}
	}
	if len(since.Papers) != wantSince || wantSince == 0 {
		t.Errorf("years 2010–2019: %d papers, want %d (%v)", len(since.Papers), wantSince, years)
	}
	for _, p := range since.Papers {
		if y := years[p.Ref]; y < 2010 || y > 2019 {
			t.Errorf("years 2010–2019: %s of %d", p.Ref, y)
		}
	}
	var folder struct {
		Papers []struct{ Ref string }
		Total  int
	}
	s.ok("list_papers", map[string]any{"folder": paxos}, &folder)
	if folder.Total != 1 || folder.Papers[0].Ref != paxos {
		t.Errorf("folder %s: %+v (a sibling-prefix folder must not count)", paxos, folder)
	}
	// Errors name this server's tools, not agentero-context's.
	if msg := s.fails("read", map[string]any{"ref": paxos, "mode": "excerpt", "quote": "no such words anywhere"}); strings.Contains(msg, "context_") || !strings.Contains(msg, "with search") {
		t.Errorf("excerpt not found: %q", msg)
	}
	s.fails("list_papers", map[string]any{"yearFrom": 2020, "yearTo": 2010})
	s.fails("list_papers", map[string]any{"limit": 1000})

	// Search reaches every paper and note, the ones no turn was granted too.
	var found struct {
		Cards []struct{ Ref, Path, CitationURI string }
	}
	s.ok("search", map[string]any{"query": "leader election secret", "limit": 20}, &found)
	var paths []string
	for _, c := range found.Cards {
		paths = append(paths, c.CitationURI)
	}
	if !strings.Contains(strings.Join(paths, " "), "notes/private/secret.md") {
		t.Errorf("search: the private note is part of the vault: %v", paths)
	}
	// Reads: metadata, page, section, excerpt, a note, a folder; relations.
	var meta struct {
		Ref, Title string
		Pages      int
	}
	s.ok("read", map[string]any{"ref": bitcoin}, &meta)
	if meta.Ref != bitcoin || meta.Pages == 0 || meta.Title == "" {
		t.Errorf("metadata: %+v", meta)
	}
	var page struct {
		Page        int
		Text        string
		CitationURI string
	}
	s.ok("read", map[string]any{"ref": pdfOf(bitcoin) + "#page=2"}, &page)
	if page.Page != 2 || page.CitationURI != pdfOf(bitcoin)+"#page=2" || len(page.Text) < 100 {
		t.Errorf("page: %d %q %d chars", page.Page, page.CitationURI, len(page.Text))
	}
	var ex struct{ Text, CitationURI string }
	s.ok("read", map[string]any{"ref": paxos, "mode": "excerpt", "quote": "synod algorithm"}, &ex)
	if !strings.Contains(strings.ToLower(ex.Text), "synod") || !strings.Contains(ex.CitationURI, "quote=") {
		t.Errorf("excerpt: %+v", ex)
	}
	var note struct{ Text, CitationURI string }
	s.ok("read", map[string]any{"ref": "notes/private/secret.md"}, &note)
	if !strings.HasPrefix(note.Text, "SECRET") || note.CitationURI != "notes/private/secret.md" {
		t.Errorf("note: %+v", note)
	}
	var rel struct {
		CitedBy []struct{ PaperPath string }
	}
	s.ok("relations", map[string]any{"ref": paxos, "kind": "citedBy"}, &rel)
	if len(rel.CitedBy) == 0 {
		t.Errorf("relations: nothing cites %s", paxos)
	}
	// A full read is budgeted per request: each call may return up to the
	// cap, however many came before.
	for i := 0; i < 5; i++ {
		var full struct {
			Text       string
			NextCursor string
		}
		s.ok("read", map[string]any{"ref": raft, "mode": "full"}, &full)
		if len(full.Text) < 10000 || full.NextCursor == "" {
			t.Fatalf("full read %d: %d chars, cursor %q: the budget must be per request", i, len(full.Text), full.NextCursor)
		}
	}
}

// TestVaultTags: list_papers filters by the tags of metadata.json, on a
// vault of its own.
func TestVaultTags(t *testing.T) {
	needVault(t)
	root := t.TempDir()
	for ref, meta := range map[string]string{
		paxos: `{"title": "Paxos Made Simple", "authors": ["Leslie Lamport"], "year": 2001, "tags": ["Consensus", "classic"]}`,
		// tags as one comma-separated string, as the library reads them too
		bitcoin: `{"year": 2008, "tags": "ledger, white paper"}`,
	} {
		data, err := os.ReadFile(filepath.Join(vaultDir, filepath.FromSlash(pdfOf(ref))))
		if err != nil {
			t.Fatal(err)
		}
		write(root, pdfOf(ref), string(data))
		write(root, ref+"/metadata.json", meta)
	}
	cmd := exec.Command(binary, "index", root)
	cmd.Env = testEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("index: %v\n%s", err, out)
	}
	sess := exec.Command(binary, "mcp", root)
	sess.Env = testEnv()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), &sdk.CommandTransport{Command: sess}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	s := &session{t: t, cs: cs, stderr: &bytes.Buffer{}}
	for tag, want := range map[string]string{"consensus": paxos, "CLASSIC": paxos, "ledger": bitcoin, "White Paper": bitcoin, "none": ""} {
		var res struct {
			Papers []struct {
				Ref  string
				Tags []string
			}
		}
		s.ok("list_papers", map[string]any{"tag": tag}, &res)
		got := ""
		if len(res.Papers) == 1 {
			got = res.Papers[0].Ref
		}
		if got != want || len(res.Papers) > 1 {
			t.Errorf("tag %q: %+v, want %q", tag, res.Papers, want)
		}
	}
}

// results runs vaultCalls on a session and returns each result's text.
func results(s *session) []string {
	var out []string
	for _, c := range vaultCalls {
		text, isErr := s.call(c.tool, c.args)
		if isErr {
			s.t.Errorf("%s %v: %s", c.tool, c.args, text)
		}
		out = append(out, text)
	}
	return out
}

// TestVaultHTTP: the same server over streamable HTTP gives the same
// results as over stdio, to ten clients in parallel; and it refuses what
// does not come from the user's own clients on this machine.
func TestVaultHTTP(t *testing.T) {
	want := results(startVault(t))
	h := startHTTPVault(t)

	var wg sync.WaitGroup
	got := make([][]string, 10)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = results(h.connect(t))
		}()
	}
	wg.Wait()
	for i, g := range got {
		if diff := cmp.Diff(want, g); diff != "" {
			t.Errorf("client %d over HTTP differs from stdio (-stdio +http):\n%s", i, diff)
		}
	}

	port := h.url[len("http://127.0.0.1:"):strings.LastIndex(h.url, "/")]
	post := func(host, origin, auth string) (int, http.Header, string) {
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
		req, _ := http.NewRequest("POST", h.url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		return resp.StatusCode, resp.Header, b.String()
	}
	ok := "Bearer " + h.token
	for _, c := range []struct {
		name, host, origin, auth string
		status                   int
	}{
		{"the token", "", "", ok, 200},
		{"localhost host", "localhost:" + port, "", ok, 200},
		{"a loopback origin", "", "http://localhost:5173", ok, 200},
		{"no token", "", "", "", 401},
		{"a wrong token", "", "", "Bearer " + strings.Repeat("x", len(h.token)), 401},
		{"the token's prefix", "", "", "Bearer " + h.token[:len(h.token)-1], 401},
		{"basic auth", "", "", "Basic " + h.token, 401},
		{"a foreign origin", "", "https://evil.example", ok, 403},
		{"a foreign origin without a token", "", "https://evil.example", "", 403},
		{"a null origin", "", "null", ok, 403},
		{"a rebinding host", "evil.example:" + port, "", ok, 421},
		{"another port", "127.0.0.1:1", "", ok, 421},
		{"no port", "127.0.0.1", "", ok, 421},
	} {
		status, hdr, body := post(c.host, c.origin, c.auth)
		if status != c.status {
			t.Errorf("%s: %d %.200s, want %d", c.name, status, body, c.status)
		}
		if status == 401 && !strings.HasPrefix(hdr.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: 401 without WWW-Authenticate: Bearer", c.name)
		}
		if status != 200 && strings.Contains(body, h.token) {
			t.Errorf("%s: the answer holds the token", c.name)
		}
	}

	// The socket is bound to 127.0.0.1 only.
	p, _ := strconv.Atoi(port)
	if locals := proctest.Listeners(t, p); len(locals) != 1 || locals[0] != "0100007F" {
		t.Errorf("port %d listens on %v (hex, /proc/net/tcp*), want 127.0.0.1 only", p, locals)
	}
	// Interrupted, it stops: the port is closed.
	h.stop(t)
	if locals := proctest.Listeners(t, p); len(locals) != 0 {
		t.Errorf("after the stop, port %d still listens on %v", p, locals)
	}
}
