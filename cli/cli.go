// Package cli is Agentero's command line (SPEC §12): one file per verb, each
// a thin adapter over a workspace. Run runs a command in-process, which is
// how main calls it and how tests do.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/agentero/agentero/backend/sandbox"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/workspace"
)

// Usage is the command line's help text.
const Usage = `usage:
  agentero [--vault DIR]                      open the desktop app
  agentero [--trust-vault] 'agentero://open?vault=DIR&ref=papers/ID&page=N&quote=TEXT'
                                              open (or hand to the running app) a paper at a page;
                                              a DIR that is none of your vaults only with --trust-vault
  agentero index DIR [--json]                 index or update a vault
  agentero add DIR FILE|FOLDER... [--init] [--json]    add PDFs as papers (papers/<slug>/), then index (--init: DIR may be a new vault)
  agentero import zotero|bibtex|csl SOURCE DIR [--base-dir PATH] [--json]
                                              import a Zotero data folder, a .bib or a CSL-JSON file
                                              (--base-dir: Zotero's Linked Attachment Base Directory)
  agentero search DIR QUERY [--limit N] [--json]
                                              search the whole vault
  agentero locate DIR URI [--json]            where a citation's quote is on its page (rectangles in PDF points)
  agentero plan DIR --request FILE [--runtime-id ID] [--json]
                                              the context plan of a request
  agentero ask DIR [--agent NAME | --agent-cmd CMD] [--conversation ID] [--request FILE] [--json] QUESTION
                                              one turn with an agent (default: the built-in one)
  agentero check DIR FILE.md [--json]         check the citations of a Markdown file against the vault's pages
  agentero relations DIR REF [--kind references|citedBy|related] [--limit N] [--write-sidecars] [--json]
                                              what a paper cites, who cites it, what is related
  agentero context DIR [--json]               the frozen snapshot a new session would get
  agentero metadata DIR [--online [--again]] [--json]
                                              the papers' metadata; --online looks DOIs up at Crossref, arXiv ids at arXiv
  agentero compact DIR --conversation ID [--window TOKENS] [--json]
                                              what a new session would be handed of a conversation
  agentero mcp DIR [--http 127.0.0.1:PORT --token-file FILE]
                                              the whole-vault MCP server for your MCP clients (stdio, or HTTP)
  agentero --agentero-context-mcp GRANT       the per-turn MCP server (stdio)
  agentero --builtin-agent                    the built-in ACP agent (stdio)
  agentero --agentero-mcp-bridge SOCKET       a confined agent's way to its turn's MCP server (stdio)
  agentero --agentero-confined SPEC -- CMD…   run CMD confined by Landlock to SPEC
  agentero version`

// Env is what a command runs with: its standard streams and the options
// vaults are opened with (Logger, Emit and PoolSize are set by each
// command). The zero Workspace options are the program's own: the user's
// config and cache folders, this executable.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Workspace      workspace.Options
}

// commands are the verbs Run knows, by their first argument.
var commands = map[string]func(ctx context.Context, env Env, args []string) error{
	"index":                  runIndex,
	"add":                    runAdd,
	"import":                 runImport,
	"search":                 runSearch,
	"locate":                 runLocate,
	"plan":                   runPlan,
	"ask":                    runAsk,
	"check":                  runCheck,
	"relations":              runRelations,
	"context":                runContext,
	"compact":                runCompact,
	"mcp":                    runMCP,
	"metadata":               runMetadata,
	"--agentero-context-mcp": runContextMCP,
	"--builtin-agent":        runBuiltinAgent,
	sandbox.BridgeFlag:       runMCPBridge,
	sandbox.ConfinedFlag:     runConfined,
}

// Handles reports whether name is a command Run knows.
func Handles(name string) bool {
	_, ok := commands[name]
	return ok || name == "help" || name == "--help" || name == "-h"
}

// Run runs the command args[0] with the rest of args and returns the exit
// status: 0 on success, 1 on failure (one line on stderr), 2 on bad usage.
func Run(ctx context.Context, args []string, env Env) int {
	if env.Stdin == nil {
		env.Stdin = strings.NewReader("")
	}
	if env.Workspace.Config == nil {
		env.Workspace.Config = workspace.NewConfig("", "")
	}
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, Usage)
		return 2
	}
	name := args[0]
	run, ok := commands[name]
	if !ok {
		if Handles(name) {
			fmt.Fprintln(env.Stdout, Usage)
			return 0
		}
		fmt.Fprintf(env.Stderr, "agentero: unknown command %q\n%s\n", name, Usage)
		return 2
	}
	err := run(ctx, env, args[1:])
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(env.Stderr, "agentero %s: %s\n%s\n", name, ue.msg, Usage)
		return 2
	default:
		fmt.Fprintf(env.Stderr, "agentero %s: %s\n", name, oneLine(err.Error()))
		return 1
	}
}

// usageError is bad command-line usage: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// parseArgs parses flags that may come before, between or after the
// positional arguments, and checks the positional count.
func parseArgs(fs *flag.FlagSet, args []string, positional int) ([]string, error) {
	pos, err := parseVarArgs(fs, args)
	if err != nil {
		return nil, err
	}
	if len(pos) != positional {
		return nil, usageError{fmt.Sprintf("want %d arguments, got %d", positional, len(pos))}
	}
	return pos, nil
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// logger logs a command's warnings and errors to its stderr; its stdout is
// for the result (or the protocol).
func (env Env) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// open opens the vault at dir for one command; emit receives its events
// (nil = none). A command never warms agent sessions: it runs one turn at
// most. The caller closes the workspace.
func (env Env) open(dir string, emit events.Emitter) (*workspace.Workspace, error) {
	opts := env.Workspace
	opts.Logger = env.logger()
	opts.Emit = emit
	opts.PoolSize = -1
	return workspace.Open(dir, opts)
}

// openSynced opens the vault and brings its index up to date, which every
// command that reads the index does first. The caller closes it.
func (env Env) openSynced(ctx context.Context, dir string) (*workspace.Workspace, error) {
	ws, err := env.open(dir, nil)
	if err != nil {
		return nil, err
	}
	if _, err := ws.Sync(ctx); err != nil {
		ws.Close()
		return nil, err
	}
	return ws, nil
}

// readRequest reads a ContextRequest file (plan and ask's --request).
func readRequest(path string) (plan.Request, error) {
	f, err := os.Open(path)
	if err != nil {
		return plan.Request{}, fmt.Errorf("read request: %w", err)
	}
	defer f.Close()
	req, err := workspace.DecodeRequest(f)
	if err != nil {
		return plan.Request{}, fmt.Errorf("request %s: %w", path, err)
	}
	return req, nil
}
