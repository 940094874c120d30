package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/context/compact"
	"github.com/agentero/agentero/backend/context/docs"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/context/snapshot"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/library"
	"github.com/agentero/agentero/backend/refs"
	"github.com/agentero/agentero/backend/settings"
	"github.com/agentero/agentero/backend/vault"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// App is the object the frontend calls. Its methods are thin: the work is
// in the backend packages.
type App struct {
	ctx  context.Context // Wails' startup context; needed by every runtime call
	log  *slog.Logger
	want string // vault asked for on the command line

	mu     sync.Mutex
	lib    *library.Library
	host   *acp.Host
	cancel context.CancelFunc // stops the open vault's indexing and watching
	done   chan struct{}
	turns  map[string]context.CancelFunc // running turns by conversation id
}

// NewApp returns an App that opens vaultDir (or the last vault, else the
// example vault) when the window starts.
func NewApp(vaultDir string, log *slog.Logger) *App {
	return &App{want: vaultDir, log: log, turns: map[string]context.CancelFunc{}}
}

func (a *App) startup(ctx context.Context) {
	a.ctx = ctx
	dir := a.want
	if dir == "" {
		dir = lastVault()
	}
	if dir == "" {
		dir = exampleVault()
	}
	if dir == "" {
		a.log.Warn("no vault to open: start with --vault DIR")
		return
	}
	if err := a.open(dir); err != nil {
		a.log.Error("open vault", "dir", dir, "err", err)
	}
}

func (a *App) shutdown(context.Context) { a.closeVault() }

// open switches the app to the vault at dir: the index opens at once, then
// indexing and watching run in the background.
func (a *App) open(dir string) error {
	lib, err := library.Open(dir, library.Options{
		Logger: a.log,
		Emit:   func(name string, payload any) { runtime.EventsEmit(a.ctx, name, payload) },
	})
	if err != nil {
		return err
	}
	agents, err := a.loadAgents()
	if err != nil {
		lib.Close()
		return err
	}
	prefs, err := a.loadSettings()
	if err != nil {
		a.log.Warn("settings", "err", err) // the defaults are in force
	}
	host := acp.NewHost(lib.Root(), executable(), lib.DB(), agents, acp.HostOptions{Logger: a.log, Budget: prefs.Budget})
	a.closeVault()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	a.mu.Lock()
	a.lib, a.host, a.cancel, a.done = lib, host, cancel, done
	a.mu.Unlock()
	host.Warm(agents.Default)
	rememberVault(lib.Root())
	go func() {
		defer close(done)
		if _, err := lib.Sync(ctx); err != nil && ctx.Err() == nil {
			a.log.Error("index vault", "err", err)
		}
		if err := lib.Watch(ctx); err != nil && ctx.Err() == nil {
			a.log.Error("watch vault", "err", err)
		}
	}()
	return nil
}

func (a *App) closeVault() {
	a.mu.Lock()
	lib, host, cancel, done := a.lib, a.host, a.cancel, a.done
	a.lib, a.host, a.cancel, a.done = nil, nil, nil, nil
	for id, stop := range a.turns {
		stop()
		delete(a.turns, id)
	}
	a.mu.Unlock()
	if lib == nil {
		return
	}
	cancel()
	<-done
	host.Close()
	if err := lib.Close(); err != nil {
		a.log.Warn("close vault", "err", err)
	}
}

func (a *App) library() (*library.Library, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.lib == nil {
		return nil, errors.New("no vault is open")
	}
	return a.lib, nil
}

// Vault reports the open vault's path and watch state.
func (a *App) Vault() library.State {
	lib, err := a.library()
	if err != nil {
		return library.State{WatchMode: "off"}
	}
	return lib.State()
}

// Library lists the papers of the open vault with their index health.
func (a *App) Library() ([]index.Paper, error) {
	lib, err := a.library()
	if err != nil {
		return []index.Paper{}, nil
	}
	return lib.DB().Papers(a.ctx)
}

// Search searches the whole open vault.
func (a *App) Search(query string, limit int) ([]index.Hit, error) {
	lib, err := a.library()
	if err != nil {
		return nil, err
	}
	res, err := lib.DB().Search(a.ctx, index.Query{Text: query, Scope: index.Scope{AllPapers: true}, Limit: limit})
	return res.Hits, err
}

