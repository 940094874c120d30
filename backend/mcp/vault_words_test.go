package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/mcp"
	"github.com/agentero/agentero/backend/refs"
)

// inProcess connects a client to srv in this process.
func inProcess(t *testing.T, srv *mcp.Server) *session {
	t.Helper()
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close(); srv.Close() })
	return &session{t: t, cs: cs, stderr: &bytes.Buffer{}}
}

// TestBudgetWords: a result cut by the budget names the budget that cut
// it: this request's on the whole-vault server, this turn's on
// agentero-context, with the same small budget. A search that finds
// nothing speaks of the vault there, of the turn's grant here.
func TestBudgetWords(t *testing.T) {
	needVault(t)
	db, err := index.Open(index.Path(vaultDir), index.Options{ReadOnly: true, Schemas: []index.Schema{refs.Schema()}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	b := grant.DefaultBudget()
	b.TurnChars, b.SearchCards = 3000, 50

	servers := []struct {
		name, read, search, want, not string
		none                          string             // the note of a search nothing matches
		server                        func() *mcp.Server // a new one for each call: a turn's budget is spent by one
	}{
		{"whole vault", "read", "search", "this request's budget", "turn", "nothing in the vault matches",
			func() *mcp.Server { return mcp.NewVaultServer(vaultDir, db, log, mcp.Options{}, b) }},
		{"agentero-context", "context_read", "context_search", "this turn's budget", "request", "nothing granted to this turn matches",
			func() *mcp.Server {
				g := usual()
				g.Budget = b
				return mcp.NewServer(&g, db, log, mcp.Options{})
			}},
	}
	for _, c := range servers {
		t.Run(c.name, func(t *testing.T) {
			var full textT
			inProcess(t, c.server()).ok(c.read, map[string]any{"ref": raft, "mode": "full"}, &full)
			if !full.Truncated || full.NextCursor == "" || !strings.Contains(full.Note, c.want) || strings.Contains(full.Note, c.not) {
				t.Errorf("full read cut by the budget: truncated %v, cursor %q, note %q; want a note naming %s", full.Truncated, full.NextCursor, full.Note, c.want)
			}
			var found struct {
				Cards      []json.RawMessage
				NextCursor string
				Note       string
			}
			inProcess(t, c.server()).ok(c.search, map[string]any{"query": "leader election log", "limit": 50}, &found)
			if len(found.Cards) == 0 || found.NextCursor == "" || !strings.Contains(found.Note, c.want) || strings.Contains(found.Note, c.not) {
				t.Errorf("search cut by the budget: %d cards, cursor %q, note %q; want a note naming %s", len(found.Cards), found.NextCursor, found.Note, c.want)
			}
			var none struct{ Note string }
			inProcess(t, c.server()).ok(c.search, map[string]any{"query": "zqxjkvw"}, &none)
			if none.Note != c.none {
				t.Errorf("search matching nothing: note %q, want %q", none.Note, c.none)
			}
		})
	}
}

// TestVaultNotFound: on the whole-vault server everything is granted, so a
// path that is not there is said to be not in the vault; agentero-context
// still says a granted path is gone. Paths out of the vault stay refused.
func TestVaultNotFound(t *testing.T) {
	s := startVault(t)
	for _, ref := range []string{"papers/x", "notes/nope/deeper.md", paxos + "/gone.md"} {
		want := ref + ": not found in the vault"
		for _, tool := range []string{"read", "relations"} {
			if got := s.fails(tool, map[string]any{"ref": ref}); !strings.HasPrefix(got, want) || strings.Contains(got, "granted") {
				t.Errorf("%s %q: %q, want %q", tool, ref, got, want)
			}
		}
	}
	for _, ref := range []string{"../x", ".agentero/nope", "notes/.hidden-nope"} {
		if got := s.fails("read", map[string]any{"ref": ref}); got != mcp.ErrVaultRefused.Error() {
			t.Errorf("read %q: %q, want the uniform refusal", ref, got)
		}
	}
	turn := start(t, usual())
	if got := turn.fails("context_read", map[string]any{"ref": "notes/consensus/gone.md"}); !strings.Contains(got, "notes/consensus/gone.md is granted but does not exist") {
		t.Errorf("agentero-context, a granted path gone: %q", got)
	}
}
