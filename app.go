package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/compact"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/conversation"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/intake"
	"github.com/agentero/agentero/backend/library"
	"github.com/agentero/agentero/backend/settings"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/pkg/browser"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// App is the object the frontend calls: each bound method hands its call to
// the open workspace (or to the user's configuration, which needs no vault).
type App struct {
	ctx  context.Context // Wails' startup context; needed by every runtime call
	log  *slog.Logger
	want string // vault asked for on the command line
	cfg  *workspace.Config

	// switching is held while a vault opens or closes, so that switches
	// (and the shutdown) do not interleave.
	switching sync.Mutex

	// mu guards ws and openErr; it is never held while a workspace opens
	// or closes.
	mu      sync.Mutex
	ws      *workspace.Workspace
	openErr error             // why the last vault asked for did not open (a .agentero that is a link, …)
	pending *workspace.Folder // the folder asked for at start that is not a vault yet

	links *links // the agentero:// link the app was launched with (app_links.go)
}

// NewApp returns an App that opens vaultDir (or the last vault) when the
// window starts; with neither, the window's first screen offers a way in.
func NewApp(vaultDir string, log *slog.Logger) *App {
	return &App{want: vaultDir, log: log, cfg: workspace.NewConfig("", "")}
}

func (a *App) startup(ctx context.Context) {
	a.ctx = ctx
	dir := a.want
	if dir == "" {
		dir = a.cfg.LastVault()
	}
	if dir == "" {
		// The first screen offers Open vault…, New vault… and the example.
		a.log.Info("no vault to open: the window offers to open or make one")
		return
	}
	// A folder that is not a vault yet is not opened (that would write
	// .agentero/ into it): the UI asks the user what to make of it.
	if folder, err := workspace.InspectFolder(dir); errors.Is(err, workspace.ErrNotVault) {
		a.mu.Lock()
		a.openErr, a.pending = err, folder
		a.mu.Unlock()
		return
	}
	if err := a.open(dir); err != nil {
		a.log.Error("open vault", "dir", dir, "err", err)
	}
}

// shutdown cancels the agent tests in progress and closes the open vault,
// each waiting for what it runs.
func (a *App) shutdown(context.Context) {
	a.cfg.Close()
	a.switching.Lock()
	defer a.switching.Unlock()
	a.mu.Lock()
	ws := a.ws
	a.ws = nil
	a.mu.Unlock()
	if ws != nil {
		if err := ws.Close(); err != nil {
			a.log.Warn("close vault", "err", err)
		}
	}
}

// open switches the app to the vault at dir: the new one opens (its index
// at once), the old one closes and is waited for, then the new one indexes
// and watches in the background.
func (a *App) open(dir string) error {
	a.switching.Lock()
	defer a.switching.Unlock()
	ws, err := workspace.Open(dir, workspace.Options{Logger: a.log, Emit: a.emit, Config: a.cfg})
	a.mu.Lock()
	a.openErr = err
	a.mu.Unlock()
	if err != nil {
		return err
	}
	a.mu.Lock()
	old := a.ws
	a.ws = ws
	a.mu.Unlock()
	if old != nil {
		if err := old.Close(); err != nil {
			a.log.Warn("close vault", "err", err)
		}
	}
	if err := a.cfg.RememberVault(ws.Root()); err != nil {
		a.log.Warn("remember vault", "err", err)
	}
	if err := a.cfg.AddRecentVault(ws.Root()); err != nil {
		a.log.Warn("remember vault among the recent ones", "err", err)
	}
	return ws.Start()
}

// current is the open workspace, or workspace.ErrNoVault.
func (a *App) current() (*workspace.Workspace, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ws == nil {
		return nil, workspace.ErrNoVault
	}
	return a.ws, nil
}

// on runs f on the open workspace.
func on[T any](a *App, f func(ws *workspace.Workspace) (T, error)) (T, error) {
	ws, err := a.current()
	if err != nil {
		var zero T
		return zero, err
	}
	return f(ws)
}

// do runs f on the open workspace.
func do(a *App, f func(ws *workspace.Workspace) error) error {
	ws, err := a.current()
	if err != nil {
		return err
	}
	return f(ws)
}

func (a *App) emit(name string, payload any) { runtime.EventsEmit(a.ctx, name, payload) }

