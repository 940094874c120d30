package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/acp"
	"github.com/agentero/agentero/backend/agentconf"
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/events"
	"github.com/google/go-cmp/cmp"
)

// styled is the peer agent behaving like a real agent (PEER_STYLE), with
// more of its options.
func styled(t *testing.T, style string, env map[string]string) (agentconf.Agent, string) {
	t.Helper()
	ag, rec := peer(t, style, "", "")
	ag.Env["PEER_STYLE"] = style
	ag.Env["PEER_QUERY"] = "proof-of-work chain"
	for k, v := range env {
		ag.Env[k] = v
	}
	return ag, rec
}

// sink keeps a turn's events; a test may act on each as it arrives (in the
// turn's flusher, as the UI would in its own thread).
type sink struct {
	mu     sync.Mutex
	events []any
	on     func(any)
}

func (s *sink) emit(_ string, payload any) {
	s.mu.Lock()
	s.events = append(s.events, payload)
	on := s.on
	s.mu.Unlock()
	if on != nil {
		on(payload)
	}
}

func (s *sink) permissions() []events.AgentPermissionEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []events.AgentPermissionEvent
	for _, e := range s.events {
		if p, ok := e.(events.AgentPermissionEvent); ok {
			out = append(out, p)
		}
	}
	return out
}

// peerLog is what the peer logged of one kind: its permission outcomes,
// tool results and the citations its answer carries.
type outcomeLog struct {
	Tool    string `json:"tool"`
	Outcome struct {
		Outcome  string `json:"outcome"`
		OptionID string `json:"optionId"`
	} `json:"outcome"`
}

func peerLogged[T any](t *testing.T, rec, method string) []T {
	t.Helper()
	var out []T
	for _, r := range records(t, rec) {
		if r.Method == method {
			var v T
			if err := json.Unmarshal(r.Params, &v); err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
	}
	return out
}

// citeKey is a citation's file and page, what sources are compared by.
func citeKey(uri string) string {
	u, err := citation.Parse(uri)
	if err != nil {
		return "not a citation: " + uri
	}
	return citation.New(u.Path, u.Page, "").String() + u.URL
}

func keys(uris []string) []string {
	var out []string
	for _, u := range uris {
		out = append(out, citeKey(u))
	}
	return out
}

// usage reads the citations the MCP server logged for a conversation's
// current runtime id, without repeats.
func usage(t *testing.T, root string, h *acp.Host, conv string) []string {
	t.Helper()
	c, err := h.Store().Load(conv)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, ".agentero", "context-sessions", c.RuntimeID, "usage.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var u struct {
			CitationURI string `json:"citationUri"`
		}
		if err := json.Unmarshal([]byte(line), &u); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(out, u.CitationURI) {
			out = append(out, u.CitationURI)
		}
	}
	return out
}

