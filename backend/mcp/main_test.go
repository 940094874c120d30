package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/internal/corpustest"
)

// The server is tested from outside: the real binary, spawned the way an
// agent spawns it, driven by the official Go MCP client, over a vault of
// real corpus PDFs indexed by the real `agentero index`.

const corpusDir = "../../../shared/corpus"

var (
	binary   string
	vaultDir string
	// corpusPages is the page count of each corpus PDF (pdfinfo, from the
	// manifest), to check that every citation URI opens.
	corpusPages = map[string]int{}
	setupErr    error
)

// The papers of the test vault. Granted in most tests: raft, paxos-simple,
// attention. Never granted in the usual grant: the rest.
const (
	raft      = "papers/in-search-of-an-understandable-consensus-algorithm"
	paxos     = "papers/paxos-made-simple"
	paxosMC   = "papers/paxos-made-moderately-complex"
	chubby    = "papers/the-chubby-lock-service-for-loosely-coupled-distributed-systems"
	attention = "papers/1706.03762"
	mishra    = "papers/metalearn17_mishra"
	omega     = "papers/implementing-the-omega-failure-detector-in-crash-recovery-failure-model"
	flajolet  = "papers/1985-Flajolet-Probabilistic-counting"
	bitcoin   = "papers/bitcoin"
	// garbled has fonts without a usable encoding: its text layer is garbage
	garbled = "papers/a-response-to-cheriton-and-skeens-criticism-of-causal-and-totally-ordered-communication"
)

var vaultPapers = []string{raft, paxos, paxosMC, chubby, attention, mishra, omega, flajolet, bitcoin, garbled}

// TestMain removes what setup made. Setup runs on first use, so that fuzz
// workers, which need neither, start at once.
func TestMain(m *testing.M) {
	code := m.Run()
	if workDir != "" {
		os.RemoveAll(workDir)
	}
	os.Exit(code)
}

var (
	setupOnce sync.Once
	workDir   string
)

// setup builds the binary and one indexed vault for every test.
func setup() {
	dir, err := os.MkdirTemp("", "agentero-mcp-test-")
	if err != nil {
		setupErr = err
		return
	}
	workDir = dir
	binary = filepath.Join(dir, "agentero")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", binary, ".")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		setupErr = fmt.Errorf("build agentero: %v\n%s", err, out)
		return
	}
	vaultDir = filepath.Join(dir, "vault")
	setupErr = makeVault(vaultDir)
}

