package acp

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/events"
	sdk "github.com/coder/acp-go-sdk"
)

// ContextServer is the name of the per-turn MCP server in mcpServers.
const ContextServer = "agentero-context"

// Who decided a permission request, as the transcript says.
const (
	byPolicy = "policy" // Agentero's rule: the turn's own context tools, or no one to ask
	byUser   = "user"   // the user chose an option, or cancelled the turn
)

// Errors of AnswerPermission.
var (
	// ErrNoPermission means no request of that id waits in that
	// conversation: it was answered already, or its turn ended.
	ErrNoPermission = errors.New("no permission request of that id is waiting: it was answered, or its turn ended")
	// ErrBadOption means the agent did not offer that option.
	ErrBadOption = errors.New("the agent did not offer that option")
)

// contextTool reports which of the turn's agentero-context tools (granted)
// a permission request is for, "" when it is for anything else.
//
// Agents name an MCP tool in their own ways, and the request must name our
// server as well as one of our tools: a tool of the same name on another
// server is not ours. A name matches only when it is one of the forms
// below as a whole (case aside), so a name that merely contains ours does
// not:
//
//   - mcp__agentero-context__<tool>: Claude Code's adapter (the title, or
//     _meta.claudeCode.toolName);
//   - agentero-context__<tool>, agentero-context/<tool>, .<tool>, :<tool>,
//     _<tool> and "Tool: agentero-context/<tool>": other agents' qualified
//     names;
//   - "<tool> (agentero-context MCP Server)": Gemini CLI's display name;
//   - Gemini CLI's permission request, whose title is only the call's
//     arguments: its options name the server ("Always Allow
//     agentero-context") and the tool ("Always Allow <tool>"), or its tool
//     call id is "<tool>-<digits>".
func contextTool(req sdk.RequestPermissionRequest, known toolState, granted []string) string {
	if len(granted) == 0 {
		return ""
	}
	names := []string{known.ev.Title}
	if req.ToolCall.Title != nil {
		names = append(names, *req.ToolCall.Title)
	}
	names = append(names, metaToolName(req.Meta), metaToolName(req.ToolCall.Meta))
	for _, tool := range granted {
		for _, form := range qualifiedForms(tool) {
			for _, n := range names {
				if n != "" && strings.EqualFold(strings.TrimSpace(n), form) {
					return tool
				}
			}
		}
	}
	// Gemini CLI: the server is named by an "Always Allow" option.
	server := false
	for _, o := range req.Options {
		server = server || strings.EqualFold(strings.TrimSpace(o.Name), "Always Allow "+ContextServer)
	}
	if !server {
		return ""
	}
	for _, tool := range granted {
		for _, o := range req.Options {
			if strings.EqualFold(strings.TrimSpace(o.Name), "Always Allow "+tool) {
				return tool
			}
		}
		if callID(tool).MatchString(string(req.ToolCall.ToolCallId)) {
			return tool
		}
	}
	return ""
}

// qualifiedForms are the whole names under which agents send a tool of our
// server.
func qualifiedForms(tool string) []string {
	s := ContextServer
	return []string{
		"mcp__" + s + "__" + tool,
		s + "__" + tool, s + "/" + tool, s + "." + tool, s + ":" + tool, s + "_" + tool,
		"Tool: " + s + "/" + tool,
		tool + " (" + s + " MCP Server)",
	}
}

// callID matches Gemini CLI's tool call ids for a tool: its name (maybe
// qualified by the server) and a timestamp.
func callID(tool string) *regexp.Regexp {
	return regexp.MustCompile(`^(?:` + regexp.QuoteMeta(ContextServer) + `__)?` + regexp.QuoteMeta(tool) + `-\d+$`)
}

// metaToolName is the tool name Claude Code's adapter puts in _meta
// (claudeCode.toolName), "" when there is none.
func metaToolName(meta map[string]any) string {
	cc, ok := meta["claudeCode"].(map[string]any)
	if !ok {
		return ""
	}
	name, _ := cc["toolName"].(string)
	return name
}

