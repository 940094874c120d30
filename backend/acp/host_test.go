package acp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/google/go-cmp/cmp"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/internal/corpustest"
)

var binary string // the real agentero binary: built-in agent and MCP server

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agentero-acp-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "agentero")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", binary, "../..")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("build agentero: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// vaultWith lays corpus papers out as a vault, indexes it with the real
// binary and opens its index.
func vaultWith(t *testing.T, files ...string) (string, *index.DB) {
	t.Helper()
	return vaultWithTB(t, files...)
}

func vaultWithTB(t testing.TB, files ...string) (string, *index.DB) {
	t.Helper()
	root := corpustest.Vault(t, files...)
	os.MkdirAll(filepath.Join(root, "notes"), 0o755)
	os.WriteFile(filepath.Join(root, "notes", "ideas.md"), []byte("Proof-of-stake could replace proof-of-work.\n"), 0o644)
	if out, err := exec.Command(binary, "index", root).CombinedOutput(); err != nil {
		t.Fatalf("index: %v\n%s", err, out)
	}
	db, err := index.Open(index.Path(root), index.Options{ReadOnly: true, Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return root, db
}

// peer is the scripted agent on the ACP TypeScript SDK.
func peer(t *testing.T, name, caps, fault string) (agentconf.Agent, string) {
	t.Helper()
	script, _ := filepath.Abs("../../test/peeragent/agent.mjs")
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "@agentclientprotocol", "sdk")); err != nil {
		if os.Getenv("AGENTERO_REQUIRE_PEER") != "" {
			t.Fatalf("the peer agent's npm packages are missing: run npm ci in test/peeragent")
		}
		t.Skip("peer agent not installed (npm ci in test/peeragent)")
	}
	rec := filepath.Join(t.TempDir(), name+".jsonl")
	return agentconf.Agent{Name: name, Command: "node", Args: []string{script},
		Env: map[string]string{"PEER_RECORD": rec, "PEER_CAPS": caps, "PEER_FAULT": fault}}, rec
}

type received struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	PID    int             `json:"pid"`
}

func records(t *testing.T, path string) []received {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []received
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var r received
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("record: %v", err)
		}
		out = append(out, r)
	}
	return out
}

func methods(rs []received) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Method)
	}
	return out
}

func newHost(t *testing.T, root string, db *index.DB, agents ...agentconf.Agent) *acp.Host {
	t.Helper()
	cfg := &agentconf.Agents{Default: agentconf.BuiltinName, List: append([]agentconf.Agent{agentconf.Builtin(binary)}, agents...)}
	h := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), TurnTimeout: 20 * time.Second, PoolSize: -1})
	t.Cleanup(h.Close)
	return h
}

func ask(t *testing.T, h *acp.Host, conv, agent string, req plan.Request, q string) *acp.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := h.Turn(ctx, acp.TurnRequest{ConversationID: conv, Agent: agent, Request: req, Question: q}, nil)
	if err != nil {
		t.Fatalf("turn %q: %v", q, err)
	}
	return res
}

var (
	sidebar = plan.Request{Surface: "sidebar", CurrentPaper: "papers/bitcoin"}
	wider   = plan.Request{Surface: "sidebar", CurrentPaper: "papers/bitcoin", Mentions: []plan.Mention{{Kind: "directory", Path: "notes"}}}
	nothing = plan.Request{Surface: "quickChat"}
)

