package workspace_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/context/plan"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/agentero/agentero/internal/corpustest"
)

// papersVault is a vault of one corpus paper and a note, indexed.
func papersVault(t *testing.T, f func(root string) *fixture) *fixture {
	t.Helper()
	root := corpustest.Vault(t, "bitcoin.pdf")
	os.MkdirAll(filepath.Join(root, "notes"), 0o755)
	os.WriteFile(filepath.Join(root, "notes", "ideas.md"), []byte("Proof-of-stake could replace proof-of-work.\n"), 0o644)
	fx := f(root)
	if _, err := fx.ws.Sync(background()); err != nil {
		t.Fatal(err)
	}
	return fx
}

// An agent's request beyond its context tools reaches the UI and waits;
// the UI answers it through AnswerPermission (or by cancelling the turn),
// and the reopened conversation shows the turn as it streamed: its tool
// calls, its permission decisions, its sources and what else it consulted.
func TestAnswerPermission(t *testing.T) {
	tests := []struct {
		name    string
		answer  string // "" cancels the turn
		verdict string
	}{
		{"allow", "allow", "allowed"},
		{"reject", "reject", "rejected"},
		{"cancel", "", "cancelled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ag, rec := peer(t, "claude", "")
			ag.Env["PEER_STYLE"], ag.Env["PEER_EDIT"], ag.Env["PEER_READ"], ag.Env["PEER_QUERY"] = "claude", "1", "1", "proof-of-work chain"
			f := papersVault(t, func(root string) *fixture {
				ag.Env["PEER_VAULT"] = root // confined, the agent cannot read its grant to learn where the vault is
				return open(t, root, workspace.Options{PoolSize: -1}, ag)
			})
			q := workspace.AskRequest{ConversationID: "c1", Request: plan.Request{Surface: "sidebar", CurrentPaper: "papers/bitcoin"}, Question: "Note this"}
			if err := f.ws.Ask(q); err != nil {
				t.Fatal(err)
			}
			var asked events.AgentPermissionEvent
			f.rec.wait(t, "a permission request waits", func() bool {
				for _, e := range f.rec.all(events.AgentPermission) {
					if p, _ := as[events.AgentPermissionEvent](e); p.Outcome == "" {
						asked = p
						return true
					}
				}
				return false
			})
			if asked.Kind != "edit" || !asked.InVault || asked.Auto {
				t.Errorf("waiting request %+v, want the edit, marked in the vault", asked)
			}
			for _, bad := range []struct{ conv, id, option, code string }{
				{"c1", "p-nope", "allow", events.CodeNotFound},
				{"c2", asked.RequestID, "allow", events.CodeNotFound},
				{"../c1", asked.RequestID, "allow", events.CodeInvalid},
				{"c1", asked.RequestID, "allow_everything", events.CodeInvalid},
			} {
				if err := f.ws.AnswerPermission(bad.conv, bad.id, bad.option); workspace.Code(err) != bad.code {
					t.Errorf("AnswerPermission(%q, %q, %q) = %v (code %q), want code %q", bad.conv, bad.id, bad.option, err, workspace.Code(err), bad.code)
				}
			}
			// The user answers once the card is on screen, with what the agent
			// did before it (the connection may hand the request over before
			// the notifications sent ahead of it, and a cancelled turn drops
			// what has not arrived).
			f.rec.wait(t, "the Read before the request", func() bool {
				for _, e := range f.rec.all(events.AgentTool) {
					if tc, _ := as[events.AgentToolEvent](e); tc.Kind == "read" {
						return true
					}
				}
				return false
			})
			if tt.answer == "" {
				f.ws.CancelTurn("c1")
			} else if err := f.ws.AnswerPermission("c1", asked.RequestID, tt.answer); err != nil {
				t.Fatal(err)
			}
			f.rec.wait(t, "the turn ends", func() bool { return f.rec.count(events.AgentCompleted) > 0 })
			done, _ := as[events.AgentCompletedEvent](f.rec.last(events.AgentCompleted))
			received(t, rec, "permission-outcome")

			conv, err := f.ws.Conversation("c1")
			if err != nil {
				t.Fatal(err)
			}
			answer := conv.Messages[len(conv.Messages)-1]
			var verdicts []string
			for _, p := range answer.Permissions {
				verdicts = append(verdicts, p.Kind+":"+acp.Verdict(p))
			}
			if want := []string{"other:allowed", "other:allowed", "edit:" + tt.verdict}; !slices.Equal(verdicts, want) {
				t.Errorf("stored permissions %v, want %v", verdicts, want)
			}
			var kinds []string
			for _, tc := range answer.Tools {
				kinds = append(kinds, tc.Kind)
			}
			if want := []string{"other", "other", "read", "edit"}; !slices.Equal(kinds, want) {
				t.Errorf("stored tool calls of kinds %v, want %v", kinds, want)
			}
			if len(answer.Tools) == 4 {
				read := answer.Tools[2]
				if len(read.Locations) != 1 || !read.Locations[0].InVault || !strings.HasPrefix(read.Locations[0].CitationURI, "papers/bitcoin/bitcoin.pdf#page=") {
					t.Errorf("the Read of the PDF has locations %+v, want the page in the vault", read.Locations)
				}
			}
			if tt.answer == "" {
				if done.StopReason != "cancelled" {
					t.Errorf("stop reason %q, want cancelled", done.StopReason)
				}
			} else if !slices.Equal(done.Sources, answer.Sources) || !slices.Equal(done.Consulted, answer.Consulted) || len(done.Sources) == 0 {
				t.Errorf("completed sources %v consulted %v; stored %v and %v", done.Sources, done.Consulted, answer.Sources, answer.Consulted)
			}

			// What the UI reads back (App.Conversation, through JSON).
			raw, _ := json.Marshal(conv)
			for _, field := range []string{`"tools":`, `"permissions":`, `"inVault":true`, `"citationUri":"notes/ideas.md"`} {
				if !strings.Contains(string(raw), field) {
					t.Errorf("the stored conversation lacks %s", field)
				}
			}
			if err := f.ws.Close(); err != nil {
				t.Fatal(err)
			}
			f.nothingRuns(t)
		})
	}
}

// A failed turn keeps its error code when the conversation is reopened, so
// that it is titled the same.
func TestReopenedFailureKeepsCode(t *testing.T) {
	ag, _ := peer(t, "peer", "exit-mid-turn")
	f := open(t, t.TempDir(), workspace.Options{PoolSize: -1}, ag)
	if err := f.ws.Ask(workspace.AskRequest{ConversationID: "c1", Request: workspace.QuickChat(), Question: "Crash?"}); err != nil {
		t.Fatal(err)
	}
	f.rec.wait(t, "agent:error", func() bool { return f.rec.count(events.AgentError) > 0 })
	sent, _ := as[events.AgentErrorEvent](f.rec.last(events.AgentError))
	conv, err := f.ws.Conversation("c1")
	if err != nil {
		t.Fatal(err)
	}
	last := conv.Messages[len(conv.Messages)-1]
	if sent.Code != events.CodeCrashed || last.ErrorCode != sent.Code || last.Error != sent.Error {
		t.Errorf("stored error %q (%q), sent %q (%q); want the crash's code kept", last.Error, last.ErrorCode, sent.Error, sent.Code)
	}
}
