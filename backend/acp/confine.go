package acp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/sandbox"
	"github.com/agentero/agentero/backend/subprocess"
	"github.com/agentero/agentero/backend/userdir"
)

// jail is how one agent process runs: how it is confined (report) and to
// what (spec), and where the sockets of its turns' MCP servers are served
// (bridge: a folder inside what it may reach).
type jail struct {
	report sandbox.Report
	spec   sandbox.Spec
	self   string
	bridge string
}

// confined reports whether the agent runs in a sandbox, so that its MCP
// server must run outside and be reached through a bridge.
func (j *jail) confined() bool { return j != nil && j.report.Kind != sandbox.None }

// SandboxReport is how a process runs: its jail's report, or, for the
// built-in agent, why it needs none.
func (p *Process) SandboxReport() sandbox.Report {
	if p.jail != nil {
		return p.jail.report
	}
	return sandbox.Report{Kind: sandbox.None, Why: "the built-in agent is Agentero itself: it reads only through the turn's grant"}
}

// jailFor decides how ag runs (SPEC: every agent but the built-in one is
// confined) and prepares its scratch home and socket folder. The agent may
// read the system, its own installation (command, script and its package
// with node_modules) and this executable (the MCP bridge); it may write its
// configuration folders (per kind of agent, and Agent.Paths), the paths its
// own environment names, its scratch home and the conversations' working
// folders. Nothing inside the vault, and nothing that holds the vault or
// the whole home folder, is ever let in.
func (h *Host) jailFor(ag agentconf.Agent, path string) (*jail, error) {
	if ag.Name == agentconf.BuiltinName {
		return nil, nil
	}
	report := sandbox.Choose(ag.Sandbox)
	j := &jail{report: report, self: h.exe}
	if report.Kind == sandbox.None {
		return j, nil
	}
	cache, err := h.cacheDir()
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(ag.Name))
	id := hex.EncodeToString(sum[:4])
	home, err := userdir.Folder(cache, "agents", id, "home")
	if err != nil {
		return nil, fmt.Errorf("make the agent's scratch home: %w", err)
	}
	if j.bridge, err = userdir.Folder(cache, "agents", id, "mcp"); err != nil {
		return nil, fmt.Errorf("make the agent's MCP folder: %w", err)
	}
	if len(j.bridge) > 90 { // a socket's path must fit sockaddr_un
		if j.bridge, err = os.MkdirTemp("", "agentero-mcp-"); err != nil {
			return nil, err
		}
	}
	sessions, err := userdir.Folder(cache, "sessions")
	if err != nil {
		return nil, err
	}
	tmp := filepath.Join(home, "tmp")
	os.MkdirAll(tmp, 0o700)
	realHome, _ := os.UserHomeDir()

	var read, write []string
	read = append(read, h.exe)
	read = append(read, installPaths(path, ag.Args)...)
	for _, rel := range configPaths(ag, path) {
		if realHome == "" {
			break
		}
		real := filepath.Join(realHome, rel)
		if strings.HasSuffix(rel, ".json") { // a file the agent rewrites by renaming: a copy in the scratch home
			copyNewer(real, filepath.Join(home, rel))
			continue
		}
		if err := os.MkdirAll(real, 0o700); err != nil {
			continue
		}
		link := filepath.Join(home, rel)
		os.MkdirAll(filepath.Dir(link), 0o700)
		if target, err := os.Readlink(link); err != nil || target != real {
			os.RemoveAll(link)
			os.Symlink(real, link)
		}
		write = append(write, real)
	}
	for _, p := range ag.Paths {
		if p = expandHome(strings.TrimSpace(p), realHome); filepath.IsAbs(p) {
			write = append(write, filepath.Clean(p))
		}
	}
	env := confinedEnv(os.Environ(), ag.Env, ag.ShellEnv)
	for k, v := range ag.Env {
		if k == "HOME" || k == "TMPDIR" || !filepath.IsAbs(v) || strings.ContainsRune(v, os.PathListSeparator) {
			continue
		}
		v = filepath.Clean(v)
		if _, err := os.Stat(v); err == nil {
			write = append(write, v)
		} else if _, err := os.Stat(filepath.Dir(v)); err == nil {
			write = append(write, filepath.Dir(v))
		}
	}
	if ag.ShellEnv { // files the shell's variables name, to read
		for _, kv := range env {
			_, v, _ := strings.Cut(kv, "=")
			if filepath.IsAbs(v) && !strings.ContainsRune(v, os.PathListSeparator) {
				if st, err := os.Stat(v); err == nil && st.Mode().IsRegular() {
					read = append(read, filepath.Clean(v))
				}
			}
		}
	}
	env = append(env, "HOME="+home, "TMPDIR="+tmp)
	write = append(write, home, sessions, j.bridge)

	keep := func(paths []string) []string {
		var out []string
		for _, p := range paths {
			switch {
			case p == "" || p == "/":
			case sandbox.Within(p, h.vault) || sandbox.Within(h.vault, p):
				h.log.Warn("kept out of the agent's sandbox: it is or holds the vault", "agent", ag.Name, "path", p)
			case realHome != "" && sandbox.Within(realHome, p):
				h.log.Warn("kept out of the agent's sandbox: it holds the whole home folder", "agent", ag.Name, "path", p)
			default:
				out = append(out, p)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	j.spec = sandbox.Spec{Read: keep(read), Write: keep(write), Dir: sessions, Env: env}
	return j, nil
}

// cacheDir is where per-agent and per-conversation folders go.
func (h *Host) cacheDir() (string, error) {
	if h.opts.CacheDir != "" {
		return h.opts.CacheDir, nil
	}
	return userdir.Cache()
}

// installPaths are what running path with args reads of its own: the
// command and, for it and every argument naming a file, the package it
// belongs to (the folder holding node_modules, or the nearest folder with
// a package.json), else its folder.
func installPaths(path string, args []string) []string {
	var out []string
	for _, p := range append([]string{path}, args...) {
		if !filepath.IsAbs(p) {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			continue
		}
		out = append(out, p)
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		out = append(out, real, packageRoot(real))
	}
	return out
}

func packageRoot(file string) string {
	dir := filepath.Dir(file)
	parts := strings.Split(dir, string(filepath.Separator))
	if i := slices.Index(parts, "node_modules"); i > 0 {
		return strings.Join(parts[:i+1], string(filepath.Separator))
	}
	for d := dir; d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "package.json")); err == nil {
			return d
		}
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			break // a repository's root: no package above it is this one's
		}
	}
	return dir
}