// mcpServers decodes the mcpServers a peer received.
func mcpServers(t *testing.T, r received) []map[string]any {
	t.Helper()
	var p struct {
		McpServers []map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal(r.Params, &p); err != nil {
		t.Fatal(err)
	}
	return p.McpServers
}

func TestDecisionTable(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf", "peercoin.pdf")
	tests := []struct {
		name   string
		caps   string
		fault  string
		turns  []plan.Request
		fresh  bool     // a new host (a restarted app) for every turn
		want   []string // session action of each turn
		method []string // the method that continued the session on turn 2
	}{
		{"resume offered", "resume,load", "", []plan.Request{sidebar, sidebar}, true, []string{"new", "resume"}, []string{"session/resume"}},
		{"load only", "load", "", []plan.Request{sidebar, sidebar}, true, []string{"new", "load"}, []string{"session/load"}},
		{"neither, live process", "", "", []plan.Request{sidebar, sidebar}, false, []string{"new", "continue"}, nil},
		{"neither, restarted", "", "", []plan.Request{sidebar, sidebar}, true, []string{"new", "new"}, nil},
		{"fingerprint changed", "resume,load", "", []plan.Request{sidebar, wider}, true, []string{"new", "new"}, nil},
		{"resume refused", "resume", "refuse-resume", []plan.Request{sidebar, sidebar}, true, []string{"new", "new"}, []string{"session/resume"}},
		{"prompt-only", "resume", "", []plan.Request{nothing, nothing}, true, []string{"new", "resume"}, []string{"session/resume"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ag, rec := peer(t, "peer", tt.caps, tt.fault)
			h := newHost(t, root, db, ag)
			var results []*acp.Result
			for i, req := range tt.turns {
				if i > 0 && tt.fresh {
					h.Close()
					h = newHost(t, root, db, ag)
				}
				conv := strings.NewReplacer(" ", "-", ",", "").Replace(tt.name)
				results = append(results, ask(t, h, conv, "peer", req, "question "+string(rune('A'+i))))
			}
			for i, r := range results {
				if r.Session.Action != tt.want[i] {
					t.Errorf("turn %d: action %q, want %q (note %q)", i+1, r.Session.Action, tt.want[i], r.Session.Note)
				}
			}
			rs := records(t, rec)
			var news, conts []received
			var prompts []string
			for _, r := range rs {
				switch r.Method {
				case "session/new":
					news = append(news, r)
				case "session/resume", "session/load":
					conts = append(conts, r)
				case "session/prompt":
					var p struct{ Text string }
					json.Unmarshal(r.Params, &p)
					prompts = append(prompts, p.Text)
				}
			}
			if tt.method != nil && (len(conts) != 1 || conts[0].Method != tt.method[0]) {
				t.Errorf("continuation methods = %v, want %v", methods(conts), tt.method)
			}
			if len(news) == 0 {
				t.Fatalf("no session/new received: %v", methods(rs))
			}
			// MCP servers: the same list on new, resume and load; empty without sources.
			first := mcpServers(t, news[0])
			if tt.turns[0].CurrentPaper == "" {
				if len(first) != 0 {
					t.Errorf("prompt-only turn got mcpServers %v", first)
				}
			} else {
				if len(first) != 1 || first[0]["name"] != "agentero-context" || first[0]["command"] != binary {
					t.Fatalf("mcpServers = %v", first)
				}
				args, _ := first[0]["args"].([]any)
				env, _ := first[0]["env"].([]any)
				// The agent is confined: its server is a bridge to the
				// session's socket, named after the session, so that a
				// restarted app serves it under the same name.
				if len(args) != 2 || args[0] != "--agentero-mcp-bridge" || !strings.HasSuffix(args[1].(string), ".sock") || env == nil || len(env) != 0 {
					t.Errorf("agentero-context server = %v", first[0])
				}
				sameSocket := func(a, b []map[string]any) bool {
					if len(a) != 1 || len(b) != 1 {
						return false
					}
					x, _ := a[0]["args"].([]any)
					y, _ := b[0]["args"].([]any)
					return len(x) == 2 && len(y) == 2 && x[0] == y[0] && filepath.Base(x[1].(string)) == filepath.Base(y[1].(string))
				}
				for _, c := range conts {
					if got := mcpServers(t, c); !sameSocket(got, first) {
						t.Errorf("%s mcpServers %v differ from session/new's %v", c.Method, got, first)
					}
				}
			}
			// A new second session is handed the earlier turn, once.
			if tt.want[1] == "new" && len(prompts) == 2 {
				if n := strings.Count(prompts[1], "question A"); n != 1 {
					t.Errorf("handover carries the first question %d times:\n%s", n, prompts[1])
				}
				if !strings.Contains(prompts[1], "peer answer 1") {
					t.Errorf("handover lacks the first answer:\n%s", prompts[1])
				}
			}
			if tt.want[1] != "new" && len(prompts) == 2 && strings.Contains(prompts[1], "conversation-so-far") {
				t.Errorf("a continued session was handed the conversation again:\n%s", prompts[1])
			}
			for _, r := range results {
				if strings.Contains(r.Completed.Content, "REPLAYED HISTORY") {
					t.Error("history replayed by session/load reached the answer")
				}
			}
		})
	}
}

func jsonEqual(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func TestWarmPool(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ag, rec := peer(t, "peer", "resume", "")
	cfg := &agentconf.Agents{Default: "peer", List: []agentconf.Agent{agentconf.Builtin(binary), ag}}
	h := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), PoolSize: 1})
	defer h.Close()
	h.Warm("peer")
	waitFor(t, func() bool { return strings.Count(strings.Join(methods(records(t, rec)), " "), "session/new") >= 1 })

	// A turn with an MCP never takes from the pool.
	r := ask(t, h, "with-grant", "peer", sidebar, "q1")
	if r.Session.Action != "new" {
		t.Errorf("mcp turn: action %q, want new", r.Session.Action)
	}
	// A turn without grants takes the warm session.
	r = ask(t, h, "no-grant", "peer", nothing, "q2")
	if r.Session.Action != "warm" {
		t.Errorf("prompt-only turn: action %q, want warm", r.Session.Action)
	}
	for _, rr := range records(t, rec) {
		if rr.Method == "session/new" {
			var p struct {
				McpServers []any `json:"mcpServers"`
			}
			json.Unmarshal(rr.Params, &p)
			if p.McpServers == nil {
				t.Error("session/new without mcpServers: must be an empty list")
			}
		}
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(20 * time.Millisecond) // polling another process's file: nothing to wait on
	}
}

