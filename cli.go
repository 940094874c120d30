package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/library"
	"github.com/agentero/agentero/backend/mcp"
	"github.com/agentero/agentero/backend/settings"
)

// usageError is bad command-line usage: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

const usage = `usage:
  agentero [--vault DIR]                      open the desktop app
  agentero index DIR [--json]                 index or update a vault
  agentero search DIR QUERY [--limit N] [--json]
                                              search the whole vault
  agentero plan DIR --request FILE [--runtime-id ID] [--json]
                                              the context plan of a request
  agentero ask DIR [--agent NAME | --agent-cmd CMD] [--conversation ID] [--request FILE] [--json] QUESTION
                                              one turn with an agent (default: the built-in one)
  agentero relations DIR REF [--kind references|citedBy|related] [--limit N] [--write-sidecars] [--json]
                                              what a paper cites, who cites it, what is related
  agentero context DIR [--json]               the frozen snapshot a new session would get
  agentero compact DIR --conversation ID [--window TOKENS] [--json]
                                              what a new session would be handed of a conversation
  agentero --agentero-context-mcp GRANT       the per-turn MCP server (stdio)
  agentero --builtin-agent                    the built-in ACP agent (stdio)
  agentero version`

// commands are the SPEC §12 command-line verbs.
var commands = map[string]func(ctx context.Context, args []string, stdout, stderr io.Writer) error{
	"index":     runIndex,
	"search":    runSearch,
	"plan":      runPlan,
	"ask":       runAsk,
	"compact":   runCompact,
	"context":   runContext,
	"relations": runRelations,
}

// runCommand runs a command-line verb and returns the process exit status.
func runCommand(name string, args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := commands[name](ctx, args, stdout, stderr)
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "agentero %s: %s\n%s\n", name, ue.msg, usage)
		return 2
	default:
		fmt.Fprintf(stderr, "agentero %s: %s\n", name, oneLine(err.Error()))
		return 1
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// parseArgs parses flags that may come before, between or after the
// positional arguments, and checks the positional count.
func parseArgs(fs *flag.FlagSet, args []string, positional int) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
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

// warnLogger logs warnings and errors of a command to w (its stderr).
func warnLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

func openLibrary(dir string, stderr io.Writer, emit events.Emitter) (*library.Library, error) {
	return library.Open(dir, library.Options{Logger: warnLogger(stderr), Emit: emit})
}

// syncedLibrary opens the vault and brings its index up to date, which every
// command that reads the index does first. The caller closes it.
func syncedLibrary(ctx context.Context, dir string, stderr io.Writer) (*library.Library, error) {
	lib, err := openLibrary(dir, stderr, nil)
	if err != nil {
		return nil, err
	}
	if _, err := lib.Sync(ctx); err != nil {
		lib.Close()
		return nil, err
	}
	return lib, nil
}

// configuredAgents loads the user's agents, with the built-in one pointing
// at this executable.
func configuredAgents() (agents *acp.Agents, exe, path string, err error) {
	if exe, err = os.Executable(); err != nil {
		return nil, "", "", err
	}
	if path, err = acp.AgentsPath(); err != nil {
		return nil, "", "", err
	}
	agents, err = acp.LoadAgents(path, exe)
	return agents, exe, path, err
}

func runIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("index", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	progress := func(name string, payload any) {
		if p, ok := payload.(index.Progress); ok && p.Total > 0 && !*asJSON {
			fmt.Fprintf(stderr, "\rindexing %d/%d %-60.60s", p.Done, p.Total, p.Current)
			if p.Done == p.Total {
				fmt.Fprintln(stderr)
			}
		}
	}
	lib, err := openLibrary(pos[0], stderr, progress)
	if err != nil {
		return err
	}
	defer lib.Close()
	st, err := lib.Sync(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(stdout, st)
	}
	fmt.Fprintf(stdout, "%d papers, %d pages (%d read now, %d removed) in %.1f s\n", st.Papers, st.Pages, st.Extracted, st.Removed, st.Seconds)
	for _, ref := range st.NoTextPapers {
		fmt.Fprintf(stdout, "no text layer: %s\n", ref)
	}
	for _, e := range st.Errors {
		fmt.Fprintf(stdout, "error: %s: %s\n", e.Ref, e.Error)
	}
	return nil
}

