package workspace

// The loopback MCP server (SPEC §9): the whole open vault for the user's
// own MCP clients, on 127.0.0.1, off until switched on in Settings. Its
// settings (on/off, port, token) are the user's, kept 0600 in
// loopback.json of the configuration; the server belongs to the workspace
// of the open vault, so that switching vaults switches what it serves and
// Close stops it before the index closes.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/loopback"
	"github.com/agentero/agentero/backend/mcp"
	"github.com/agentero/agentero/backend/pdf"
)

// LoopbackSettings is loopback.json.
type LoopbackSettings struct {
	Enabled bool   `json:"enabled"`
	Port    int    `json:"port"` // 0: a free port, chosen (and kept) when the server first starts
	Token   string `json:"token"`
}

// LoopbackStatus is what Settings and the status bar show.
type LoopbackStatus struct {
	Enabled bool   `json:"enabled"`
	Running bool   `json:"running"`
	Port    int    `json:"port"`
	URL     string `json:"url"` // the MCP endpoint, while running
	Token   string `json:"token"`
	Vault   string `json:"vault"` // the open vault: the one served while running
	Error   string `json:"error"` // why it is on but not running
	Command string `json:"command"`
}

// Loopback reads the loopback settings; a missing file is "off", and a
// missing token is made and stored.
func (c *Config) Loopback() (LoopbackSettings, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.loopbackLocked()
}

func (c *Config) loopbackLocked() (LoopbackSettings, error) {
	var s LoopbackSettings
	p, err := c.file("loopback.json")
	if err != nil {
		return s, err
	}
	f, err := atomicfile.Open(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return s, fmt.Errorf("read loopback settings: %w", err)
	default:
		data, err := io.ReadAll(io.LimitReader(f, 64<<10))
		f.Close()
		if err != nil {
			return s, fmt.Errorf("read loopback settings: %w", err)
		}
		if err := json.Unmarshal(data, &s); err != nil {
			return LoopbackSettings{}, invalid(fmt.Errorf("loopback settings %s are not valid JSON: %w", p, err))
		}
	}
	if loopback.CheckToken(s.Token) != nil {
		if s.Token, err = loopback.NewToken(); err != nil {
			return s, err
		}
		if err := c.saveLoopbackLocked(s); err != nil {
			return s, err
		}
	}
	return s, nil
}

func (c *Config) saveLoopbackLocked(s LoopbackSettings) error {
	if s.Port < 0 || s.Port > 65535 || (s.Port > 0 && s.Port < 1024) {
		return invalid(fmt.Errorf("port %d: choose a port between 1024 and 65535, or 0 for a free one", s.Port))
	}
	p, err := c.file("loopback.json")
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(p, append(data, '\n'), atomicfile.Private)
}

// SetLoopback switches the server on or off and sets its port (0: a free
// one), keeping the token.
func (c *Config) SetLoopback(enabled bool, port int) (LoopbackSettings, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, err := c.loopbackLocked()
	if err != nil {
		return s, err
	}
	s.Enabled, s.Port = enabled, port
	return s, c.saveLoopbackLocked(s)
}

// RotateLoopbackToken replaces the token: clients holding the old one are
// refused from the next request on (once the server restarts with it).
func (c *Config) RotateLoopbackToken() (LoopbackSettings, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, err := c.loopbackLocked()
	if err != nil {
		return s, err
	}
	if s.Token, err = loopback.NewToken(); err != nil {
		return s, err
	}
	return s, c.saveLoopbackLocked(s)
}

// LoopbackStatus of the configuration alone (no vault open).
func (c *Config) LoopbackStatus() LoopbackStatus {
	s, err := c.Loopback()
	st := LoopbackStatus{Enabled: s.Enabled, Port: s.Port, Token: s.Token, Command: c.exe}
	if err != nil {
		st.Error = err.Error()
	} else if s.Enabled {
		st.Error = "no vault is open"
	}
	return st
}

// loopbackState is the workspace's server, when running.
type loopbackState struct {
	// mu guards the fields below and serialises starting and stopping the
	// server: ApplyLoopback holds it while the server starts or stops (a
	// listen, a shutdown), and takes the Config's and the host's locks
	// under it (to read the settings and the budget), never the other way
	// round.
	mu     sync.Mutex
	closed bool
	srv    *loopback.Server
	token  string
	ex     *pdf.Extractor
	err    error
}