// Reindex rescans the open vault now.
func (a *App) Reindex() error {
	lib, err := a.library()
	if err != nil {
		return err
	}
	go func() {
		if _, err := lib.Sync(context.Background()); err != nil {
			a.log.Error("reindex", "err", err)
		}
	}()
	return nil
}

// ChooseVault asks for a folder and opens it; "" when the user cancelled.
func (a *App) ChooseVault() (string, error) {
	dir, err := runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{Title: "Open a vault"})
	if err != nil || dir == "" {
		return "", err
	}
	if err := a.open(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// vaultFiles serves the open vault's files at /vault/<path> for the PDF
// viewer. Only files inside the vault are served: no traversal, no
// symlinks leaving it, nothing under .agentero.
func (a *App) vaultFiles() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel, ok := strings.CutPrefix(r.URL.Path, "/vault/")
		lib, err := a.library()
		if !ok || err != nil {
			http.NotFound(w, r)
			return
		}
		abs, err := vault.Resolve(lib.Root(), rel)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				http.Error(w, "this file is no longer in the vault", http.StatusNotFound)
				return
			}
			http.Error(w, "not a file of this vault", http.StatusForbidden)
			return
		}
		if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, abs)
	})
}

// lastVault reads the vault opened last, from the user's config directory.
func lastVault() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(dir, "agentero", "last-vault"))
	if err != nil {
		return ""
	}
	p := strings.TrimSpace(string(b))
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return ""
	}
	return p
}

func rememberVault(root string) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Join(dir, "agentero"), 0o755); err != nil {
		return
	}
	_ = os.WriteFile(filepath.Join(dir, "agentero", "last-vault"), []byte(root+"\n"), 0o644)
}

// exampleVault finds examples/vault beside the executable or the working
// directory, for a first start from a checkout.
func exampleVault() string {
	var candidates []string
	if exe, err := os.Executable(); err == nil {
		d := filepath.Dir(exe)
		candidates = append(candidates, filepath.Join(d, "examples", "vault"), filepath.Join(d, "..", "..", "examples", "vault"))
	}
	if wd, err := os.Getwd(); err == nil {
		candidates = append(candidates, filepath.Join(wd, "examples", "vault"))
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
	}
	return ""
}

func (a *App) emit(name string, payload any) { runtime.EventsEmit(a.ctx, name, payload) }

func (a *App) vaultHost() (*library.Library, *acp.Host, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.lib == nil {
		return nil, nil, errors.New("no vault is open")
	}
	return a.lib, a.host, nil
}

// AskRequest is one question from the sidebar or Quick Chat.
type AskRequest struct {
	ConversationID string       `json:"conversationId"`
	Agent          string       `json:"agent"` // "" = the default agent
	Request        plan.Request `json:"request"`
	Question       string       `json:"question"`
}