// allowOption picks the option that allows: "always" first, so that the
// agent stops asking within the session, else "once".
func allowOption(opts []sdk.PermissionOption) (sdk.PermissionOption, bool) {
	return pick(opts, sdk.PermissionOptionKindAllowAlways, sdk.PermissionOptionKindAllowOnce)
}

// rejectOption picks the option that rejects: "once" first (nothing is
// remembered for a session no one watches), else "always".
func rejectOption(opts []sdk.PermissionOption) (sdk.PermissionOption, bool) {
	return pick(opts, sdk.PermissionOptionKindRejectOnce, sdk.PermissionOptionKindRejectAlways)
}

func pick(opts []sdk.PermissionOption, kinds ...sdk.PermissionOptionKind) (sdk.PermissionOption, bool) {
	for _, k := range kinds {
		for _, o := range opts {
			if o.Kind == k {
				return o, true
			}
		}
	}
	return sdk.PermissionOption{}, false
}

// Verdict says what a decided permission came to: "allowed", "rejected" or
// "cancelled" (the turn ended first, or no option fit); "" while it waits.
func Verdict(ev events.AgentPermissionEvent) string {
	switch ev.Outcome {
	case events.PermissionCancelled:
		return "cancelled"
	case events.PermissionSelected:
		for _, o := range ev.Options {
			if o.ID == ev.OptionID {
				if strings.HasPrefix(o.Kind, "allow") {
					return "allowed"
				}
				return "rejected"
			}
		}
		return "rejected"
	}
	return ""
}

// asking is one turn's permission requests (SPEC §6): the turn's own
// context tools are allowed at once, everything else is rejected when no
// one can answer (the command line) or shown to the user and waited for.
//
// Concurrency: request runs in the SDK's goroutine of each request and
// blocks there while the user decides; answer runs in the caller's (the
// UI's) goroutine; close runs in the turn's goroutine when the turn ends.
// Each waiting request is settled exactly once, by whichever of them takes
// it out of waiting under mu: that one records the decision, queues its
// event on the stream (still under mu, so decisions reach the UI in the
// order they were made) and hands the response to the waiting request
// through its one-slot channel. close settles everything still waiting as
// cancelled before the turn closes its stream, so no request outlives its
// turn and every decision reaches the UI and the transcript.
type asking struct {
	conv, turn string
	granted    []string                // the turn's agentero-context tools allowed at once; none for a prompt-only turn
	writes     []string                // the turn's agentero-context tools that write: the user approves every call
	approve    func(tool string) error // records an approval the server takes (grant.Approve)
	unattended bool                    // no one to ask: reject what the policy does not allow
	st         *stream
	loc        *locator
	hold       func() (release func()) // stops the turn's clock while the user decides
	now        func() time.Time

	// mu guards the fields below. Under it the stream's queue may be
	// taken (stream.mu); nothing blocks.
	mu      sync.Mutex
	waiting map[string]*waiter // by request id
	order   []string           // request ids in the order they began waiting
	decided []events.AgentPermissionEvent
	closed  bool
}

// waiter is a request waiting for the user.
type waiter struct {
	ev     events.AgentPermissionEvent
	answer chan sdk.RequestPermissionResponse // one slot, filled once by the settler
	write  string                             // the writing tool asked for, "" for any other request
}

func newAsking(conv, turn string, granted []string, unattended bool, st *stream, loc *locator, hold func() func(), now func() time.Time) *asking {
	return &asking{conv: conv, turn: turn, granted: granted, unattended: unattended, st: st, loc: loc, hold: hold, now: now,
		waiting: map[string]*waiter{}}
}