// ApplyLoopback makes the server match the settings: started (on the
// chosen port, or a free one that is then kept), restarted when its port
// or token changed, stopped when switched off. It is what Start, Settings
// and token rotation call. The server reads with the user's reading budget
// as the host has it when the server starts (restartLoopback).
func (w *Workspace) ApplyLoopback() (LoopbackStatus, error) { return w.applyLoopback(false) }

// restartLoopback starts a running server again, after the user's reading
// budget changed; a failure is logged.
func (w *Workspace) restartLoopback() {
	if _, err := w.applyLoopback(true); err != nil {
		w.log.Warn("loopback MCP server", "err", err)
	}
}

func (w *Workspace) applyLoopback(restart bool) (LoopbackStatus, error) {
	l := &w.loop
	l.mu.Lock()
	defer l.mu.Unlock()
	s, err := w.cfg.Loopback()
	if err != nil {
		l.err = err
		return w.loopbackStatusLocked(s), err
	}
	running := l.srv != nil && !l.closed
	same := running && !restart && s.Enabled && l.token == s.Token && (s.Port == 0 || s.Port == l.srv.Port())
	if same {
		l.err = nil
		return w.loopbackStatusLocked(s), nil
	}
	w.stopLoopbackLocked()
	l.err = nil
	if !s.Enabled || l.closed {
		return w.loopbackStatusLocked(s), nil
	}
	l.ex = pdf.NewExtractor(pdf.Options{Workers: 1, Logger: w.log})
	srv := mcp.NewVaultServer(w.Root(), w.lib.DB(), w.log, mcp.Options{Regions: mcp.PDFRegions(l.ex)}, w.host.Budget())
	ls, err := loopback.Start(loopback.Options{Port: s.Port, Token: s.Token, Server: srv.MCP(), Logger: w.log})
	if err != nil {
		l.ex.Close()
		l.ex, l.err = nil, err
		return w.loopbackStatusLocked(s), err
	}
	l.srv, l.token = ls, s.Token
	w.log.Info("loopback MCP server started", "url", ls.URL(), "vault", w.Root())
	if s.Port == 0 {
		// A free port, kept: the clients' configurations name it.
		if _, err := w.cfg.SetLoopback(true, ls.Port()); err != nil {
			w.log.Warn("keep the loopback port", "err", err)
		}
		s.Port = ls.Port()
	}
	return w.loopbackStatusLocked(s), nil
}

// LoopbackStatus says whether the server runs, where, and for which vault.
func (w *Workspace) LoopbackStatus() LoopbackStatus {
	s, err := w.cfg.Loopback()
	w.loop.mu.Lock()
	defer w.loop.mu.Unlock()
	st := w.loopbackStatusLocked(s)
	if err != nil && st.Error == "" {
		st.Error = err.Error()
	}
	return st
}

func (w *Workspace) loopbackStatusLocked(s LoopbackSettings) LoopbackStatus {
	l := &w.loop
	st := LoopbackStatus{Enabled: s.Enabled, Port: s.Port, Token: s.Token, Command: w.cfg.exe, Vault: w.Root()}
	if l.srv != nil {
		st.Running, st.Port, st.URL = true, l.srv.Port(), l.srv.URL()
	}
	if l.err != nil {
		st.Error = l.err.Error()
	}
	return st
}

// stopLoopbackLocked stops the server and waits for it.
func (w *Workspace) stopLoopbackLocked() {
	l := &w.loop
	if l.srv != nil {
		l.srv.Close()
		w.log.Info("loopback MCP server stopped", "port", l.srv.Port())
		l.srv = nil
	}
	if l.ex != nil {
		l.ex.Close()
		l.ex = nil
	}
}

// closeLoopback stops the server for good (Close).
func (w *Workspace) closeLoopback() {
	w.loop.mu.Lock()
	defer w.loop.mu.Unlock()
	w.loop.closed = true
	w.stopLoopbackLocked()
}