// EventPayloads exists so that the Wails bindings generate the TypeScript
// types of the event payloads and of the error a failed call rejects with;
// the UI never calls it. It returns the zero value.
func (a *App) EventPayloads() events.Payloads { return events.Payloads{} }

// formatError is Wails' ErrorFormatter: what a failed call's promise
// rejects with. Internal errors are logged in full here.
func (a *App) formatError(err error) any {
	e := workspace.Public(err)
	if e.Code == events.CodeInternal {
		a.log.Error("call failed", "err", err)
	}
	return e
}

// vaultFiles serves the open vault's files at /vault/<path> for the PDF
// viewer (workspace.ServeFile says which).
func (a *App) vaultFiles() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := a.current()
		if err != nil {
			http.NotFound(w, r)
			return
		}
		ws.ServeFile(w, r)
	})
}

// notOpened is why no vault is open, when the one asked for failed to open
// (the UI shows it); nil when none was asked for.
func (a *App) notOpened() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.openErr
}

// Vault reports the open vault's path and watch state. With no vault open
// it rejects with the reason the one asked for did not open, if it failed.
func (a *App) Vault() (library.State, error) {
	ws, err := a.current()
	if err != nil {
		return library.State{WatchMode: "off"}, a.notOpened()
	}
	return ws.State(), nil
}

// Library lists the papers of the open vault with their index health (none
// when no vault is open, or the reason the one asked for did not open).
func (a *App) Library() ([]index.Paper, error) {
	ws, err := a.current()
	if err != nil {
		return []index.Paper{}, a.notOpened()
	}
	return ws.Papers(a.ctx)
}

// Search searches the whole open vault.
func (a *App) Search(query string, limit int) ([]index.Hit, error) {
	return on(a, func(ws *workspace.Workspace) ([]index.Hit, error) { return ws.Search(a.ctx, query, limit) })
}

// Sections lists the sections of the paper whose PDF is path (vault
// relative): its outline, or the headings found on its pages.
func (a *App) Sections(path string) ([]index.Section, error) {
	return on(a, func(ws *workspace.Workspace) ([]index.Section, error) { return ws.Sections(a.ctx, path) })
}

// Figures lists the figures and tables of the paper whose PDF is path
// (vault relative), found by their captions, each with its page and region.
func (a *App) Figures(path string) ([]index.Figure, error) {
	return on(a, func(ws *workspace.Workspace) ([]index.Figure, error) { return ws.Figures(a.ctx, path) })
}

// Locate finds where a citation's quote is on its page: the rectangles the
// viewer marks, in PDF points from the page's top-left corner.
func (a *App) Locate(uri string) (workspace.Location, error) {
	return on(a, func(ws *workspace.Workspace) (workspace.Location, error) { return ws.Locate(a.ctx, uri) })
}

// Reindex rescans the open vault in the background.
func (a *App) Reindex() error { return do(a, (*workspace.Workspace).Reindex) }

