package agent_test

// The built-in agent is tested from outside, the way the host runs it: over
// real ACP pipes, with the plan's prompt and grant built by the real
// resolver, reading through the real agentero-context server (the agentero
// binary, built once) over vaults of corpus papers indexed by the real
// `agentero index`.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agent"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/context/snapshot"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/internal/corpustest"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
	workDir   string
)

// shared holds what outlives one test: the indexes of shared vaults.
var shared []*index.DB

func TestMain(m *testing.M) {
	code := m.Run()
	for _, db := range shared {
		db.Close()
	}
	if workDir != "" {
		os.RemoveAll(workDir)
	}
	os.Exit(code)
}

// agentero builds the binary on first use: the unit tests of the package
// need none.
func agentero(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		workDir, buildErr = os.MkdirTemp("", "agentero-agent-test-")
		if buildErr != nil {
			return
		}
		binary = filepath.Join(workDir, "agentero")
		build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", binary, ".")
		build.Dir = "../.."
		if out, err := build.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build agentero: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// testVault is an indexed vault and its index, opened read-only.
type testVault struct {
	root   string
	db     *index.DB
	budget grant.Budget // of the turns asked; zero = the default
}

// indexVault indexes the vault at root with the real binary, for one test.
func indexVault(t *testing.T, root string) *testVault {
	t.Helper()
	v := indexShared(t, root)
	t.Cleanup(func() { v.db.Close() })
	return v
}

// indexShared indexes a vault that tests share; TestMain closes its index.
func indexShared(t *testing.T, root string) *testVault {
	t.Helper()
	// Without OCR: the scanned paper is the one without readable text these
	// tests are about (backend/index tests OCR).
	cmd := exec.Command(agentero(t), "index", root)
	cmd.Env = append(os.Environ(), "AGENTERO_OCR=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("index: %v\n%s", err, out)
	}
	db, err := index.Open(index.Path(root), index.Options{ReadOnly: true, Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatal(err)
	}
	return &testVault{root: root, db: db}
}

// answer is what a turn gave: the text, and the quoted passages in it.
type answer struct {
	text   string
	quotes []quoted
	tools  []string // titles of the tool calls the agent reported
}

// quoted is one numbered passage of an answer and the citation after it.
type quoted struct {
	text, uri string
	file      string // the citation's file
	page      int    // its page; 0 for a file
	quote     string // its quote
}

// at is the citation of the passage's page (or file), without its quote.
func (q quoted) at() string { return citation.New(q.file, q.page, "").String() }

var (
	quoteLine = regexp.MustCompile(`^\d+\. “(.*)”$`)
	citeLine  = regexp.MustCompile(`^   — .* \[([^\[\]]+)\]$`)
)

// parseAnswer finds the numbered passages of an answer: a line
// `N. “passage”`, then a line `   — where [citation]`.
func parseAnswer(text string) []quoted {
	var out []quoted
	lines := strings.Split(text, "\n")
	for i := 0; i+1 < len(lines); i++ {
		q := quoteLine.FindStringSubmatch(lines[i])
		c := citeLine.FindStringSubmatch(lines[i+1])
		if q == nil || c == nil {
			continue
		}
		u, err := citation.Parse(c[1])
		if err != nil {
			u = citation.URI{Path: c[1]} // the tests then fail on its file
		}
		out = append(out, quoted{text: q[1], uri: c[1], file: u.Path, page: u.Page, quote: u.Quote})
	}
	return out
}

// client is the ACP client side of a test: it keeps the agent's messages
// and tool calls, and refuses what Agentero refuses.
type client struct {
	mu    sync.Mutex
	text  strings.Builder
	tools []string
}

func (c *client) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case n.Update.AgentMessageChunk != nil && n.Update.AgentMessageChunk.Content.Text != nil:
		c.text.WriteString(n.Update.AgentMessageChunk.Content.Text.Text)
	case n.Update.ToolCall != nil:
		c.tools = append(c.tools, n.Update.ToolCall.Title)
	}
	return nil
}

func (c *client) RequestPermission(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
}

func (c *client) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodFsReadTextFile)
}

func (c *client) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodFsWriteTextFile)
}

func (c *client) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalCreate)
}

func (c *client) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalKill)
}

func (c *client) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalOutput)
}

func (c *client) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalRelease)
}

func (c *client) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodTerminalWaitForExit)
}

var runtimeIDs struct {
	sync.Mutex
	n int
}