// makeVault lays out the corpus papers, notes and links, and indexes them.
func makeVault(root string) error {
	rows, err := corpustest.ReadCSV(filepath.Join(corpustest.Dir(), "manifest.csv"))
	if err != nil {
		return fmt.Errorf("corpus not available: %w", err)
	}
	for _, r := range rows {
		corpusPages[r["file"]] = r.Int("pages")
	}
	for _, ref := range vaultPapers {
		file := filepath.Base(ref) + ".pdf"
		data, err := os.ReadFile(filepath.Join(corpusDir, file))
		if err != nil {
			return err
		}
		if err := write(root, ref+"/"+file, string(data)); err != nil {
			return err
		}
	}
	files := map[string]string{
		paxos + "/NOTES.md":                "# My notes on Paxos\nThe synod algorithm chooses a single value; acceptors promise.\n",
		paxos + "-evil/NOTES.md":           "sibling-prefix folder, never granted\n",
		"notes/consensus/raft.md":          "Raft notes: leader election uses randomized timeouts to avoid split votes.\n",
		"notes/consensus/README":           "A file with no extension is still a file. Heartbeats keep followers quiet.\n",
		"notes/consensus/deep/more.md":     "Deeper notes about joint consensus and membership changes.\n",
		"notes/consensus/blob.dat":         "\x00\x01binary",
		"notes/private/secret.md":          "SECRET: the private notes, never granted. leader election secret.\n",
		"notes/consensus-evil/sibling.md":  "sibling-prefix notes, never granted. leader election.\n",
		".agentero/state/rules.md":         "agentero state\n",
		"notes/consensus/long.md":          strings.Repeat("A long line of notes about quorum intersection and leases. ", 700),
		"notes/consensus/dir-many/.hidden": "hidden\n",
	}
	for i := range 30 {
		files[fmt.Sprintf("notes/consensus/dir-many/n%02d.md", i)] = "note\n"
	}
	for p, text := range files {
		if err := write(root, p, text); err != nil {
			return err
		}
	}
	links := map[string]string{
		"notes/consensus/escape.md":     "../private/secret.md",               // leaves the granted directory
		"notes/consensus/hop1.md":       "hop2.md",                            // a chain of links …
		"notes/consensus/hop2.md":       "../private/secret.md",               // … that leaves it
		"notes/consensus/inside.md":     "raft.md",                            // stays inside: readable
		"notes/consensus/private":       "../private",                         // a folder link out
		"notes/consensus/outside.md":    "/etc/passwd",                        // an absolute link out of the vault
		paxos + "/leak.pdf":             "../bitcoin/bitcoin.pdf",             // another paper's PDF
		paxos + "/leak-dir":             "../bitcoin",                         // another paper's folder
		paxos + "/evil-notes.md":        "../paxos-made-simple-evil/NOTES.md", // the sibling's file
		paxos + "/state":                "../../.agentero",                    // Agentero's state
		"notes/consensus/rules-link.md": "../../.agentero/state/rules.md",
	}
	for p, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(p))); err != nil {
			return err
		}
	}
	// Indexed without OCR (AGENTERO_OCR=off: neither Tesseract nor what
	// another test's OCR left in the shared cache): the scan and the
	// garbled paper stay without readable text, the case the tests of such
	// papers are about (backend/index tests OCR).
	cmd := exec.Command(binary, "index", root, "--json")
	cmd.Env = append(testEnv(), "AGENTERO_OCR=off")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("agentero index: %v\n%s", err, out.String())
	}
	return nil
}

func write(root, rel, text string) error {
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}

func testEnv() []string {
	return append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(os.TempDir(), "agentero-test-cache"))
}

func needVault(t testing.TB) {
	t.Helper()
	setupOnce.Do(setup)
	if setupErr != nil {
		if strings.HasPrefix(setupErr.Error(), "corpus not available") {
			corpustest.Unavailable(t, "%v", setupErr)
		}
		t.Fatal(setupErr)
	}
}

var runtimeSeq atomic.Int64

// usual is the grant most tests use: two papers, a paper with an outline,
// and a notes directory.
func usual() grant.Grant {
	return grantOf(grant.DefaultBudget(),
		grant.Source{Kind: grant.KindPaper, Ref: raft},
		grant.Source{Kind: grant.KindPaper, Ref: paxos},
		grant.Source{Kind: grant.KindPaper, Ref: attention},
		grant.Source{Kind: grant.KindDirectory, Ref: "notes/consensus"})
}

func grantOf(b grant.Budget, allowed ...grant.Source) grant.Grant {
	setupOnce.Do(setup) // the grant names the vault
	return grant.Grant{
		Version: grant.Version, Vault: vaultDir, RuntimeID: fmt.Sprintf("test-%d", runtimeSeq.Add(1)),
		CreatedAt: time.Now().UTC(), Mode: grant.ModeMCP, Fingerprint: "sha256:test",
		Tools: []string{"context_search", "context_read", "paper_relations"}, Allowed: allowed, Budget: b,
	}
}

// session is one spawned server and the client connected to it.
type session struct {
	t         testing.TB
	cs        *sdk.ClientSession
	grantPath string
	stderr    *bytes.Buffer
}

// start writes g and spawns the server on it.
func start(t testing.TB, g grant.Grant) *session {
	t.Helper()
	needVault(t)
	p, err := grant.Write(g)
	if err != nil {
		t.Fatal(err)
	}
	return spawn(t, p)
}

// spawn starts a server on the grant file at p, as an agent does.
func spawn(t testing.TB, p string) *session {
	t.Helper()
	cmd := exec.Command(binary, "--agentero-context-mcp", p)
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
	s := &session{t: t, cs: cs, grantPath: p, stderr: &stderr}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("server exit: %v\n%s", err, stderr.String())
		}
	})
	return s
}