// configPaths are the home-relative configuration (and package cache)
// paths of the kind of agent ag is, by its command and arguments.
func configPaths(ag agentconf.Agent, path string) []string {
	words := strings.ToLower(filepath.Base(path) + " " + strings.Join(ag.Args, " "))
	var out []string
	add := func(key string, paths ...string) {
		if strings.Contains(words, key) {
			out = append(out, paths...)
		}
	}
	add("claude", ".claude", ".claude.json")
	add("gemini", ".gemini")
	add("codex", ".codex")
	add("qwen", ".qwen")
	add("goose", filepath.Join(".config", "goose"))
	add("opencode", filepath.Join(".config", "opencode"), filepath.Join(".local", "share", "opencode"))
	switch filepath.Base(path) {
	case "npx", "npm":
		out = append(out, ".npm")
	case "bunx", "bun":
		out = append(out, ".bun")
	case "uvx", "uv":
		out = append(out, filepath.Join(".cache", "uv"), filepath.Join(".local", "share", "uv"))
	}
	return out
}

// confinedEnv is the environment of a confined agent: what it needs to
// run and reach its provider from the app's (locale, PATH, proxies,
// certificates, provider keys and settings), and its own; no session bus,
// SSH agent, display or XDG folders of the real home. With shell, all of
// the app's but those.
func confinedEnv(app []string, own map[string]string, shell bool) []string {
	session := map[string]bool{"HOME": true, "TMPDIR": true, "PWD": true, "OLDPWD": true, "DBUS_SESSION_BUS_ADDRESS": true,
		"SSH_AUTH_SOCK": true, "SSH_AGENT_PID": true, "GPG_AGENT_INFO": true, "XDG_RUNTIME_DIR": true, "XDG_CONFIG_HOME": true,
		"XDG_DATA_HOME": true, "XDG_CACHE_HOME": true, "XDG_STATE_HOME": true, "DISPLAY": true, "WAYLAND_DISPLAY": true,
		"XAUTHORITY": true, "SESSION_MANAGER": true, "MAIL": true}
	exact := map[string]bool{"PATH": true, "LANG": true, "LANGUAGE": true, "TZ": true, "TERM": true, "COLORTERM": true,
		"NO_COLOR": true, "FORCE_COLOR": true, "USER": true, "LOGNAME": true, "SHELL": true,
		"HTTP_PROXY": true, "HTTPS_PROXY": true, "NO_PROXY": true, "ALL_PROXY": true,
		"http_proxy": true, "https_proxy": true, "no_proxy": true, "all_proxy": true,
		"NODE_EXTRA_CA_CERTS": true, "SSL_CERT_FILE": true, "SSL_CERT_DIR": true, "REQUESTS_CA_BUNDLE": true}
	prefixes := []string{"LC_", "ANTHROPIC_", "CLAUDE_", "OPENAI_", "CODEX_", "GEMINI_", "GOOGLE_", "VERTEX_", "AWS_",
		"AZURE_", "MISTRAL_", "GROQ_", "OPENROUTER_", "XAI_", "DEEPSEEK_", "OLLAMA_", "QWEN_", "DASHSCOPE_"}
	var out []string
	for _, kv := range app {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || own[k] != "" {
			continue
		}
		if shell && !session[k] || exact[k] || strings.HasSuffix(k, "_API_KEY") || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(k, p) }) {
			out = append(out, kv)
		}
	}
	keys := make([]string, 0, len(own))
	for k := range own {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k != "HOME" && k != "TMPDIR" {
			out = append(out, k+"="+own[k])
		}
	}
	return out
}