// ChooseVault asks for a folder and opens it; "" when the user cancelled.
func (a *App) ChooseVault() (string, error) {
	dir, err := runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{Title: "Open a vault"})
	if err != nil || dir == "" {
		return "", err
	}
	if _, err := workspace.InspectFolder(dir); err != nil {
		return "", err // not a vault yet: ChooseFolder offers what to do
	}
	if err := a.open(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// Ask starts a turn and returns at once; the answer streams as agent:*
// events and ends with agent:completed or agent:error.
func (a *App) Ask(req workspace.AskRequest) error {
	return do(a, func(ws *workspace.Workspace) error { return ws.Ask(req) })
}

// CancelTurn stops the conversation's running turn.
func (a *App) CancelTurn(conversationID string) {
	do(a, func(ws *workspace.Workspace) error { ws.CancelTurn(conversationID); return nil })
}

// AnswerPermission answers an agent's permission request with one of its options.
func (a *App) AnswerPermission(conversationID, requestID, optionID string) error {
	return do(a, func(ws *workspace.Workspace) error { return ws.AnswerPermission(conversationID, requestID, optionID) })
}

// Conversation returns a stored conversation (empty when new).
func (a *App) Conversation(id string) (*conversation.Conversation, error) {
	return on(a, func(ws *workspace.Workspace) (*conversation.Conversation, error) { return ws.Conversation(id) })
}

// PreviewPlan shows what a turn with this request could read, before it is sent.
func (a *App) PreviewPlan(req plan.Request) (*plan.Plan, error) {
	return on(a, func(ws *workspace.Workspace) (*plan.Plan, error) { return ws.PreviewPlan(a.ctx, req) })
}

// Complete lists @-mention candidates.
func (a *App) Complete(query string, limit int) ([]index.Completion, error) {
	return on(a, func(ws *workspace.Workspace) ([]index.Completion, error) { return ws.Complete(a.ctx, query, limit) })
}

// SourceExists reports whether a citation URI still opens: its file is in
// the vault. External DOI and arXiv links always "exist".
func (a *App) SourceExists(uri string) bool {
	if u, err := citation.Parse(uri); err == nil && u.External() {
		return true
	}
	ws, err := a.current()
	return err == nil && ws.SourceExists(uri)
}

// OpenExternal opens a link (a card's DOI or arXiv page, a link in an
// answer) in the system browser. It rejects, with code invalid and the
// reason, a link workspace.ExternalURL will not open, and reports a browser
// that could not be started: a link that does not open is never silent.
func (a *App) OpenExternal(link string) error {
	u, err := workspace.ExternalURL(link)
	if err != nil {
		return err
	}
	if err := browser.OpenURL(u); err != nil {
		return fmt.Errorf("the system browser could not be started to open %s: %w", u, err)
	}
	return nil
}

// preferences edits the user's agents and settings: the open workspace
// does it and hands the change to its agents; with no vault open, the
// configuration alone does.
type preferences interface {
	SaveAgent(ctx context.Context, req workspace.SaveAgentRequest) (*agentconf.Agents, error)
	SetDefaultAgent(name string) (*agentconf.Agents, error)
	DeleteAgent(name string) (*agentconf.Agents, error)
	SaveSettings(s settings.Settings) error
}

func (a *App) prefs() preferences {
	if ws, err := a.current(); err == nil {
		return ws
	}
	return a.cfg
}

// Agents lists the configured agents and the default.
func (a *App) Agents() (*agentconf.Agents, error) { return a.cfg.Agents() }

// SaveAgent adds or changes an agent and optionally makes it the default.
// Its command is stored as an absolute path. Unless req.force, it is
// checked first (CancelTestAgent(req.checkId) stops the check): one that
// fails is not saved and the call rejects with code "unverified" and the
// check's message, for a "Save anyway" that sends force.
func (a *App) SaveAgent(req workspace.SaveAgentRequest) error {
	_, err := a.prefs().SaveAgent(a.ctx, req)
	return err
}

// SetDefaultAgent makes a configured agent the default.
func (a *App) SetDefaultAgent(name string) error {
	_, err := a.prefs().SetDefaultAgent(name)
	return err
}

// DeleteAgent removes an agent (never the built-in one).
func (a *App) DeleteAgent(name string) error {
	_, err := a.prefs().DeleteAgent(name)
	return err
}

// AgentPresets lists the agents Settings offers (Claude Code, Gemini CLI,
// Codex, OpenCode, goose), each with whether its command is on PATH.
func (a *App) AgentPresets() []agentconf.Preset { return a.cfg.AgentPresets() }

// TestAgent is Test connection: it starts the agent, runs initialize and
// session/new, stops it and reports what it is and can do. testID names the
// run, for CancelTestAgent.
func (a *App) TestAgent(testID string, ag agentconf.Agent) (*acp.Report, error) {
	return a.cfg.TestAgent(a.ctx, testID, ag, a.log)
}

// CancelTestAgent stops the test (or Save's check) running under testID.
func (a *App) CancelTestAgent(testID string) { a.cfg.CancelTestAgent(testID) }

// WhatAgentSees shows what the agent gets for a conversation ("what the
// agent sees" in the UI). It changes nothing.
func (a *App) WhatAgentSees(conversationID string) (*workspace.AgentView, error) {
	return on(a, func(ws *workspace.Workspace) (*workspace.AgentView, error) {
		return ws.WhatAgentSees(a.ctx, conversationID)
	})
}

// CompactConversation is /compact: the conversation's history compacted
// now for its next session; the result says what was kept.
func (a *App) CompactConversation(conversationID string) (compact.Result, error) {
	return on(a, func(ws *workspace.Workspace) (compact.Result, error) {
		return ws.CompactConversation(a.ctx, conversationID)
	})
}

// ClearConversation is /clear: the next turn starts a new session with an
// empty history; the transcript keeps every turn.
func (a *App) ClearConversation(conversationID string) error {
	return do(a, func(ws *workspace.Workspace) error { return ws.ClearConversation(conversationID) })
}

// SlashCommands lists the commands the chat offers after "/": /compact,
// /clear and those the conversation's agent advertises.
func (a *App) SlashCommands(conversationID string) ([]acp.Command, error) {
	return on(a, func(ws *workspace.Workspace) ([]acp.Command, error) { return ws.SlashCommands(conversationID) })
}

// PaperRelations lists a paper's references, the library papers citing it,
// and related papers (up to limit of each kind), for its side panel.
func (a *App) PaperRelations(ref string, limit int) (*workspace.Relations, error) {
	return on(a, func(ws *workspace.Workspace) (*workspace.Relations, error) { return ws.Relations(a.ctx, ref, limit) })
}

// Settings returns the user's settings (the tools' budget).
func (a *App) Settings() (settings.Settings, error) { return a.cfg.Settings() }

// DefaultSettings returns the settings of a fresh install.
func (a *App) DefaultSettings() settings.Settings { return settings.Defaults() }

// SaveSettings checks and stores the settings; later turns use them.
func (a *App) SaveSettings(s settings.Settings) error { return a.prefs().SaveSettings(s) }

// ListContextDocs lists the open vault's context documents.
func (a *App) ListContextDocs() (*workspace.ContextDocs, error) {
	return on(a, (*workspace.Workspace).ContextDocs)
}

// ContextDocSource returns a document's whole file for the editor.
func (a *App) ContextDocSource(id string) (string, error) {
	return on(a, func(ws *workspace.Workspace) (string, error) { return ws.ContextDocSource(id) })
}

// SaveContextDoc checks and stores a document the user edited; new
// sessions see it (running ones keep their frozen snapshot).
func (a *App) SaveContextDoc(id, content string) error {
	return do(a, func(ws *workspace.Workspace) error { return ws.SaveContextDoc(id, content) })
}

// DeleteContextDoc removes a context document.
func (a *App) DeleteContextDoc(id string) error {
	return do(a, func(ws *workspace.Workspace) error { return ws.DeleteContextDoc(id) })
}

// --- papers in: add PDFs, import Zotero / BibTeX / CSL, arrange a folder ----

// ChooseFolder asks for a folder and opens it when it is a vault. A folder
// that is not one yet (no papers/, no .agentero/) is not opened, so
// nothing is written to it: it comes back with what it holds, for the UI to
// offer arranging its PDFs (PlanArrangement, ApplyArrangement) or opening
// it as it is (OpenFolder). nil when the user cancelled.
func (a *App) ChooseFolder() (*workspace.Folder, error) {
	dir, err := runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{Title: "Open a vault"})
	if err != nil || dir == "" {
		return nil, err
	}
	folder, err := workspace.InspectFolder(dir)
	switch {
	case errors.Is(err, workspace.ErrNotVault):
		return folder, nil
	case err != nil:
		return nil, err
	}
	return folder, a.open(folder.Path)
}