// ask runs one turn of the built-in agent as the host would: the plan of
// req is resolved, its grant written and its prompt rendered after the
// vault's frozen snapshot; the agent is served over OS pipes and given the
// agentero-context server of the grant.
func (v *testVault) ask(t *testing.T, req plan.Request, question string) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, err := (&plan.Resolver{Vault: v.root, Papers: v.db, Budget: v.budget}).Resolve(ctx, req)
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	if len(p.Refused) > 0 {
		t.Fatalf("plan refused %+v", p.Refused)
	}
	snap, err := snapshot.Build(v.root, snapshot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The host's own prompt: the built-in agent is local, and has the
	// plan's tools when the plan grants any.
	own := snapshot.Session{}
	if p.Mode == grant.ModeMCP {
		own.Tools = p.Tools
	}
	var blocks []sdk.ContentBlock
	for _, part := range acp.PromptParts(snap, own, p, "", question) {
		blocks = append(blocks, sdk.TextBlock(part.Text))
	}
	servers := []sdk.McpServer{}
	if p.Mode == grant.ModeMCP {
		runtimeIDs.Lock()
		runtimeIDs.n++
		id := fmt.Sprintf("agent-test-%d", runtimeIDs.n)
		runtimeIDs.Unlock()
		path, err := grant.Write(p.Grant(v.root, id, time.Now()))
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, sdk.McpServer{Stdio: &sdk.McpServerStdio{Name: "agentero-context", Command: agentero(t),
			Args: []string{"--agentero-context-mcp", path}, Env: []sdk.EnvVariable{}}})
	}

	toAgent, fromClient, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	toClient, fromAgent, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() {
		served <- agent.Serve(ctx, toAgent, fromAgent, agent.Options{StateDir: t.TempDir()})
		fromAgent.Close()
	}()
	defer func() {
		fromClient.Close()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		toAgent.Close()
		toClient.Close()
	}()
	c := &client{}
	conn := sdk.NewClientSideConnection(c, fromClient, toClient)
	conn.SetLogger(slog.New(slog.DiscardHandler))
	if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	sess, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: servers})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	resp, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: blocks})
	if err != nil {
		t.Fatalf("prompt %q: %v", question, err)
	}
	if resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt %q: stop reason %s", question, resp.StopReason)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t.Logf("%s\n%s", question, c.text.String())
	return answer{text: c.text.String(), quotes: parseAnswer(c.text.String()), tools: c.tools}
}

// pageOf returns the index text of the page a citation names, and the ref
// of its paper.
func (v *testVault) pageOf(t *testing.T, q quoted) (string, string) {
	t.Helper()
	papers, err := v.db.Papers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range papers {
		if p.PDFPath == q.file {
			text, _, err := v.db.PageText(context.Background(), p.Ref, q.page)
			if err != nil {
				t.Fatalf("citation %s: page %d of %s: %v", q.uri, q.page, p.Ref, err)
			}
			return text, p.Ref
		}
	}
	t.Fatalf("citation %s names no paper of the vault", q.uri)
	return "", ""
}

// words splits a text into comparable words, independently of the agent's
// own folding: lower case, ligatures spelt out, a word split by a hyphen at
// a line end joined again.
func words(s string) []string {
	s = strings.NewReplacer("ﬁ", "fi", "ﬂ", "fl", "ﬀ", "ff", "ﬃ", "ffi", "ﬄ", "ffl", "\u00ad", "").Replace(s)
	s = lineHyphen.ReplaceAllString(s, "$1$2")
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

var lineHyphen = regexp.MustCompile(`(\p{L})-[ \t]*\n[ \t]*(\p{Ll})`)

// inReadingOrder reports whether the words of a quote stand in the page,
// one after the other, in the quote's order: not merely all present.
func inReadingOrder(page, quote string) bool {
	p, q := words(page), words(quote)
	if len(q) == 0 {
		return false
	}
	for i := 0; i+len(q) <= len(p); i++ {
		ok := true
		for j := range q {
			if p[i+j] != q[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// contains reports whether the words of needle stand together in text.
func contains(text, needle string) bool { return inReadingOrder(text, needle) }

// manifestRow is what the tests use of the corpus manifest.
type manifestRow struct {
	file, textExtracts string
	pages              int
}

func manifest(t *testing.T) []manifestRow {
	t.Helper()
	var out []manifestRow
	for _, r := range corpustest.Manifest(t) {
		out = append(out, manifestRow{file: r["file"], textExtracts: r["text_extracts"], pages: r.Int("pages")})
	}
	return out
}

// runningHeads are the lines that stand first or last on three pages or
// more of a paper, page numbers aside: its running heads and feet, found by
// repetition (the agent finds them by their look on one page).
func runningHeads(t *testing.T, v *testVault, ref string) []string {
	t.Helper()
	pages, err := v.db.Pages(context.Background(), ref, 1, 10000)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, p := range pages {
		lines := strings.Split(strings.TrimSpace(p.Text), "\n")
		seen := map[string]bool{}
		for _, l := range []string{lines[0], lines[len(lines)-1]} {
			k := strings.Join(strings.FieldsFunc(l, func(r rune) bool { return unicode.IsDigit(r) || unicode.IsSpace(r) }), " ")
			if !seen[k] && len(words(k)) >= 2 {
				seen[k] = true
				count[k]++
			}
		}
	}
	var out []string
	for k, n := range count {
		if n >= 3 {
			out = append(out, k)
		}
	}
	return out
}

// wholeSentence reports whether a passage starts like a sentence and ends
// like one.
func wholeSentence(s string) bool {
	r := []rune(s)
	if len(r) == 0 {
		return false
	}
	first := r[0]
	end := strings.TrimRight(s, `)]"”’'`)
	return (unicode.IsUpper(first) || strings.ContainsRune(`"“(‘`, first)) &&
		(strings.HasSuffix(end, ".") || strings.HasSuffix(end, "?") || strings.HasSuffix(end, "!"))
}

// copyTree copies a folder, leaving out .agentero.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() && d.Name() == ".agentero" {
			return filepath.SkipDir
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(dst)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
}