func TestFaults(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	tests := []struct {
		fault string
		want  string
		code  string // of the agent:error event
		is    error
	}{
		{"exit-mid-turn", "stopped", events.CodeCrashed, acp.ErrAgentExited},
		{"hang", "did not answer", events.CodeTimeout, acp.ErrTimeout},
		{"garbage", "stopped", events.CodeCrashed, acp.ErrAgentExited},
		{"reject-new", "refused a new session", events.CodeRefused, acp.ErrRefused},
		{"missing-command", "was not found", events.CodeNotConfigured, acp.ErrCommandNotFound},
		{"not-acp", "did not answer initialize in 20 s", events.CodeNotConfigured, acp.ErrNotStarted}, // never answers initialize
	}
	for _, tt := range tests {
		t.Run(tt.fault, func(t *testing.T) {
			bad, _ := peer(t, "bad", "resume", tt.fault)
			switch tt.fault {
			case "missing-command":
				bad.Command = filepath.Join(t.TempDir(), "no-such-agent")
			case "not-acp":
				bad.Command, bad.Args = "sleep", []string{"600"}
			}
			good, _ := peer(t, "good", "resume", "")
			cfg := &agentconf.Agents{Default: "bad", List: []agentconf.Agent{agentconf.Builtin(binary), bad, good}}
			// Long enough for a start (in a sandbox) on a machine loaded by -race runs.
			h := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), TurnTimeout: 20 * time.Second, PoolSize: -1})
			defer h.Close()
			var sent []events.AgentErrorEvent
			emit := func(name string, payload any) {
				if e, ok := payload.(events.AgentErrorEvent); ok {
					sent = append(sent, e)
				}
			}
			_, err := h.Turn(context.Background(), acp.TurnRequest{ConversationID: "f", Agent: "bad", Request: sidebar, Question: "will fail"}, emit)
			var te *acp.TurnError
			if !errors.As(err, &te) || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, tt.is) {
				t.Fatalf("error = %v, want a turn error saying %q that is %v", err, tt.want, tt.is)
			}
			if len(sent) != 1 || sent[0].Code != tt.code || sent[0].ConversationID != "f" || sent[0].MessageID == "" || sent[0].Error != err.Error() {
				t.Errorf("agent:error events = %+v, want one with code %q", sent, tt.code)
			}
			if got := acp.ErrorCode(err); got != tt.code {
				t.Errorf("ErrorCode = %q, want %q", got, tt.code)
			}
			tr, _ := h.Store().Transcript("f")
			kinds := []string{}
			for _, e := range tr {
				kinds = append(kinds, e.Kind)
			}
			if len(kinds) == 0 || kinds[0] != "user" || kinds[len(kinds)-1] != "error" {
				t.Errorf("transcript kinds = %v, want the question first and the error last", kinds)
			}
			conv, _ := h.Store().Load("f")
			if conv.ProviderSessionID != "" {
				t.Errorf("the failed session %q is kept for the next turn", conv.ProviderSessionID)
			}
			if last := conv.Messages[len(conv.Messages)-1]; last.ErrorCode != tt.code || last.Error != err.Error() {
				t.Errorf("stored failure %q (code %q), want %q (code %q)", last.Error, last.ErrorCode, err.Error(), tt.code)
			}
			if tt.fault == "exit-mid-turn" && !strings.Contains(conv.Messages[len(conv.Messages)-1].Content, "partial answer") {
				t.Errorf("the partial answer was lost: %+v", conv.Messages)
			}
			// The next turn runs on a host that gives a start the time a
			// loaded machine needs; the stored conversation is the same.
			h2 := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), TurnTimeout: 30 * time.Second, PoolSize: -1})
			defer h2.Close()
			r := ask(t, h2, "f", "good", sidebar, "next")
			if r.Session.Action != "new" || r.Completed.Content == "" {
				t.Errorf("next turn: %+v", r)
			}
			// Each message remembers its agent: the one that failed, then
			// the one that answered.
			conv, _ = h.Store().Load("f")
			var agents []string
			for _, m := range conv.Messages {
				agents = append(agents, m.Role+":"+m.Agent)
			}
			if n := len(agents); n < 3 || agents[0] != "user:bad" || agents[n-2] != "user:good" || agents[n-1] != "assistant:good" || r.Completed.Agent != "good" {
				t.Errorf("message agents %v, completed by %q; want the failed turn's bad, then good", agents, r.Completed.Agent)
			}
		})
	}
}