func expandHome(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	return p
}

// copyNewer copies src to dst when src exists and dst is missing or older.
func copyNewer(src, dst string) {
	s, err := os.Stat(src)
	if err != nil || !s.Mode().IsRegular() {
		return
	}
	if d, err := os.Stat(dst); err == nil && !d.ModTime().Before(s.ModTime()) {
		return
	}
	in, err := os.Open(src)
	if err != nil {
		return
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return
	}
	io.Copy(out, in)
	out.Close()
}

// bridges serve the MCP servers of confined agents' turns: one Unix socket
// per session (runtime id), in the agent's MCP folder; each connection is
// one agentero-context server, run by the host outside the sandbox with
// the connection as its stdin and stdout.
type bridges struct {
	// mu guards byID and closed. Under it a bridge's mu may be taken;
	// socket holds it while it makes a session's socket (a listen).
	mu     sync.Mutex
	byID   map[string]*bridge
	closed bool
	wg     sync.WaitGroup // the accept loops and the servers' waiters
}

type bridge struct {
	ln   *net.UnixListener
	path string
	// mu guards grant and cmds. serveBridge holds it while it starts a
	// server, so that close sees every server started; nothing waits on a
	// server under it.
	mu    sync.Mutex
	grant string      // the grant file the next connection serves
	cmds  []*exec.Cmd // the servers started, to end at close
}

// socket returns the socket a confined agent's bridge connects to for the
// session runtimeID, serving grantPath; made on first use.
func (h *Host) socket(j *jail, runtimeID, grantPath string) (string, error) {
	b := &h.bridges
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return "", ErrClosed
	}
	if b.byID == nil {
		b.byID = map[string]*bridge{}
	}
	if br := b.byID[runtimeID]; br != nil && filepath.Dir(br.path) == j.bridge {
		br.mu.Lock()
		br.grant = grantPath
		br.mu.Unlock()
		return br.path, nil
	}
	// Named after the session, so that a session continued after a restart
	// is handed the same server (a socket left by an app that crashed is
	// replaced).
	sum := sha256.Sum256([]byte(runtimeID))
	path := filepath.Join(j.bridge, hex.EncodeToString(sum[:6])+".sock")
	os.Remove(path)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return "", fmt.Errorf("serve the turn's MCP server to the sandboxed agent: %w", err)
	}
	os.Chmod(path, 0o600)
	br := &bridge{ln: ln, path: path, grant: grantPath}
	b.byID[runtimeID] = br
	b.wg.Add(1)
	go h.serveBridge(br)
	return path, nil
}

func (h *Host) serveBridge(br *bridge) {
	defer h.bridges.wg.Done()
	for {
		conn, err := br.ln.AcceptUnix()
		if err != nil {
			return
		}
		f, err := conn.File()
		conn.Close()
		if err != nil {
			continue
		}
		br.mu.Lock()
		cmd := exec.Command(h.exe, "--agentero-context-mcp", br.grant)
		cmd.Stdin, cmd.Stdout = f, f
		cmd.Stderr = logWriter{h: h}
		err = subprocess.Start(cmd)
		f.Close()
		if err == nil {
			br.cmds = append(br.cmds, cmd)
			h.bridges.wg.Add(1)
			go func() {
				defer h.bridges.wg.Done()
				cmd.Wait()
			}()
		}
		br.mu.Unlock()
		if err != nil {
			h.log.Warn("start the MCP server of a sandboxed agent", "err", err)
		}
	}
}

// close stops serving and waits for what it started. The servers end with
// their connections once the agents holding them have exited (the host
// stops its agents first); one still running after exitGrace is killed.
func (b *bridges) close() {
	b.mu.Lock()
	b.closed = true
	all := b.byID
	b.byID = nil
	b.mu.Unlock()
	var cmds []*exec.Cmd
	for _, br := range all {
		br.ln.Close()
		os.Remove(br.path)
		br.mu.Lock()
		cmds = append(cmds, br.cmds...)
		br.mu.Unlock()
	}
	done := make(chan struct{})
	go func() {
		b.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(exitGrace):
		for _, cmd := range cmds {
			cmd.Process.Kill()
		}
		<-done
	}
}

// logWriter logs what an MCP server writes to stderr.
type logWriter struct{ h *Host }

func (w logWriter) Write(b []byte) (int, error) {
	w.h.log.Debug("agentero-context", "stderr", strings.TrimSpace(string(b)))
	return len(b), nil
}