// PendingFolder is the folder the app was asked to open at start (--vault,
// or the last vault) when it is not a vault yet; nil when there is none.
func (a *App) PendingFolder() *workspace.Folder {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pending
}

// OpenFolder opens dir as a vault as it is, once the user said so: an
// empty folder becomes an empty vault (with its papers/ and .agentero/).
func (a *App) OpenFolder(dir string) error {
	if err := workspace.EnsurePapersFolder(dir); err != nil {
		return err
	}
	if err := a.open(dir); err != nil {
		return err
	}
	a.mu.Lock()
	a.pending = nil
	a.mu.Unlock()
	return nil
}

// PlanArrangement previews the moves that would arrange the loose PDFs of
// dir into papers/<slug>/paper.pdf; nothing is written.
func (a *App) PlanArrangement(dir string) ([]intake.Move, error) {
	return workspace.PlanArrangement(a.ctx, dir, workspace.Options{Logger: a.log})
}

// ApplyArrangement performs exactly the previewed moves (copies when copy
// is set) and opens dir as a vault.
func (a *App) ApplyArrangement(dir string, moves []intake.Move, copy bool) (*intake.Report, error) {
	rep, err := workspace.ApplyArrangement(a.ctx, dir, moves, copy)
	if err != nil {
		return nil, err
	}
	return rep, a.OpenFolder(dir)
}