// call runs a tool and returns its text and whether it is a tool error. A
// protocol failure fails the test: errors must be tool errors.
func (s *session) call(tool string, args map[string]any) (string, bool) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s %v: protocol error %v\n%s", tool, args, err, s.stderr.String())
	}
	if len(res.Content) != 1 {
		s.t.Fatalf("%s %v: %d content blocks, want 1", tool, args, len(res.Content))
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		s.t.Fatalf("%s: content is %T, want text", tool, res.Content[0])
	}
	return tc.Text, res.IsError
}

// ok calls a tool that must succeed, decodes its JSON into v, and checks
// that every citation URI in it opens.
func (s *session) ok(tool string, args map[string]any, v any) string {
	s.t.Helper()
	text, isErr := s.call(tool, args)
	if isErr {
		s.t.Fatalf("%s %v: tool error %q", tool, args, text)
	}
	if err := json.Unmarshal([]byte(text), v); err != nil {
		s.t.Fatalf("%s: result is not JSON: %v\n%s", tool, err, text)
	}
	for _, u := range citationURIs(text) {
		checkOpens(s.t, u)
	}
	return text
}

// fails calls a tool that must return a tool error, and returns its text.
func (s *session) fails(tool string, args map[string]any) string {
	s.t.Helper()
	text, isErr := s.call(tool, args)
	if !isErr {
		s.t.Fatalf("%s %v: succeeded, want a tool error:\n%.400s", tool, args, text)
	}
	return text
}

var uriField = regexp.MustCompile(`"citationUri":"((?:[^"\\]|\\.)*)"`)

func citationURIs(text string) []string {
	var out []string
	for _, m := range uriField.FindAllStringSubmatch(text, -1) {
		var u string
		if err := json.Unmarshal([]byte(`"`+m[1]+`"`), &u); err == nil && u != "" {
			out = append(out, u)
		}
	}
	return out
}

// checkOpens checks a citation URI the way the viewer opens it: the file
// exists in the vault, and a page is within the PDF's page count.
func checkOpens(t testing.TB, uri string) {
	t.Helper()
	// External cards may only point at a DOI or an arXiv abstract page.
	if strings.Contains(uri, "://") {
		if !regexp.MustCompile(`^https://(doi\.org/10\.\d{4,9}/\S+|arxiv\.org/abs/\S+)$`).MatchString(uri) {
			t.Errorf("citation %q: an external link other than doi.org or arxiv.org/abs", uri)
		}
		return
	}
	p, frag, _ := strings.Cut(uri, "#")
	st, err := os.Stat(filepath.Join(vaultDir, filepath.FromSlash(p)))
	if err != nil || !st.Mode().IsRegular() {
		t.Errorf("citation %q: file does not open: %v", uri, err)
		return
	}
	if frag == "" {
		return
	}
	q, err := url.ParseQuery(frag)
	if err != nil {
		t.Errorf("citation %q: bad fragment: %v", uri, err)
		return
	}
	page, err := strconv.Atoi(q.Get("page"))
	pages, known := corpusPages[filepath.Base(p)]
	switch {
	case err != nil:
		t.Errorf("citation %q: no page number", uri)
	case !known:
		t.Errorf("citation %q: a page of a file that is not a corpus PDF", uri)
	case page < 1 || page > pages:
		t.Errorf("citation %q: page %d is not in the PDF's %d pages", uri, page, pages)
	}
}

// usage reads the session's usage.jsonl.
func (s *session) usage() []map[string]string {
	s.t.Helper()
	data, err := os.ReadFile(filepath.Join(filepath.Dir(s.grantPath), "usage.jsonl"))
	if err != nil {
		s.t.Fatalf("read usage: %v", err)
	}
	var out []map[string]string
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var m map[string]string
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			s.t.Fatalf("usage line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func pdfOf(ref string) string { return ref + "/" + filepath.Base(ref) + ".pdf" }
