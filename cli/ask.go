package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/workspace"
)

// runAsk is `agentero ask DIR [--agent NAME | --agent-cmd CMD]
// [--conversation ID] [--request FILE] [--json] QUESTION`: one turn, its
// answer streamed to stderr, its agent:completed payload, session and
// permission decisions printed. No one is there to answer the agent's
// permission requests: only the turn's context tools are allowed.
func runAsk(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("ask", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	agentName := fs.String("agent", "", "configured agent to ask (default: the configured default)")
	agentCmd := fs.String("agent-cmd", "", "command line of an ACP agent to ask instead of a configured one")
	convID := fs.String("conversation", "", "continue this conversation (default: a new one)")
	reqFile := fs.String("request", "", "ContextRequest JSON file (default: Quick Chat with nothing pointed at)")
	pos, err := parseArgs(fs, args, 2)
	if err != nil {
		return err
	}
	if *agentName != "" && *agentCmd != "" {
		return usageError{"give --agent or --agent-cmd, not both"}
	}
	var agentCommand []string
	if *agentCmd != "" {
		if agentCommand = strings.Fields(*agentCmd); len(agentCommand) == 0 {
			return usageError{"--agent-cmd is empty"}
		}
	}
	q := workspace.AskRequest{ConversationID: *convID, Agent: *agentName, Request: workspace.QuickChat(), Question: pos[1]}
	if *reqFile != "" {
		if q.Request, err = readRequest(*reqFile); err != nil {
			return err
		}
	}
	if q.ConversationID == "" {
		q.ConversationID = "cli-" + randomHex(6)
	}
	ws, err := env.open(pos[0], nil)
	if err != nil {
		return err
	}
	defer ws.Close()
	if agentCommand != nil {
		// A relative path is the user's, from the shell's folder: the agent
		// itself starts elsewhere, so it is made absolute here.
		command := agentCommand[0]
		if strings.ContainsRune(command, filepath.Separator) && !filepath.IsAbs(command) {
			if command, err = filepath.Abs(command); err != nil {
				return err
			}
		}
		// Started from the shell, it is configured by the shell's
		// environment (confined, it still gets nothing of the session).
		ag := agentconf.Agent{Name: "command-line", Command: command, Args: agentCommand[1:], ShellEnv: true}
		ws.AddAgent(ag)
		q.Agent = ag.Name
	}
	if q.Agent != "" && ws.Agent(q.Agent) == nil {
		return fmt.Errorf("no agent named %q is configured (%s)", q.Agent, filepath.Join(env.Workspace.Config.Dir(), "agents.json"))
	}
	if _, err := ws.Sync(ctx); err != nil {
		return err
	}
	res, err := ws.Turn(ctx, q, streamTo(env.Stderr))
	if err != nil {
		var te *acp.TurnError
		if errors.As(err, &te) && *asJSON {
			printJSON(env.Stdout, map[string]any{"conversationId": q.ConversationID, "error": err.Error(), "session": te.Session})
		}
		return err
	}
	fmt.Fprintln(env.Stderr)
	fmt.Fprintf(env.Stderr, "[sandbox] %s: %s\n", res.Completed.Sandbox, res.Completed.SandboxWhy)
	out := struct {
		acp.Completed
		Session     acp.SessionInfo `json:"session"`
		Permissions []permission    `json:"permissions"`
	}{res.Completed, res.Session, permissions(res.Permissions)}
	if *asJSON {
		return printJSON(env.Stdout, out)
	}
	fmt.Fprintf(env.Stdout, "%s\n", res.Completed.Content)
	for _, p := range out.Permissions {
		fmt.Fprintf(env.Stdout, "permission %s (%s): %s\n", p.Title, p.Kind, p.Outcome)
	}
	fmt.Fprintf(env.Stdout, "conversation %s, session %s (%s)\n", res.Completed.ConversationID, res.Session.ProviderSessionID, res.Session.Action)
	return nil
}

// permission is one permission request of the turn as `ask` reports it
// (SPEC §12): the agent's title and kind, and the outcome: allowed (one of
// the turn's context tools), rejected (anything else), or cancelled (the
// agent offered no option to reject it, or the turn ended first).
type permission struct {
	Title   string `json:"title"`
	Kind    string `json:"kind"`
	Outcome string `json:"outcome"`
}

func permissions(evs []events.AgentPermissionEvent) []permission {
	out := make([]permission, 0, len(evs))
	for _, ev := range evs {
		out = append(out, permission{Title: ev.Title, Kind: ev.Kind, Outcome: acp.Verdict(ev)})
	}
	return out
}

// streamTo writes a turn's answer, tool calls and session notes to w as
// they arrive.
func streamTo(w io.Writer) events.Emitter {
	return func(name string, p any) {
		switch name {
		case events.AgentChunk:
			if e, ok := p.(events.AgentChunkEvent); ok && e.Kind == events.ChunkMessage {
				fmt.Fprint(w, e.Text)
			}
		case events.AgentTool:
			if e, ok := p.(events.AgentToolEvent); ok && e.Title != "" {
				fmt.Fprintf(w, "[tool] %s\n", e.Title)
			}
		case events.AgentPermission:
			if e, ok := p.(events.AgentPermissionEvent); ok && e.Outcome != "" {
				fmt.Fprintf(w, "[permission] %s: %s\n", e.Title, acp.Verdict(e))
			}
		case events.AgentStatus:
			if e, ok := p.(events.AgentStatusEvent); ok && e.Note != "" {
				fmt.Fprintf(w, "[session] %s\n", e.Note)
			}
		}
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