// request decides one permission request of the agent, waiting for the
// user when the policy does not decide it. ctx is the request's own: it
// ends when the agent withdraws the request or the connection closes.
func (a *asking) request(ctx context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
	known := a.st.toolFor(req.ToolCall)
	ev := a.describe(req, known)
	// A tool that writes is asked for every call: the user is not offered
	// "always", and an approval serves one call.
	write := contextTool(req, known, a.writes)
	if write != "" {
		opts := ev.Options[:0:0]
		for _, o := range ev.Options {
			if o.Kind != string(sdk.PermissionOptionKindAllowAlways) {
				opts = append(opts, o)
			}
		}
		ev.Options = opts
	} else if contextTool(req, known, a.granted) != "" {
		if o, ok := allowOption(req.Options); ok {
			return a.decideNow(ev, sdk.NewRequestPermissionOutcomeSelected(o.OptionId))
		}
	}
	if a.unattended {
		if o, ok := rejectOption(req.Options); ok {
			return a.decideNow(ev, sdk.NewRequestPermissionOutcomeSelected(o.OptionId))
		}
		return a.decideNow(ev, sdk.NewRequestPermissionOutcomeCancelled())
	}

	w := &waiter{ev: ev, answer: make(chan sdk.RequestPermissionResponse, 1), write: write}
	a.mu.Lock()
	if a.closed || !a.st.permission(ev, nil) {
		a.mu.Unlock()
		return cancelledResponse()
	}
	a.waiting[ev.RequestID] = w
	a.order = append(a.order, ev.RequestID)
	a.mu.Unlock()

	release := a.hold()
	defer release()
	select {
	case resp := <-w.answer:
		return resp
	case <-ctx.Done():
		a.settle(ev.RequestID, "", byPolicy) // the agent withdrew it or went away; a racing answer may have won
		return <-w.answer
	}
}

// describe turns a request into the event the UI shows: the agent's title,
// kind, input and locations (or, where the request leaves them out, those
// of the tool call it is about), its options, and whether it reaches into
// the vault.
func (a *asking) describe(req sdk.RequestPermissionRequest, known toolState) events.AgentPermissionEvent {
	tc := req.ToolCall
	ev := events.AgentPermissionEvent{ConversationID: a.conv, MessageID: a.turn, RequestID: newID("p"),
		ToolCallID: string(tc.ToolCallId), Title: known.ev.Title, Kind: known.ev.Kind, Input: known.ev.Input,
		Locations: known.ev.Locations, Options: make([]events.PermissionOption, 0, len(req.Options))}
	if tc.Title != nil && *tc.Title != "" {
		ev.Title = *tc.Title
	}
	if ev.Title == "" {
		ev.Title = "a tool"
	}
	if tc.Kind != nil {
		ev.Kind = string(*tc.Kind)
	}
	raw := known.raw
	if tc.RawInput != nil {
		raw = tc.RawInput
		ev.Input = inputText(raw)
	}
	if len(tc.Locations) > 0 {
		ev.Locations = a.loc.locations(tc.Locations, raw)
	}
	more := diffPaths(tc.Content)
	for _, c := range known.ev.Content {
		if c.Type == "diff" && c.Path != "" {
			more = append(more, c.Path)
		}
	}
	extra, in := a.loc.reach(ev.Locations, raw, more)
	ev.Locations = append(ev.Locations, extra...)
	ev.InVault = in
	for _, o := range req.Options {
		ev.Options = append(ev.Options, events.PermissionOption{ID: string(o.OptionId), Name: o.Name, Kind: string(o.Kind)})
	}
	return ev
}

// decideNow records a decision of the policy, made without asking.
func (a *asking) decideNow(ev events.AgentPermissionEvent, out sdk.RequestPermissionOutcome) sdk.RequestPermissionResponse {
	ev.Auto = true
	resp := outcome(&ev, out)
	a.mu.Lock()
	a.decided = append(a.decided, ev)
	a.st.permission(ev, a.entry(ev, byPolicy))
	a.mu.Unlock()
	return resp
}

// answer settles a waiting request with the user's option.
func (a *asking) answer(requestID, optionID string) error {
	return a.settle(requestID, optionID, byUser)
}

