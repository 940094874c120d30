package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/settings"
	"github.com/agentero/agentero/backend/userdir"
)

// Config is the user's configuration, which belongs to the user rather than
// to any vault: the agents (agents.json), the settings (settings.json) and
// the vault opened last. It works with no vault open; a Workspace edits it
// through the same methods and hands changes to its agents' host.
type Config struct {
	dir string // holds agents.json, settings.json and last-vault
	exe string // this executable: the built-in agent

	// mu serialises read-modify-write of the files; it is held only for
	// file I/O.
	mu sync.Mutex

	checks *checks // agent checks in progress (Test connection, Save)
}

// NewConfig returns the configuration kept in dir ("" = the user's config
// directory, agentero/ in it), with the built-in agent run from exe ("" =
// this executable).
func NewConfig(dir, exe string) *Config {
	if dir == "" {
		if d, err := os.UserConfigDir(); err == nil {
			dir = filepath.Join(d, "agentero")
		} else {
			dir = filepath.Join(os.TempDir(), fmt.Sprintf("agentero-config-%d", os.Geteuid()))
		}
	}
	if exe == "" {
		exe = executable()
	}
	return &Config{dir: dir, exe: exe, checks: newChecks()}
}

// executable is this program's path, which the built-in agent and the
// agentero-context MCP server are started from.
func executable() string {
	exe, err := os.Executable()
	if err != nil {
		return os.Args[0]
	}
	return exe
}

// Dir is where the configuration is kept.
func (c *Config) Dir() string { return c.dir }

// Executable is the program the built-in agent runs as.
func (c *Config) Executable() string { return c.exe }

// file is the path of one of the configuration's files, once its folder
// is known to be the user's own (userdir.Folder: made private when
// missing, refused when it is a link, another user's, or writable by
// others). The agents file names programs Agentero runs: one planted in a
// shared folder must never be read.
func (c *Config) file(name string) (string, error) {
	dir, err := userdir.Folder(c.dir)
	if err != nil {
		return "", fmt.Errorf("configuration folder: %w", err)
	}
	return filepath.Join(dir, name), nil
}

// Agents reads the configured agents; the built-in one is always there.
func (c *Config) Agents() (*agentconf.Agents, error) {
	p, err := c.file("agents.json")
	if err != nil {
		return nil, notConfigured(err)
	}
	a, err := agentconf.LoadAgents(p, c.exe)
	if err != nil {
		return nil, notConfigured(err)
	}
	return a, nil
}

// FileStamp tells one version of a configuration file from another: its
// size and modification time (zero when the file is missing).
type FileStamp struct {
	Size    int64
	ModTime time.Time
}

// AgentsStamp is the agents file's current stamp, for a workspace to see
// that it changed.
func (c *Config) AgentsStamp() (FileStamp, error) {
	p, err := c.file("agents.json")
	if err != nil {
		return FileStamp{}, err
	}
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return FileStamp{}, nil
	}
	if err != nil {
		return FileStamp{}, err
	}
	return FileStamp{Size: fi.Size(), ModTime: fi.ModTime()}, nil
}

// edit changes the agents under the lock and saves them.
func (c *Config) edit(change func(a *agentconf.Agents) error) (*agentconf.Agents, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, err := c.Agents()
	if err != nil {
		return nil, err
	}
	if err := change(a); err != nil {
		return nil, err
	}
	p, err := c.file("agents.json")
	if err != nil {
		return nil, err
	}
	if err := a.Save(p); err != nil {
		return nil, err
	}
	return a, nil
}

// SaveAgentRequest is the Settings form's Save.
type SaveAgentRequest struct {
	Agent       agentconf.Agent `json:"agent"`
	MakeDefault bool            `json:"makeDefault"`
	// Force saves the agent without its check, or after the check failed:
	// the user saw the warning and chose "Save anyway".
	Force bool `json:"force"`
	// CheckID names the check Save runs, so that CancelTestAgent(CheckID)
	// can stop it; the form's test id will do.
	CheckID string `json:"checkId"`
}

