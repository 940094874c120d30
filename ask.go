package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agent"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/events"
)

// runBuiltinAgent runs the built-in ACP agent on stdio.
func runBuiltinAgent(args []string) int {
	if len(args) != 0 {
		fmt.Fprintln(os.Stderr, "usage: agentero --builtin-agent")
		return 2
	}
	return serveStdio("builtin agent", func(ctx context.Context, log *slog.Logger) error {
		return agent.Serve(ctx, os.Stdin, os.Stdout, agent.Options{Logger: log})
	})
}

func runAsk(ctx context.Context, args []string, stdout, stderr io.Writer) error {
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
	req := plan.Request{Surface: plan.SurfaceQuickChat, Selections: []plan.Selection{}, Mentions: []plan.Mention{}}
	if *reqFile != "" {
		data, err := os.ReadFile(*reqFile)
		if err != nil {
			return fmt.Errorf("read request: %w", err)
		}
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			return fmt.Errorf("request %s is not a ContextRequest: %w", *reqFile, err)
		}
	}
	agents, exe, cfgPath, err := configuredAgents()
	if err != nil {
		return err
	}
	if *agentCmd != "" {
		words := strings.Fields(*agentCmd)
		if len(words) == 0 {
			return usageError{"--agent-cmd is empty"}
		}
		ag := acp.Agent{Name: "command-line", Command: words[0], Args: words[1:]}
		agents.List = append(agents.List, ag)
		*agentName = ag.Name
	}
	if *agentName != "" && agents.Find(*agentName) == nil {
		return fmt.Errorf("no agent named %q is configured (%s)", *agentName, cfgPath)
	}
	if *convID == "" {
		*convID = "cli-" + randomHex(6)
	}
	lib, err := syncedLibrary(ctx, pos[0], stderr)
	if err != nil {
		return err
	}
	defer lib.Close()
	log := warnLogger(stderr)
	host := acp.NewHost(lib.Root(), exe, lib.DB(), agents, acp.HostOptions{Logger: log, PoolSize: -1, Budget: userBudget(stderr)})
	defer host.Close()
	stream := func(name string, payload any) {
		switch e := payload.(type) {
		case events.AgentChunkEvent:
			if e.Kind == events.ChunkMessage {
				fmt.Fprint(stderr, e.Text)
			}
		case events.AgentToolEvent:
			if e.Title != "" {
				fmt.Fprintf(stderr, "[tool] %s\n", e.Title)
			}
		case events.AgentStatusEvent:
			if e.Note != "" {
				fmt.Fprintf(stderr, "[session] %s\n", e.Note)
			}
		}
	}
	res, err := host.Turn(ctx, acp.TurnRequest{ConversationID: *convID, Agent: *agentName, Request: req, Question: pos[1]}, stream)
	if err != nil {
		var te *acp.TurnError
		if errors.As(err, &te) && *asJSON {
			printJSON(stdout, map[string]any{"conversationId": *convID, "error": err.Error(), "session": te.Session})
		}
		return err
	}
	fmt.Fprintln(stderr)
	out := struct {
		acp.Completed
		Session acp.SessionInfo `json:"session"`
	}{res.Completed, res.Session}
	if *asJSON {
		return printJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "%s\n", res.Completed.Content)
	fmt.Fprintf(stdout, "conversation %s, session %s (%s)\n", res.Completed.ConversationID, res.Session.ProviderSessionID, res.Session.Action)
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