// Ask starts a turn and returns at once; the answer streams as agent:*
// events and ends with agent:completed or agent:error.
func (a *App) Ask(req AskRequest) error {
	_, host, err := a.vaultHost()
	if err != nil {
		return err
	}
	if strings.TrimSpace(req.Question) == "" {
		return errors.New("type a question first")
	}
	a.mu.Lock()
	if _, busy := a.turns[req.ConversationID]; busy {
		a.mu.Unlock()
		return errors.New("this conversation is still answering; cancel it or wait")
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.turns[req.ConversationID] = cancel
	a.mu.Unlock()
	go func() {
		defer func() {
			a.mu.Lock()
			delete(a.turns, req.ConversationID)
			a.mu.Unlock()
			cancel()
		}()
		_, err := host.Turn(ctx, acp.TurnRequest{ConversationID: req.ConversationID, Agent: req.Agent, Request: req.Request, Question: req.Question}, a.emit)
		var te *acp.TurnError
		if err != nil && !errors.As(err, &te) { // turn errors were already sent by the host
			a.emit(events.AgentError, map[string]any{"conversationId": req.ConversationID, "error": err.Error()})
		}
	}()
	return nil
}

// CancelTurn stops the conversation's running turn.
func (a *App) CancelTurn(conversationID string) {
	a.mu.Lock()
	stop := a.turns[conversationID]
	a.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Conversation returns a stored conversation (empty when new).
func (a *App) Conversation(id string) (*acp.Conversation, error) {
	_, host, err := a.vaultHost()
	if err != nil {
		return nil, err
	}
	return host.Store().Load(id)
}

// PreviewPlan shows what a turn with this request could read, before it is sent.
func (a *App) PreviewPlan(req plan.Request) (*plan.Plan, error) {
	lib, _, err := a.vaultHost()
	if err != nil {
		return nil, err
	}
	prefs, _ := a.loadSettings()
	r := plan.Resolver{Vault: lib.Root(), Papers: lib.DB(), Budget: prefs.Budget}
	return r.Resolve(a.ctx, req)
}

// Complete lists @-mention candidates.
func (a *App) Complete(query string, limit int) ([]index.Completion, error) {
	lib, _, err := a.vaultHost()
	if err != nil {
		return nil, err
	}
	return lib.DB().Complete(a.ctx, query, limit)
}

// SourceExists reports whether a citation URI still opens: its file is in
// the vault. External DOI and arXiv links always "exist".
func (a *App) SourceExists(uri string) bool {
	if strings.HasPrefix(uri, "https://doi.org/") || strings.HasPrefix(uri, "https://arxiv.org/abs/") {
		return true
	}
	lib, _, err := a.vaultHost()
	if err != nil {
		return false
	}
	file, _, _ := strings.Cut(uri, "#")
	abs, err := vault.Resolve(lib.Root(), file)
	if err != nil {
		return false
	}
	st, err := os.Stat(abs)
	return err == nil && st.Mode().IsRegular()
}

// OpenExternal opens a DOI or arXiv page in the system browser; nothing else.
func (a *App) OpenExternal(url string) error {
	if !strings.HasPrefix(url, "https://doi.org/") && !strings.HasPrefix(url, "https://arxiv.org/abs/") {
		return errors.New("only doi.org and arxiv.org links open from Agentero")
	}
	runtime.BrowserOpenURL(a.ctx, url)
	return nil
}

func (a *App) loadAgents() (*acp.Agents, error) {
	p, err := acp.AgentsPath()
	if err != nil {
		return nil, err
	}
	return acp.LoadAgents(p, executable())
}

// Agents lists the configured agents and the default.
func (a *App) Agents() (*acp.Agents, error) { return a.loadAgents() }

// SaveAgent adds or changes an agent and optionally makes it the default.
func (a *App) SaveAgent(ag acp.Agent, makeDefault bool) error {
	cfg, err := a.loadAgents()
	if err != nil {
		return err
	}
	if err := cfg.Put(ag); err != nil {
		return err
	}
	if makeDefault {
		cfg.Default = ag.Name
	}
	return a.saveAgents(cfg)
}

// SetDefaultAgent makes a configured agent the default.
func (a *App) SetDefaultAgent(name string) error {
	cfg, err := a.loadAgents()
	if err != nil {
		return err
	}
	if cfg.Find(name) == nil {
		return fmt.Errorf("no agent named %q", name)
	}
	cfg.Default = name
	return a.saveAgents(cfg)
}

// DeleteAgent removes an agent (never the built-in one).
func (a *App) DeleteAgent(name string) error {
	if name == acp.BuiltinName {
		return errors.New("the built-in agent cannot be removed")
	}
	cfg, err := a.loadAgents()
	if err != nil {
		return err
	}
	kept := cfg.List[:0]
	for _, ag := range cfg.List {
		if ag.Name != name {
			kept = append(kept, ag)
		}
	}
	cfg.List = kept
	if cfg.Default == name {
		cfg.Default = acp.BuiltinName
	}
	return a.saveAgents(cfg)
}

func (a *App) saveAgents(cfg *acp.Agents) error {
	p, err := acp.AgentsPath()
	if err != nil {
		return err
	}
	if err := cfg.Save(p); err != nil {
		return err
	}
	// The open vault's host picks the change up on its next turn.
	if _, host, err := a.vaultHost(); err == nil {
		host.SetAgents(cfg)
	}
	return nil
}

// TestAgent starts an agent, initializes it and reports what it can do.
func (a *App) TestAgent(ag acp.Agent) (acp.Capabilities, error) {
	ctx, cancel := context.WithTimeout(a.ctx, 30*time.Second)
	defer cancel()
	p, err := acp.Start(ctx, ag, a.log)
	if err != nil {
		return acp.Capabilities{}, err
	}
	defer p.Stop()
	return p.Capabilities(), nil
}

func executable() string {
	exe, err := os.Executable()
	if err != nil {
		return os.Args[0]
	}
	return exe
}

// AgentView is what a new session of a conversation would be given: the
// frozen context, then the history as compacted for the agent's window.
type AgentView struct {
	Snapshot   string         `json:"snapshot"`
	Issues     []string       `json:"issues"`
	History    compact.Result `json:"history"`
	Transcript string         `json:"transcript"`
}

// WhatAgentSees shows what the agent gets for a conversation ("what the
// agent sees" in the UI). It changes nothing.
func (a *App) WhatAgentSees(conversationID string) (*AgentView, error) {
	lib, host, err := a.vaultHost()
	if err != nil {
		return nil, err
	}
	dir := host.Store().Dir(conversationID)
	snap, err := snapshot.Load(dir)
	if err != nil {
		if snap, err = snapshot.Build(lib.Root(), snapshot.Options{}); err != nil {
			return nil, err
		}
	}
	view := &AgentView{Snapshot: snap.Render(), Issues: []string{}, Transcript: filepath.Join(dir, "transcript.jsonl")}
	for _, is := range snap.Issues {
		view.Issues = append(view.Issues, is.Path+": "+is.Problem)
	}
	if view.History, err = host.Compaction(a.ctx, conversationID, "", 0, false); err != nil {
		return nil, err
	}
	return view, nil
}

// Relations are a paper's references, the library papers citing it, and
// related papers, for the paper's side panel.
type Relations struct {
	References []refs.Card `json:"references"`
	CitedBy    []refs.Card `json:"citedBy"`
	Related    []refs.Card `json:"related"`
}

// PaperRelations lists a paper's relations (up to limit of each kind).
func (a *App) PaperRelations(ref string, limit int) (*Relations, error) {
	lib, _, err := a.vaultHost()
	if err != nil {
		return nil, err
	}
	out := &Relations{}
	for kind, dst := range map[refs.Kind]*[]refs.Card{refs.References: &out.References, refs.CitedBy: &out.CitedBy, refs.Related: &out.Related} {
		cards, err := refs.Relations(a.ctx, lib.DB(), ref, kind, limit)
		if err != nil {
			return nil, err
		}
		*dst = cards
	}
	return out, nil
}

func (a *App) loadSettings() (settings.Settings, error) {
	p, err := settings.Path()
	if err != nil {
		return settings.Defaults(), err
	}
	return settings.Load(p)
}

// Settings returns the user's settings (the tools' budget).
func (a *App) Settings() (settings.Settings, error) { return a.loadSettings() }

// DefaultSettings returns the settings of a fresh install.
func (a *App) DefaultSettings() settings.Settings { return settings.Defaults() }

// SaveSettings checks and stores the settings; later turns use them.
func (a *App) SaveSettings(s settings.Settings) error {
	p, err := settings.Path()
	if err != nil {
		return err
	}
	if err := settings.Save(p, s); err != nil {
		return err
	}
	if _, host, err := a.vaultHost(); err == nil {
		host.SetBudget(s.Budget)
	}
	return nil
}

// ContextDocs lists the vault's context documents and the ones that could
// not be used, with why.
type ContextDocs struct {
	Docs     []docs.Doc     `json:"docs"`
	Problems []docs.Problem `json:"problems"`
}

// ListContextDocs lists the open vault's context documents.
func (a *App) ListContextDocs() (*ContextDocs, error) {
	lib, _, err := a.vaultHost()
	if err != nil {
		return nil, err
	}
	cat, err := docs.Scan(lib.Root())
	if err != nil {
		return nil, err
	}
	out := &ContextDocs{Docs: cat.Docs(), Problems: cat.Problems}
	if out.Docs == nil {
		out.Docs = []docs.Doc{}
	}
	if out.Problems == nil {
		out.Problems = []docs.Problem{}
	}
	return out, nil
}

// ContextDocSource returns a document's whole file for the editor.
func (a *App) ContextDocSource(id string) (string, error) {
	lib, _, err := a.vaultHost()
	if err != nil {
		return "", err
	}
	return docs.Source(lib.Root(), id)
}

// SaveContextDoc checks and stores a document the user edited; new
// sessions see it (running ones keep their frozen snapshot).
func (a *App) SaveContextDoc(id, content string) error {
	lib, _, err := a.vaultHost()
	if err != nil {
		return err
	}
	return docs.Save(lib.Root(), id, content)
}

// DeleteContextDoc removes a context document.
func (a *App) DeleteContextDoc(id string) error {
	lib, _, err := a.vaultHost()
	if err != nil {
		return err
	}
	return docs.Delete(lib.Root(), id)
}