func runSearch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	limit := fs.Int("limit", 10, "number of hits")
	pos, err := parseArgs(fs, args, 2)
	if err != nil {
		return err
	}
	if *limit < 1 || *limit > 200 {
		return usageError{"--limit must be between 1 and 200"}
	}
	lib, err := syncedLibrary(ctx, pos[0], stderr)
	if err != nil {
		return err
	}
	defer lib.Close()
	res, err := lib.DB().Search(ctx, index.Query{Text: pos[1], Scope: index.Scope{AllPapers: true}, Limit: *limit})
	if err != nil {
		return err
	}
	hits := res.Hits
	if *asJSON {
		for i := range hits {
			hits[i].Snippet = strings.NewReplacer(index.MarkStart, "", index.MarkEnd, "").Replace(hits[i].Snippet)
		}
		return printJSON(stdout, map[string]any{"hits": hits})
	}
	if len(hits) == 0 {
		fmt.Fprintln(stdout, "no matches")
	}
	for _, h := range hits {
		snip := strings.NewReplacer(index.MarkStart, "*", index.MarkEnd, "*").Replace(h.Snippet)
		fmt.Fprintf(stdout, "%s  (%s)\n  %s\n\n", h.Title, h.CitationURI, snip)
	}
	return nil
}

// runContextMCP runs the per-turn agentero-context MCP server on stdio. Its
// stdout belongs to the protocol; logs go to stderr.
func runContextMCP(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: agentero --agentero-context-mcp GRANT")
		return 2
	}
	return serveStdio("agentero-context", func(ctx context.Context, log *slog.Logger) error {
		return mcp.Serve(ctx, args[0], os.Stdin, os.Stdout, log)
	})
}

// serveStdio runs a protocol mode whose stdout belongs to the protocol:
// logs and the one-line error go to stderr; the exit status is returned.
func serveStdio(name string, serve func(ctx context.Context, log *slog.Logger) error) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := serve(ctx, warnLogger(os.Stderr)); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %s\n", name, oneLine(err.Error()))
		return 1
	}
	return 0
}

func runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	reqFile := fs.String("request", "", "ContextRequest JSON file")
	runtimeID := fs.String("runtime-id", "", "write the grant for this runtime id")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	if *reqFile == "" {
		return usageError{"--request FILE is required"}
	}
	if *runtimeID != "" && !grant.ValidRuntimeID(*runtimeID) {
		return usageError{"--runtime-id may hold only letters, digits, '.', '_' and '-'"}
	}
	data, err := os.ReadFile(*reqFile)
	if err != nil {
		return fmt.Errorf("read request: %w", err)
	}
	var req plan.Request
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return fmt.Errorf("request %s is not a ContextRequest: %w", *reqFile, err)
	}
	lib, err := syncedLibrary(ctx, pos[0], stderr)
	if err != nil {
		return err
	}
	defer lib.Close()
	r := plan.Resolver{Vault: lib.Root(), Papers: lib.DB(), Budget: userBudget(stderr)}
	p, err := r.Resolve(ctx, req)
	if err != nil {
		return err
	}
	out := struct {
		*plan.Plan
		Prompt    string `json:"prompt"`
		GrantPath string `json:"grantPath,omitempty"`
	}{Plan: p, Prompt: p.Render()}
	if *runtimeID != "" && p.Mode == grant.ModeMCP {
		if out.GrantPath, err = grant.Write(p.Grant(lib.Root(), *runtimeID, time.Now())); err != nil {
			return err
		}
	}
	if *asJSON {
		return printJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "mode %s, fingerprint %s\n", p.Mode, p.Fingerprint)
	for _, s := range p.Allowed {
		fmt.Fprintf(stdout, "may read %s %s\n", s.Kind, s.Ref)
	}
	for _, r := range p.Refused {
		fmt.Fprintf(stdout, "refused %s %s: %s\n", r.Kind, r.Path, r.Reason)
	}
	if out.GrantPath != "" {
		fmt.Fprintf(stdout, "grant written to %s\n", out.GrantPath)
	}
	fmt.Fprintf(stdout, "\n%s", out.Prompt)
	return nil
}

// userBudget is the tools' budget from the user's settings; a broken
// settings file is reported and the defaults are used.
func userBudget(stderr io.Writer) grant.Budget {
	p, err := settings.Path()
	if err != nil {
		return grant.DefaultBudget()
	}
	s, err := settings.Load(p)
	if err != nil {
		fmt.Fprintf(stderr, "warning: %s; using the default budget\n", oneLine(err.Error()))
	}
	return s.Budget
}