// TestRefusedBeforeTheTurn asks questions that cannot become a turn: each
// fails with its domain error and code, sends nothing and records nothing.
func TestRefusedBeforeTheTurn(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	h := newHost(t, root, db)
	tests := []struct {
		name string
		req  acp.TurnRequest
		is   error
		code string
	}{
		{"empty question", acp.TurnRequest{ConversationID: "a", Request: sidebar, Question: "  "}, acp.ErrEmptyQuestion, events.CodeInvalid},
		{"unknown agent", acp.TurnRequest{ConversationID: "a", Agent: "nobody", Request: sidebar, Question: "q"}, acp.ErrUnknownAgent, events.CodeNotConfigured},
		{"bad conversation id", acp.TurnRequest{ConversationID: "../x", Request: sidebar, Question: "q"}, conversation.ErrBadConversationID, events.CodeInvalid},
		{"bad surface", acp.TurnRequest{ConversationID: "a", Request: plan.Request{Surface: "elsewhere"}, Question: "q"}, plan.ErrBadRequest, events.CodeInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sent []string
			_, err := h.Turn(context.Background(), tt.req, func(name string, _ any) { sent = append(sent, name) })
			if !errors.Is(err, tt.is) || acp.ErrorCode(err) != tt.code {
				t.Errorf("error %v (code %q), want %v (code %q)", err, acp.ErrorCode(err), tt.is, tt.code)
			}
			if len(sent) != 0 {
				t.Errorf("sent %v for a question that never became a turn", sent)
			}
		})
	}
	if tr, _ := h.Store().Transcript("a"); len(tr) != 0 {
		t.Errorf("recorded %d transcript entries", len(tr))
	}
}