// AddPapers asks for PDFs ("Add papers…") and adds them to the open vault;
// nil when the user cancelled. Progress goes out as intake:progress.
func (a *App) AddPapers() (*intake.Report, error) {
	paths, err := runtime.OpenMultipleFilesDialog(a.ctx, runtime.OpenDialogOptions{Title: "Add papers",
		Filters: []runtime.FileFilter{{DisplayName: "PDF files (*.pdf)", Pattern: "*.pdf;*.PDF"}}})
	if err != nil || len(paths) == 0 {
		return nil, err
	}
	return a.AddPaths(paths)
}

// AddPaths adds PDFs, or the PDFs in folders, to the open vault: what the
// user dropped on the window.
func (a *App) AddPaths(paths []string) (*intake.Report, error) {
	return on(a, func(ws *workspace.Workspace) (*intake.Report, error) { return ws.Add(a.ctx, paths) })
}

// ImportZotero asks for Zotero's data folder and imports it (read only)
// into the open vault; nil when the user cancelled.
func (a *App) ImportZotero() (*intake.Report, error) {
	opts := runtime.OpenDialogOptions{Title: "Import from Zotero: choose Zotero’s data folder (the one holding zotero.sqlite)"}
	if home, err := os.UserHomeDir(); err == nil {
		if st, err := os.Stat(filepath.Join(home, "Zotero")); err == nil && st.IsDir() {
			opts.DefaultDirectory = filepath.Join(home, "Zotero")
		}
	}
	dir, err := runtime.OpenDirectoryDialog(a.ctx, opts)
	if err != nil || dir == "" {
		return nil, err
	}
	return on(a, func(ws *workspace.Workspace) (*intake.Report, error) { return ws.ImportZotero(a.ctx, dir) })
}

// ImportBibliography asks for a BibTeX/BibLaTeX (.bib) or CSL-JSON (.json)
// file and imports it into the open vault; nil when the user cancelled.
func (a *App) ImportBibliography() (*intake.Report, error) {
	file, err := runtime.OpenFileDialog(a.ctx, runtime.OpenDialogOptions{Title: "Import a BibTeX or CSL-JSON file",
		Filters: []runtime.FileFilter{{DisplayName: "BibTeX, BibLaTeX or CSL-JSON (*.bib, *.json)", Pattern: "*.bib;*.json"}}})
	if err != nil || file == "" {
		return nil, err
	}
	return on(a, func(ws *workspace.Workspace) (*intake.Report, error) {
		if filepath.Ext(file) == ".json" {
			return ws.ImportCSL(a.ctx, file)
		}
		return ws.ImportBibTeX(a.ctx, file)
	})
}

// Conversations lists the open vault's conversations, newest first; a
// query keeps those whose title or messages hold every word of it.
func (a *App) Conversations(query string) ([]conversation.Summary, error) {
	return on(a, func(ws *workspace.Workspace) ([]conversation.Summary, error) { return ws.Conversations(query) })
}

// RenameConversation titles a conversation ("" = its first question).
func (a *App) RenameConversation(id, title string) (conversation.Summary, error) {
	return on(a, func(ws *workspace.Workspace) (conversation.Summary, error) { return ws.RenameConversation(id, title) })
}

// DeleteConversation removes a conversation and its transcript from disk.
func (a *App) DeleteConversation(id string) error {
	return do(a, func(ws *workspace.Workspace) error { return ws.DeleteConversation(id) })
}

// Layout returns how the user left the window's panes (sizes, collapsed).
func (a *App) Layout() workspace.Layout { return a.cfg.Layout() }

// SaveLayout remembers the window's panes for the next start.
func (a *App) SaveLayout(l workspace.Layout) error { return a.cfg.SaveLayout(l) }