// TestContextToolsAllowedWithoutAsking runs agents that ask before every MCP
// call, each in its own format: the calls of the turn's own context tools
// are allowed by the policy (with the "always" option) without reaching
// the user, the calls succeed, and the answer's sources are what it cites
// (a link, or a quoted passage), the rest of what the tools returned being
// consulted. The conversation stores all of it with the answer. Gemini
// CLI's requests name the tool only in an option's label and the call's
// id, which the policy does not take for a name: the user allows them.
func TestContextToolsAllowedWithoutAsking(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf", "peercoin.pdf")
	tests := []struct {
		style   string
		asked   []string // the tools the agent asks permission for, in order
		option  string   // the option chosen for each
		resumed string   // how a restarted app continues the session
	}{
		{"claude", []string{"context_search", "context_read"}, "allow_always", "resume"},
		{"gemini", []string{"context_search"}, "proceed_always_server", "load"}, // the user's "always" for the server: it asks no more
	}
	for _, tt := range tests {
		t.Run(tt.style, func(t *testing.T) {
			ag, rec := styled(t, tt.style, map[string]string{"PEER_CAPS": "resume,load"})
			h := newHost(t, root, db, ag)
			var s sink
			user := tt.style == "gemini" // who allows: the policy, or the user
			if user {
				s.on = func(p any) {
					if ev, ok := p.(events.AgentPermissionEvent); ok && ev.Outcome == "" {
						go h.AnswerPermission(tt.style, ev.RequestID, tt.option)
					}
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r, err := h.Turn(ctx, acp.TurnRequest{ConversationID: tt.style, Agent: tt.style, Request: sidebar, Question: "How is the chain secured?"}, s.emit)
			if err != nil {
				t.Fatal(err)
			}

			var asked []string
			for _, o := range peerLogged[outcomeLog](t, rec, "permission-outcome") {
				asked = append(asked, o.Tool)
				if o.Outcome.Outcome != "selected" || o.Outcome.OptionID != tt.option {
					t.Errorf("%s: the agent got %+v, want option %s", o.Tool, o.Outcome, tt.option)
				}
			}
			if diff := cmp.Diff(tt.asked, asked); diff != "" {
				t.Errorf("permission requests the agent made (-want +got):\n%s", diff)
			}
			for _, p := range r.Permissions {
				if p.Auto == user {
					t.Errorf("decided by the policy: %v, want %v: %+v", p.Auto, !user, p)
				}
			}
			if len(r.Permissions) != len(tt.asked) {
				t.Errorf("result permissions = %+v, want %d", r.Permissions, len(tt.asked))
			}
			type result struct {
				Tool    string `json:"tool"`
				IsError bool   `json:"isError"`
				Text    string `json:"text"`
			}
			results := peerLogged[result](t, rec, "tool-result")
			if len(results) != 2 {
				t.Fatalf("tool results %+v, want search and read", results)
			}
			for _, res := range results {
				if res.IsError {
					t.Errorf("%s failed: %s", res.Tool, res.Text)
				}
			}

			// Sources: what the answer cites; consulted: the rest.
			type cites struct{ Linked, Quoted string }
			cs := peerLogged[cites](t, rec, "answer-cites")
			if len(cs) != 1 || cs[0].Linked == "" || cs[0].Quoted == "" {
				t.Fatalf("the answer cites %+v: the search found too little to test", cs)
			}
			got := keys(r.Completed.Sources)
			for _, want := range []string{cs[0].Linked, cs[0].Quoted} {
				if !slices.Contains(got, citeKey(want)) {
					t.Errorf("sources %v lack %s, which the answer cites", r.Completed.Sources, want)
				}
			}
			returned := usage(t, root, h, tt.style)
			if len(r.Completed.Consulted) == 0 {
				t.Errorf("nothing consulted: the tools returned %v, the answer cites %v", returned, r.Completed.Sources)
			}
			for _, c := range r.Completed.Consulted {
				if slices.Contains(got, citeKey(c)) {
					t.Errorf("%s is both a source and consulted", c)
				}
			}
			for _, u := range returned {
				if !slices.Contains(got, citeKey(u)) && !slices.Contains(keys(r.Completed.Consulted), citeKey(u)) {
					t.Errorf("%s, which a tool returned, is neither a source nor consulted", u)
				}
			}

			// The transcript says who decided; the stored answer keeps it all.
			tr, _ := h.Store().Transcript(tt.style)
			var decisions []string
			for _, e := range tr {
				if e.Kind == "permission" {
					d, _ := e.Data.(map[string]any)
					decisions = append(decisions, d["by"].(string)+":"+d["verdict"].(string))
				}
			}
			by := map[bool]string{false: "policy", true: "user"}[user]
			if want := slices.Repeat([]string{by + ":allowed"}, len(tt.asked)); !slices.Equal(decisions, want) {
				t.Errorf("transcript decisions %v, want %v", decisions, want)
			}
			conv, _ := h.Store().Load(tt.style)
			answer := conv.Messages[len(conv.Messages)-1]
			if diff := cmp.Diff(r.Completed.Sources, answer.Sources); diff != "" {
				t.Errorf("stored sources differ from the event's (-event +stored):\n%s", diff)
			}
			if diff := cmp.Diff(r.Completed.Consulted, answer.Consulted); diff != "" {
				t.Errorf("stored consulted differ from the event's (-event +stored):\n%s", diff)
			}
			if diff := cmp.Diff(r.Permissions, answer.Permissions); diff != "" {
				t.Errorf("stored permissions differ from the result's (-result +stored):\n%s", diff)
			}
			var tools []string
			for _, tc := range answer.Tools {
				tools = append(tools, tc.Status)
				if tc.Title == "" || tc.ToolCallID == "" || len(tc.Content) == 0 {
					t.Errorf("stored tool call lacks its title, id or content: %+v", tc)
				}
			}
			if !slices.Equal(tools, []string{"completed", "completed"}) {
				t.Errorf("stored tool calls end %v, want both completed", tools)
			}

			// A restarted app continues the session as the agent allows,
			// and its context tools are still allowed.
			if user {
				return // the agent keeps the user's "always" in its process, which the restart ended
			}
			h.Close()
			h = newHost(t, root, db, ag)
			r2 := ask(t, h, tt.style, tt.style, sidebar, "And the timestamps?")
			if r2.Session.Action != tt.resumed || len(r2.Completed.Sources) == 0 {
				t.Errorf("second turn: %s with sources %v, want %s with sources", r2.Session.Action, r2.Completed.Sources, tt.resumed)
			}
		})
	}
}

// TestPermissionWaitsForTheUser runs an agent that asks to edit a file of
// the vault: the request reaches the UI marked as inside the vault with
// the agent's options, the turn waits (its clock stopped) until the user
// answers, and the agent receives exactly what was chosen, or cancelled
// when the user cancels the turn.
func TestPermissionWaitsForTheUser(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	tests := []struct {
		name    string
		answer  string // the option chosen; "" cancels the turn
		wait    time.Duration
		outcome string // as the agent sees it
		verdict string
	}{
		{"allow", "allow", 0, "selected:allow", "allowed"},
		{"reject", "reject", 0, "selected:reject", "rejected"},
		{"cancel", "", 0, "cancelled:", "cancelled"},
		// The user takes longer than the agent's own time: the turn waits.
		{"slow user", "allow", 12 * time.Second, "selected:allow", "allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ag, rec := styled(t, "claude", map[string]string{"PEER_EDIT": "1", "PEER_VAULT": root})
			cfg := &agentconf.Agents{Default: "claude", List: []agentconf.Agent{agentconf.Builtin(binary), ag}}
			timeout := 20 * time.Second
			if tt.wait > 0 {
				// Shorter than the user's wait, long enough for the agent to
				// start and read on a machine loaded by -race runs.
				timeout = 10 * time.Second
			}
			h := acp.NewHost(root, binary, db, cfg, acp.HostOptions{CacheDir: t.TempDir(), TurnTimeout: timeout, PoolSize: -1})
			defer h.Close()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			conv := strings.ReplaceAll(tt.name, " ", "-")

			var s sink
			asked := make(chan events.AgentPermissionEvent, 1)
			s.on = func(p any) {
				if ev, ok := p.(events.AgentPermissionEvent); ok && ev.Outcome == "" {
					asked <- ev
				}
			}
			type turnResult struct {
				r   *acp.Result
				err error
			}
			done := make(chan turnResult, 1)
			go func() {
				r, err := h.Turn(ctx, acp.TurnRequest{ConversationID: conv, Agent: "claude", Request: sidebar, Question: "Note this down"}, s.emit)
				done <- turnResult{r, err}
			}()
			var ev events.AgentPermissionEvent
			select {
			case ev = <-asked:
			case res := <-done:
				t.Fatalf("the turn ended without asking: %+v %v", res.r, res.err)
			}

			// The card: the agent's title, kind, options; the file in the vault.
			notes := filepath.Join(root, "notes", "ideas.md")
			if ev.Kind != "edit" || !strings.Contains(ev.Title, "ideas.md") || !ev.InVault || ev.ConversationID != conv || ev.RequestID == "" {
				t.Errorf("waiting request = %+v, want an edit of notes/ideas.md marked in the vault", ev)
			}
			wantLoc := events.ToolLocation{Path: notes, Line: 1, InVault: true, CitationURI: "notes/ideas.md"}
			if len(ev.Locations) == 0 || ev.Locations[0] != wantLoc {
				t.Errorf("locations = %+v, want %+v first", ev.Locations, wantLoc)
			}
			var opts []string
			for _, o := range ev.Options {
				opts = append(opts, o.ID+"/"+o.Kind)
			}
			if want := []string{"allow_always/allow_always", "allow/allow_once", "reject/reject_once"}; !slices.Equal(opts, want) {
				t.Errorf("options = %v, want %v", opts, want)
			}
			if !strings.Contains(ev.Input, "old_string") {
				t.Errorf("input = %q, want the agent's raw input", ev.Input)
			}

			// Wrong answers are refused and change nothing.
			for _, bad := range []struct {
				conv, id, option, code string
				is                     error
			}{
				{conv, "p-unknown", "allow", events.CodeNotFound, acp.ErrNoPermission},
				{"elsewhere", ev.RequestID, "allow", events.CodeNotFound, acp.ErrNoPermission},
				{conv, ev.RequestID, "delete_everything", events.CodeInvalid, acp.ErrBadOption},
				{conv, ev.RequestID, "", events.CodeInvalid, acp.ErrBadOption},
			} {
				err := h.AnswerPermission(bad.conv, bad.id, bad.option)
				if !errors.Is(err, bad.is) || acp.ErrorCode(err) != bad.code {
					t.Errorf("AnswerPermission(%q, %q, %q) = %v (code %q), want %v (%s)", bad.conv, bad.id, bad.option, err, acp.ErrorCode(err), bad.is, bad.code)
				}
			}

			time.Sleep(tt.wait) // the user thinks it over; the agent's clock must not run meanwhile
			if tt.answer == "" {
				cancel()
			} else if err := h.AnswerPermission(conv, ev.RequestID, tt.answer); err != nil {
				t.Fatal(err)
			}
			res := <-done
			if res.err != nil {
				t.Fatalf("turn: %v", res.err)
			}
			if tt.answer != "" {
				if err := h.AnswerPermission(conv, ev.RequestID, tt.answer); !errors.Is(err, acp.ErrNoPermission) {
					t.Errorf("answering twice = %v, want ErrNoPermission", err)
				}
			}

			// The agent got what was chosen.
			waitFor(t, func() bool {
				for _, o := range peerLogged[outcomeLog](t, rec, "permission-outcome") {
					if o.Tool == "edit" {
						return o.Outcome.Outcome+":"+o.Outcome.OptionID == tt.outcome
					}
				}
				return false
			})
			if tt.answer == "" && res.r.Completed.StopReason != "cancelled" {
				t.Errorf("stop reason %q, want cancelled", res.r.Completed.StopReason)
			}
			if tt.answer != "" && !strings.Contains(res.r.Completed.Content, "edit outcome: "+tt.answer) {
				t.Errorf("answer %q does not report the outcome %s", res.r.Completed.Content, tt.answer)
			}

			// The decision went to the UI, the result, the transcript and the
			// stored answer.
			var decided []events.AgentPermissionEvent
			for _, p := range s.permissions() {
				if p.RequestID == ev.RequestID && p.Outcome != "" {
					decided = append(decided, p)
				}
			}
			if len(decided) != 1 || decided[0].Auto || acp.Verdict(decided[0]) != tt.verdict || decided[0].OptionID != tt.answer {
				t.Fatalf("decided events %+v, want one %s by the user", decided, tt.verdict)
			}
			if !slices.ContainsFunc(res.r.Permissions, func(p events.AgentPermissionEvent) bool {
				return p.RequestID == ev.RequestID && acp.Verdict(p) == tt.verdict
			}) {
				t.Errorf("result permissions %+v lack the decision", res.r.Permissions)
			}
			tr, _ := h.Store().Transcript(conv)
			found := false
			for _, e := range tr {
				if d, ok := e.Data.(map[string]any); ok && e.Kind == "permission" && d["requestId"] == ev.RequestID {
					found = d["by"] == "user" && d["verdict"] == tt.verdict && d["inVault"] == true
				}
			}
			if !found {
				t.Errorf("the transcript does not record the user's decision")
			}
			stored, _ := h.Store().Load(conv)
			last := stored.Messages[len(stored.Messages)-1]
			if !slices.ContainsFunc(last.Permissions, func(p events.AgentPermissionEvent) bool {
				return p.RequestID == ev.RequestID && acp.Verdict(p) == tt.verdict
			}) {
				t.Errorf("the stored answer's permissions %+v lack the decision", last.Permissions)
			}
			var edit *events.AgentToolEvent
			for i := range last.Tools {
				if last.Tools[i].Kind == "edit" {
					edit = &last.Tools[i]
				}
			}
			wantStatus := map[string]string{"allowed": "completed", "rejected": "failed", "cancelled": ""}[tt.verdict]
			if edit == nil || wantStatus != "" && edit.Status != wantStatus || len(edit.Locations) == 0 || edit.Locations[0].CitationURI != "notes/ideas.md" {
				t.Errorf("stored edit tool call = %+v, want status %q and its location in the vault", edit, wantStatus)
			}
			if edit != nil && (len(edit.Content) == 0 || edit.Content[0].Type != "diff" || edit.Content[0].Path != notes) {
				t.Errorf("stored edit content = %+v, want its diff", edit.Content)
			}
		})
	}
}

// TestUnattendedTurnRejects is the command line's turn: no one can answer,
// so only the context tools are allowed and the edit is rejected at once.
// Gemini CLI's requests do not name the tool (only an option's label and
// the call's id do): they are rejected too.
func TestUnattendedTurnRejects(t *testing.T) {
	root, db := vaultWith(t, "bitcoin.pdf")
	for _, style := range []string{"claude", "gemini"} {
		t.Run(style, func(t *testing.T) {
			ag, rec := styled(t, style, map[string]string{"PEER_EDIT": "1", "PEER_VAULT": root})
			h := newHost(t, root, db, ag)
			var s sink
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r, err := h.Turn(ctx, acp.TurnRequest{ConversationID: "u", Agent: style, Request: sidebar, Question: "Note this down", Unattended: true}, s.emit)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range r.Permissions {
				got = append(got, p.Kind+":"+acp.Verdict(p))
				if !p.Auto {
					t.Errorf("%s was not decided by the policy", p.Title)
				}
			}
			want := map[string][]string{"claude": {"other:allowed", "other:allowed", "edit:rejected"}, "gemini": {"other:rejected", "edit:rejected"}}[style]
			if !slices.Equal(got, want) {
				t.Errorf("decisions %v, want %v", got, want)
			}
			for _, p := range s.permissions() {
				if p.Outcome == "" {
					t.Errorf("an unattended turn waited: %+v", p)
				}
			}
			outs := peerLogged[outcomeLog](t, rec, "permission-outcome")
			if n := len(outs); n == 0 || outs[n-1].Tool != "edit" || !strings.HasPrefix(outs[n-1].Outcome.OptionID, map[string]string{"claude": "reject", "gemini": "cancel"}[style]) {
				t.Errorf("the agent's outcomes %+v, want the edit rejected", outs)
			}
			if (len(r.Completed.Sources) == 0) != (style == "gemini") {
				t.Errorf("sources %v: want some exactly when the context tools were allowed", r.Completed.Sources)
			}
		})
	}
}
