package agentconf

import (
	"path/filepath"
	"slices"
	"strings"
)

// Preset is a known ACP agent that Settings offers to add: how to start it,
// install it and log in to it, and whether its command is on PATH.
type Preset struct {
	ID      string   `json:"id"`      // stable: claude, gemini, codex, opencode, goose
	Name    string   `json:"name"`    // the name the form fills in
	Command string   `json:"command"` // as one would type it; Save stores Path
	Args    []string `json:"args"`
	Install string   `json:"install"` // one line: how to install it
	Login   string   `json:"login"`   // one line: how to log in
	Website string   `json:"website"`
	// Path is the absolute path Command resolves to on PATH; "" when it is
	// not found (Found is false).
	Path  string `json:"path"`
	Found bool   `json:"found"`

	// marks are words in an agent's command or arguments that tell it is
	// this one (the login hint of an agent saved from the preset, or typed
	// in by hand, comes from here).
	marks []string
}

// presets are the agents Settings offers, with their commands as their
// projects document them (checked in the ACP registry and the projects'
// own docs). The npm adapters run through npx -y, which fetches them on
// first use; the install line says how to install them for good.
var presets = []Preset{
	{
		ID: "claude", Name: "Claude Code", Command: "npx", Args: []string{"-y", "@agentclientprotocol/claude-agent-acp"},
		Install: "Needs Node.js 18 or later: npx fetches Claude's ACP adapter on first use (npm install -g @agentclientprotocol/claude-agent-acp installs it for good, as the command claude-agent-acp).",
		Login:   "Run claude in a terminal and log in with /login (npm install -g @anthropic-ai/claude-code installs it), or set ANTHROPIC_API_KEY in the agent's env.",
		Website: "https://github.com/agentclientprotocol/claude-agent-acp",
		marks:   []string{"claude-agent-acp", "claude-code-acp"},
	},
	{
		ID: "gemini", Name: "Gemini CLI", Command: "gemini", Args: []string{"--acp"},
		Install: "npm install -g @google/gemini-cli (version 0.33 or later; older versions take --experimental-acp instead of --acp).",
		Login:   "Run gemini in a terminal and choose Login with Google, or set GEMINI_API_KEY in the agent's env.",
		Website: "https://github.com/google-gemini/gemini-cli",
		marks:   []string{"gemini"},
	},
	{
		ID: "codex", Name: "Codex", Command: "npx", Args: []string{"-y", "@agentclientprotocol/codex-acp"},
		Install: "Needs Node.js 18 or later: npx fetches Codex's ACP adapter on first use (npm install -g @agentclientprotocol/codex-acp installs it for good, as the command codex-acp).",
		Login:   "Run codex login in a terminal to sign in with ChatGPT (npm install -g @openai/codex installs it), or set OPENAI_API_KEY in the agent's env.",
		Website: "https://github.com/agentclientprotocol/codex-acp",
		marks:   []string{"codex-acp", "codex"},
	},
	{
		ID: "opencode", Name: "OpenCode", Command: "opencode", Args: []string{"acp"},
		Install: "curl -fsSL https://opencode.ai/install | bash, or npm install -g opencode-ai (see opencode.ai/docs).",
		Login:   "Run opencode auth login in a terminal and choose a provider.",
		Website: "https://opencode.ai",
		marks:   []string{"opencode"},
	},
	{
		ID: "goose", Name: "goose", Command: "goose", Args: []string{"acp"},
		Install: "curl -fsSL https://github.com/block/goose/releases/download/stable/download_cli.sh | bash (see block.github.io/goose).",
		Login:   "Run goose configure in a terminal and choose a provider and its key.",
		Website: "https://block.github.io/goose",
		marks:   []string{"goose"},
	},
}

// Presets lists the agents Settings offers, each with whether its command
// is found on the PATH list path (the user's PATH) and where.
func Presets(path string) []Preset {
	out := make([]Preset, len(presets))
	for i, p := range presets {
		p.Args = slices.Clone(p.Args)
		p.Path = LookPath(p.Command, path)
		p.Found = p.Path != ""
		out[i] = p
	}
	return out
}

// PresetOf is the preset ag was made from, or looks like: one of its marks
// is in the name of its command or of an argument. Nil when none.
func PresetOf(ag Agent) *Preset {
	words := []string{filepath.Base(ag.Command)}
	for _, a := range ag.Args {
		words = append(words, filepath.Base(a))
	}
	for i := range presets {
		for _, m := range presets[i].marks {
			for _, w := range words {
				if strings.Contains(w, m) {
					return &presets[i]
				}
			}
		}
	}
	return nil
}