// TestPermissionUnattended: with no one to ask, a request for anything but
// the context tools gets the agent's reject option.
func TestPermissionUnattended(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	ag, rec := peer(t, "peer", "", "permission")
	h := newHost(t, root, db, ag)
	r, err := h.Turn(context.Background(), acp.TurnRequest{ConversationID: "perm", Agent: "peer", Request: sidebar, Question: "write something", Unattended: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Completed.Content, `"optionId":"reject"`) {
		t.Errorf("answer = %q, want the reject option selected", r.Completed.Content)
	}
	var outcome string
	for _, rr := range records(t, rec) {
		if rr.Method == "permission-outcome" {
			outcome = string(rr.Params)
		}
	}
	if !strings.Contains(outcome, "reject") {
		t.Errorf("outcome = %s", outcome)
	}
	if len(r.Permissions) != 1 || r.Permissions[0].Title != "write notes.md" || acp.Verdict(r.Permissions[0]) != "rejected" {
		t.Errorf("permissions = %+v, want write notes.md rejected", r.Permissions)
	}
}

// normalize makes page text and quoted passages comparable: the agent quotes
// snippets with whitespace collapsed and "…" where they were cut.
func normalize(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

func TestBuiltinAgentEndToEnd(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf", "peercoin.pdf", "in-search-of-an-understandable-consensus-algorithm.pdf")
	h := newHost(t, root, db)
	req := plan.Request{Surface: "sidebar", CurrentPaper: "papers/in-search-of-an-understandable-consensus-algorithm"}
	r := ask(t, h, "raft", "", req, "How does Raft elect a leader?")
	if r.Session.Action != "new" || !r.Session.MCP {
		t.Errorf("session = %+v", r.Session)
	}
	if len(r.Completed.Sources) == 0 {
		t.Fatalf("no sources; answer:\n%s", r.Completed.Content)
	}
	for _, src := range r.Completed.Sources {
		file, frag, _ := strings.Cut(src, "#page=")
		if !strings.HasPrefix(file, "papers/in-search-of-an-understandable-consensus-algorithm/") {
			t.Errorf("source %s is outside the grant", src)
		}
		st, err := os.Stat(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil || st.IsDir() {
			t.Errorf("source %s does not open: %v", src, err)
			continue
		}
		page := 0
		for _, c := range frag {
			if c < '0' || c > '9' {
				break
			}
			page = page*10 + int(c-'0')
		}
		p, _ := db.Paper(context.Background(), "papers/in-search-of-an-understandable-consensus-algorithm")
		if page < 1 || page > p.Pages {
			t.Errorf("source %s: page %d not in 1..%d", src, page, p.Pages)
		}
	}
	// Every quoted passage is on the page its citation names.
	quoted := 0
	for _, line := range strings.Split(r.Completed.Content, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "— ") {
			continue
		}
		uri := line[strings.LastIndex(line, "[")+1 : strings.LastIndex(line, "]")]
		cited, err := citation.Parse(uri)
		if err != nil {
			t.Fatalf("citation %q: %v", uri, err)
		}
		page := cited.Page
		passage := prevPassage(r.Completed.Content, line)
		text, _, err := db.PageText(context.Background(), "papers/in-search-of-an-understandable-consensus-algorithm", page)
		if err != nil {
			t.Fatal(err)
		}
		for _, piece := range strings.Split(passage, "…") {
			if piece = strings.TrimSpace(piece); len(piece) > 20 && !strings.Contains(normalize(text), normalize(piece)) {
				t.Errorf("quoted text is not on page %d: %q", page, piece)
			}
		}
		quoted++
	}
	if quoted == 0 {
		t.Errorf("the answer quotes nothing:\n%s", r.Completed.Content)
	}
	if !strings.Contains(strings.ToLower(r.Completed.Content), "leader") {
		t.Errorf("the answer does not match the question:\n%s", r.Completed.Content)
	}

	// A restarted app resumes the built-in agent's session.
	h.Close()
	h = newHost(t, root, db)
	r2 := ask(t, h, "raft", "", req, "What is a term?")
	if r2.Session.Action != "resume" || r2.Session.ProviderSessionID != r.Session.ProviderSessionID {
		t.Errorf("second turn session = %+v, want resume of %s", r2.Session, r.Session.ProviderSessionID)
	}
	// Nothing relevant: said plainly, no sources invented.
	r3 := ask(t, h, "raft", "", req, "zebra giraffe xylophone")
	if !strings.Contains(r3.Completed.Content, "found nothing relevant") || len(r3.Completed.Sources) != 0 {
		t.Errorf("irrelevant question: %q sources %v", r3.Completed.Content, r3.Completed.Sources)
	}
	tr, _ := h.Store().Transcript("raft")
	if len(tr) < 9 {
		t.Errorf("transcript has %d entries for 3 turns", len(tr))
	}
}

// prevPassage returns the quoted passage printed on the line before the
// citation line in an answer.
func prevPassage(content, citationLine string) string {
	lines := strings.Split(content, "\n")
	for i, l := range lines {
		if l == citationLine && i > 0 {
			p := strings.TrimSpace(lines[i-1])
			if j := strings.Index(p, "“"); j >= 0 {
				p = p[j+len("“"):]
			}
			return strings.TrimSuffix(p, "”")
		}
	}
	return ""
}

func TestFrozenSnapshot(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	guide := filepath.Join(root, "AGENTS.md")
	os.WriteFile(guide, []byte("Cite every claim. GUIDANCE-ONE\n"), 0o644)
	ag, rec := peer(t, "peer", "resume", "")
	h := newHost(t, root, db, ag)
	ask(t, h, "snap", "peer", sidebar, "first")
	os.WriteFile(guide, []byte("Cite every claim. GUIDANCE-TWO\n"), 0o644)
	ask(t, h, "snap", "peer", sidebar, "second (resumed)")
	ask(t, h, "snap", "peer", wider, "third (new session, same conversation)")
	ask(t, h, "other", "peer", sidebar, "a new conversation")
	var prompts []string
	for _, r := range records(t, rec) {
		if r.Method == "session/prompt" {
			var p struct{ Text string }
			json.Unmarshal(r.Params, &p)
			prompts = append(prompts, p.Text)
		}
	}
	if len(prompts) != 4 {
		t.Fatalf("%d prompts", len(prompts))
	}
	checks := []struct{ has, hasNot string }{
		{"GUIDANCE-ONE", "GUIDANCE-TWO"},
		{"", "GUIDANCE"}, // a resumed session already has its frozen context
		{"GUIDANCE-ONE", "GUIDANCE-TWO"},
		{"GUIDANCE-TWO", "GUIDANCE-ONE"},
	}
	for i, c := range checks {
		if c.has != "" && !strings.Contains(prompts[i], c.has) {
			t.Errorf("prompt %d lacks %s", i+1, c.has)
		}
		if strings.Contains(prompts[i], c.hasNot) {
			t.Errorf("prompt %d carries %s", i+1, c.hasNot)
		}
	}
	// The frozen part comes first, the turn's plan after it.
	if strings.Index(prompts[0], "GUIDANCE-ONE") > strings.Index(prompts[0], "<agentero-context>") {
		t.Error("the per-turn context comes before the frozen snapshot")
	}
}

// TestPlanIsStored checks that the agent's last plan of a turn is kept with
// its answer, so that a reopened conversation shows it, and that a turn
// without a plan stores none.
func TestPlanIsStored(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	planner, _ := peer(t, "planner", "resume", "")
	planner.Env["PEER_PLAN"] = "first"
	h := newHost(t, root, db, planner)
	ask(t, h, "p", "planner", sidebar, "first")
	ask(t, h, "p", "planner", sidebar, "second")
	conv, err := h.Store().Load("p")
	if err != nil {
		t.Fatal(err)
	}
	var plans [][]conversation.PlanStep
	for _, m := range conv.Messages {
		if m.Role == "assistant" {
			plans = append(plans, m.Plan)
		}
	}
	want := [][]conversation.PlanStep{
		{{Content: "Read the abstract", Priority: "high", Status: "completed"}, {Content: "Compare with the related work", Priority: "medium", Status: "in_progress"}},
		nil,
	}
	if diff := cmp.Diff(want, plans); diff != "" {
		t.Errorf("stored plans (-want +got):\n%s", diff)
	}
}
