// Package agentconf is the user's agent configuration (agents.json in the
// user's config folder): how to start each ACP agent, which one is the
// default, the presets Settings offers, and how an agent's command is
// found. Package acp starts and confines the agents it describes.
package agentconf

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// BuiltinName is the name of the agent shipped in Agentero's own binary.
const BuiltinName = "builtin"

// Agent is how to start one ACP agent.
type Agent struct {
	Name    string            `json:"name"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
	// ContextWindow is the agent's context window in tokens, which
	// compaction fits the handed-over history into; 0 = DefaultContextWindow.
	ContextWindow int `json:"contextWindow,omitempty"`
	// Sandbox is how the agent is confined: "" or "auto" (bubblewrap, else
	// Landlock, else none, said so), "bubblewrap", "landlock", or "off".
	Sandbox string `json:"sandbox,omitempty"`
	// Paths are more files and folders the confined agent may read and
	// write (its configuration, when Agentero does not know where it is).
	Paths []string `json:"paths,omitempty"`
	// ShellEnv gives a confined agent the app's whole environment but for
	// what reaches the user's session (bus, SSH agent, display, XDG
	// folders): an agent started from a shell (ask --agent-cmd) is
	// configured by it. Files its values name are readable. Never stored.
	ShellEnv bool `json:"-"`
	// WriteDocs lets the agent write the vault's context documents: its
	// turns' grants offer context_write_doc, each call still approved by
	// the user. Off by default: a grant only reads.
	WriteDocs bool `json:"writeDocs,omitempty"`
	// Local says the user knows the agent's model runs on this computer.
	// Every other agent but the built-in one is taken as remote (its model
	// is a cloud service), and sensitive context documents are never
	// preloaded into its sessions.
	Local bool `json:"local,omitempty"`
}

// Remote reports whether what the agent is sent may leave this computer:
// true for every agent but the built-in one, unless the user marked it
// local.
func (ag Agent) Remote() bool { return ag.Name != BuiltinName && !ag.Local }

// Writes reports whether the agent's grants offer the write tool: never
// the built-in agent's.
func (ag Agent) Writes() bool { return ag.Name != BuiltinName && ag.WriteDocs }

// Label names the agent in messages: its name, or its command's when it
// has none yet (a form being tested).
func (ag Agent) Label() string {
	if name := strings.TrimSpace(ag.Name); name != "" {
		return strconv.Quote(name)
	}
	if c := strings.TrimSpace(ag.Command); c != "" {
		return strconv.Quote(filepath.Base(c))
	}
	return "the agent"
}

// Builtin is the built-in agent: this executable with --builtin-agent.
func Builtin(exe string) Agent {
	return Agent{Name: BuiltinName, Command: exe, Args: []string{"--builtin-agent"}, ContextWindow: 32_000}
}

// Agents is the user's agent configuration, kept in the user's config
// directory (not in any vault: agents belong to the user, not the papers).
type Agents struct {
	Default string  `json:"default"`
	List    []Agent `json:"agents"`
}

// AgentsPath is where the configuration lives.
func AgentsPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "agentero", "agents.json"), nil
}

// LoadAgents reads the configuration at path; a missing file gives the
// built-in agent alone, as the default. The built-in agent is always there
// and always points at exe.
func LoadAgents(path, exe string) (*Agents, error) {
	a := &Agents{Default: BuiltinName}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("read agents: %w", err)
	default:
		if err := json.Unmarshal(data, a); err != nil {
			return nil, fmt.Errorf("agents file %s is not valid JSON: %w", path, err)
		}
	}
	list := []Agent{Builtin(exe)}
	for _, ag := range a.List {
		if ag.Name != BuiltinName {
			list = append(list, ag)
		}
	}
	a.List = list
	if a.Default == "" || a.Find(a.Default) == nil {
		a.Default = BuiltinName
	}
	return a, nil
}

// Save writes the configuration (without the built-in agent, which is
// implied) atomically, keeping what the file holds that Agents does not
// know (keepUnknown): a field the user wrote by hand outlives an edit.
func (a *Agents) Save(path string) error {
	out := Agents{Default: a.Default, List: []Agent{}}
	for _, ag := range a.List {
		if ag.Name != BuiltinName {
			out.List = append(out.List, ag)
		}
	}
	sort.Slice(out.List, func(i, j int) bool { return out.List[i].Name < out.List[j].Name })
	f, err := keepUnknown(path, out)
	if err != nil {
		return err
	}
	return f.write(path)
}

// Find returns the agent of that name, or nil.
func (a *Agents) Find(name string) *Agent {
	for i := range a.List {
		if a.List[i].Name == name {
			return &a.List[i]
		}
	}
	return nil
}

// Put adds or replaces an agent after checking it.
func (a *Agents) Put(ag Agent) error {
	ag.Name = strings.TrimSpace(ag.Name)
	if err := ag.Valid(); err != nil {
		return err
	}
	if ag.Args == nil {
		ag.Args = []string{}
	}
	for i := range a.List {
		if a.List[i].Name == ag.Name {
			a.List[i] = ag
			return nil
		}
	}
	a.List = append(a.List, ag)
	return nil
}

// Prepare checks an agent the user is about to save and returns it as it
// is to be stored: its name trimmed, its args never nil, and its command
// resolved to an absolute path (ResolveCommand), so that it never depends
// on the folder it starts in or a PATH that changes later. A name missing
// or taken by the built-in agent is ErrInvalidAgent; a command that is not
// found or relative fails as ResolveCommand says.
func Prepare(ag Agent) (Agent, error) {
	ag.Name = strings.TrimSpace(ag.Name)
	if err := ag.Valid(); err != nil {
		return Agent{}, err
	}
	path, err := ResolveCommand(ag.Command, ag.Env)
	if err != nil {
		return Agent{}, err
	}
	ag.Command = path
	if ag.Args == nil {
		ag.Args = []string{}
	}
	return ag, nil
}

// Valid checks what every saved agent needs; the name is trimmed already.
func (ag Agent) Valid() error {
	switch {
	case ag.Name == "":
		return fail("an agent needs a name", ErrInvalidAgent)
	case ag.Name == BuiltinName:
		return fail("the built-in agent cannot be changed", ErrInvalidAgent)
	case strings.TrimSpace(ag.Command) == "":
		return fail("an agent needs a command", ErrInvalidAgent)
	}
	return nil
}

// SameLaunch reports whether two agents start the same program the same
// way: command, arguments and environment (names and context windows
// aside).
func SameLaunch(a, b Agent) bool {
	return a.Command == b.Command && slices.Equal(a.Args, b.Args) && maps.Equal(a.Env, b.Env)
}