// settle decides a waiting request: with optionID, or cancelled when it
// is "". It fails when the request is not waiting (ErrNoPermission) or the
// option is not one the agent offered (ErrBadOption).
func (a *asking) settle(requestID, optionID, by string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	w := a.waiting[requestID]
	if w == nil {
		return fmt.Errorf("%w (%s)", ErrNoPermission, requestID)
	}
	out := sdk.NewRequestPermissionOutcomeCancelled()
	if optionID != "" {
		offered := false
		for _, o := range w.ev.Options {
			offered = offered || o.ID == optionID
		}
		if !offered {
			return fmt.Errorf("%w: %q", ErrBadOption, optionID)
		}
		out = sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(optionID))
	}
	if w.write != "" && optionID != "" && a.approve != nil {
		for _, o := range w.ev.Options {
			if o.ID == optionID && (o.Kind == string(sdk.PermissionOptionKindAllowOnce) || o.Kind == string(sdk.PermissionOptionKindAllowAlways)) {
				if err := a.approve(w.write); err != nil {
					return fmt.Errorf("record the approval: %w", err)
				}
			}
		}
	}
	delete(a.waiting, requestID)
	ev := w.ev
	resp := outcome(&ev, out)
	a.decided = append(a.decided, ev)
	a.st.permission(ev, a.entry(ev, by))
	w.answer <- resp
	return nil
}

// close ends the turn's asking: what still waits is answered cancelled
// (by the user when they cancelled the turn, else by the policy), and
// later requests are cancelled at once. It returns every decision of the
// turn, in the order they were made. The caller closes the stream after.
func (a *asking) close(by string) []events.AgentPermissionEvent {
	a.mu.Lock()
	a.closed = true
	order := a.order
	a.mu.Unlock()
	for _, id := range order {
		a.settle(id, "", by) // ErrNoPermission for those already decided
	}
	a.mu.Lock()
	out := append([]events.AgentPermissionEvent(nil), a.decided...)
	a.mu.Unlock()
	for i := range out {
		a.complete(&out[i])
	}
	return out
}

// complete fills in what a decision's request left out (Claude Code's
// adapter, for one, sends no kind) from the tool call it was about, as the
// agent announced it: the connection may hand a request over before the
// notifications the agent sent ahead of it, so when the request was
// decided the call may not have been known yet.
func (a *asking) complete(ev *events.AgentPermissionEvent) {
	t, ok := a.st.tool(ev.ToolCallID)
	if !ok {
		return
	}
	if ev.Title == "a tool" && t.ev.Title != "" {
		ev.Title = t.ev.Title
	}
	if ev.Kind == "" {
		ev.Kind = t.ev.Kind
	}
	if ev.Input == "" {
		ev.Input = t.ev.Input
	}
	if len(ev.Locations) == 0 && len(t.ev.Locations) > 0 {
		ev.Locations = t.ev.Locations
		for _, l := range t.ev.Locations {
			ev.InVault = ev.InVault || l.InVault
		}
	}
}

// entry is a decision's transcript entry.
func (a *asking) entry(ev events.AgentPermissionEvent, by string) *Entry {
	return &Entry{At: a.now(), Kind: "permission", ToolCall: ev.ToolCallID, Text: ev.Title, Data: map[string]any{
		"requestId": ev.RequestID, "kind": ev.Kind, "input": ev.Input, "locations": ev.Locations, "options": ev.Options,
		"inVault": ev.InVault, "outcome": ev.Outcome, "optionId": ev.OptionID, "verdict": Verdict(ev), "by": by}}
}

// outcome sets the event's outcome from the response's and returns the
// response.
func outcome(ev *events.AgentPermissionEvent, out sdk.RequestPermissionOutcome) sdk.RequestPermissionResponse {
	if out.Selected != nil {
		ev.Outcome, ev.OptionID = events.PermissionSelected, string(out.Selected.OptionId)
	} else {
		ev.Outcome = events.PermissionCancelled
	}
	return sdk.RequestPermissionResponse{Outcome: out}
}

func cancelledResponse() sdk.RequestPermissionResponse {
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}
}

// AnswerPermission answers a permission request that waits in a
// conversation's running turn with one of the options the agent offered.
// It fails with ErrNoPermission when no such request waits (it was
// answered, or its turn ended) and ErrBadOption for an option the agent
// did not offer.
func (h *Host) AnswerPermission(conversationID, requestID, optionID string) error {
	h.mu.Lock()
	a := h.asks[conversationID]
	h.mu.Unlock()
	if a == nil {
		return fmt.Errorf("%w (%s)", ErrNoPermission, requestID)
	}
	if optionID == "" {
		return fmt.Errorf("%w: no option chosen", ErrBadOption)
	}
	return a.answer(requestID, optionID)
}