// SaveAgent adds or changes an agent and optionally makes it the default;
// it returns the configuration saved. The command is stored as an absolute
// path (agentconf.Prepare): one not found is refused. Unless req.Force, the agent
// is checked first as Test connection does (see verify), and one that
// fails is not saved: the error is ErrUnverified, with the check's own
// message, and the UI offers "Save anyway".
func (c *Config) SaveAgent(ctx context.Context, req SaveAgentRequest) (*agentconf.Agents, error) {
	ag, err := agentconf.Prepare(req.Agent)
	switch {
	case errors.Is(err, acp.ErrInvalidAgent), errors.Is(err, acp.ErrRelativeCommand):
		return nil, invalid(err)
	case err != nil:
		return nil, err
	}
	if !req.Force {
		if err := c.verify(ctx, req.CheckID, ag); err != nil {
			return nil, err
		}
	}
	return c.edit(func(a *agentconf.Agents) error {
		if err := a.Put(ag); err != nil {
			return invalid(err)
		}
		if req.MakeDefault {
			a.Default = ag.Name
		}
		return nil
	})
}

// AddAgent adds a new agent to agents.json as agentconf.Add does (the
// file's other entries and the fields Agentero does not know are kept),
// under the lock every other change of the file takes. A relative command,
// a command not found and a name that is taken are refused as ErrInvalid.
// Unless force, the agent is checked first as Test connection does
// (verify: CancelTestAgent(checkID) stops it), and one that fails is not
// added (ErrUnverified, with the check's message).
func (c *Config) AddAgent(ctx context.Context, checkID string, ag agentconf.Agent, makeDefault, force bool) error {
	p, err := c.file("agents.json")
	if err != nil {
		return err
	}
	if ag, err = agentconf.PrepareNew(p, ag); err != nil {
		return refusedAgent(err)
	}
	if !force {
		if err := c.verify(ctx, checkID, ag); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := agentconf.Add(p, ag, makeDefault); err != nil {
		return refusedAgent(err)
	}
	return nil
}

// refusedAgent marks the configuration's refusals of an agent (each a
// sentence for the user) ErrInvalid.
func refusedAgent(err error) error {
	for _, kind := range []error{agentconf.ErrInvalidAgent, agentconf.ErrRelativeCommand, agentconf.ErrCommandNotFound, agentconf.ErrDuplicateAgent} {
		if errors.Is(err, kind) {
			return invalid(err)
		}
	}
	return err
}

// SetDefaultAgent makes a configured agent the default.
func (c *Config) SetDefaultAgent(name string) (*agentconf.Agents, error) {
	return c.edit(func(a *agentconf.Agents) error {
		if a.Find(name) == nil {
			return notFound(fmt.Errorf("no agent named %q", name))
		}
		a.Default = name
		return nil
	})
}

// DeleteAgent removes an agent (never the built-in one); the built-in agent
// becomes the default if the removed one was.
func (c *Config) DeleteAgent(name string) (*agentconf.Agents, error) {
	if name == agentconf.BuiltinName {
		return nil, invalid(errors.New("the built-in agent cannot be removed"))
	}
	return c.edit(func(a *agentconf.Agents) error {
		kept := a.List[:0]
		for _, ag := range a.List {
			if ag.Name != name {
				kept = append(kept, ag)
			}
		}
		a.List = kept
		if a.Default == name {
			a.Default = agentconf.BuiltinName
		}
		return nil
	})
}

// AgentPresets lists the agents Settings offers, each with whether its
// command is found on this program's PATH.
func (c *Config) AgentPresets() []agentconf.Preset { return agentconf.Presets(os.Getenv("PATH")) }

// Settings reads the user's settings. A file that cannot be used is an
// error, returned with the defaults, which are then in force.
func (c *Config) Settings() (settings.Settings, error) {
	p, err := c.file("settings.json")
	if err != nil {
		return settings.Defaults(), invalid(err)
	}
	s, err := settings.Load(p)
	if err != nil {
		return s, invalid(err)
	}
	return s, nil
}

// SaveSettings checks and stores the settings.
func (c *Config) SaveSettings(s settings.Settings) error {
	if err := s.Budget.Valid(); err != nil {
		return invalid(err)
	}
	if err := settings.ValidContact(s.ContactEmail); err != nil {
		return invalid(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p, err := c.file("settings.json")
	if err != nil {
		return err
	}
	return settings.Save(p, s)
}

// LastVault is the vault opened last, or "" when there is none or it is
// gone.
func (c *Config) LastVault() string {
	f, err := c.file("last-vault")
	if err != nil {
		return ""
	}
	b, err := os.ReadFile(f)
	if err != nil {
		return ""
	}
	p := strings.TrimSpace(string(b))
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return ""
	}
	return p
}

// RememberVault records root as the vault opened last.
func (c *Config) RememberVault(root string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, err := c.file("last-vault")
	if err != nil {
		return err
	}
	return atomicfile.Write(p, []byte(root+"\n"), atomicfile.Private)
}
