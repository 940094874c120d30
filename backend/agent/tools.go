package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tools is the agent's connection to the agentero-context MCP server.
type tools struct {
	session *mcp.ClientSession
}

// connect starts the agentero-context server named in servers.
func connect(ctx context.Context, servers []sdk.McpServer) (*tools, error) {
	for _, s := range servers {
		if s.Stdio == nil || s.Stdio.Name != "agentero-context" {
			continue
		}
		cmd := exec.Command(s.Stdio.Command, s.Stdio.Args...)
		for _, e := range s.Stdio.Env {
			cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
		}
		client := mcp.NewClient(&mcp.Implementation{Name: "agentero-builtin-agent", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			return nil, fmt.Errorf("connect to agentero-context: %w", err)
		}
		return &tools{session: cs}, nil
	}
	return nil, errNoContext
}

func (t *tools) close() { t.session.Close() }

// errTool is a tool's own refusal or error (isError), as opposed to a
// broken connection.
type errTool struct{ msg string }

func (e errTool) Error() string { return e.msg }

// call runs a tool and decodes its JSON text result into out. It returns
// the characters of the result, what the server charges to the turn's
// budget.
func (t *tools) call(ctx context.Context, name string, args map[string]any, out any) (int, error) {
	res, err := t.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return 0, err
	}
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.IsError {
		return 0, errTool{text}
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		return 0, fmt.Errorf("%s returned something that is not JSON: %w", name, err)
	}
	return utf8.RuneCountInString(text), nil
}

func isToolError(err error) bool {
	var te errTool
	return errors.As(err, &te)
}
