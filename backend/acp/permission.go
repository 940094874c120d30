package acp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentero/agentero/backend/context/grant"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/transcript"
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

// policy decides which permission requests are calls of the turn's own
// agentero-context tools, allowed without asking (SPEC §6). A request is
// one only when all of these hold:
//
//   - by name: its title names our server and one of the turn's tools, as
//     a whole, in a form agents use for an MCP tool (qualifiedForms), and
//     the tool name Claude Code's adapter puts in _meta, when there is
//     one, names the same tool. Nothing else the agent chooses counts: not
//     an option's label, not a tool call id, not _meta alone;
//   - by kind: read, search, fetch, other or none (never execute, edit,
//     delete, move, think or anything else);
//   - by input: the raw input, when there is one, is an object holding
//     only the tool's own arguments (Arguments of its schema), a ref it
//     names is covered by the turn's grant, and no path-like value in it
//     lies outside the grant;
//   - by location: every location it names lies inside the grant.
//
// The request's kind, input and locations are judged, and so are those of
// the tool call the agent announced before it, when it did.
type policy struct {
	write bool                // the tools write: an edit kind is theirs too, and their input is judged by the tool (the context folder only)
	tools []string            // the turn's agentero-context tools this policy may match
	args  map[string][]string // each tool's arguments (mcp.Arguments)
	grant *grant.Grant        // what the turn may read; nil for a prompt-only turn
	loc   *locator
}

// readKinds are the tool kinds a context tool's call may carry.
var readKinds = map[string]bool{"": true, "read": true, "search": true, "fetch": true, "other": true}

// judge returns the tool a request is a call of, or "" and why it is not
// one (what was checked, for the transcript).
func (p policy) judge(req sdk.RequestPermissionRequest, known toolState) (tool, why string) {
	if len(p.tools) == 0 || p.grant == nil {
		return "", "the turn has no context tools"
	}
	title := known.ev.Title
	if req.ToolCall.Title != nil && *req.ToolCall.Title != "" {
		title = *req.ToolCall.Title
	}
	tool = p.named(title)
	if tool == "" {
		return "", "its title names none of the turn's context tools"
	}
	for _, m := range []string{metaToolName(req.Meta), metaToolName(req.ToolCall.Meta)} {
		if m != "" && p.named(m) != tool {
			return "", "its tool name in _meta is not the one its title names"
		}
	}
	kinds := []string{known.ev.Kind}
	if req.ToolCall.Kind != nil {
		kinds = append(kinds, string(*req.ToolCall.Kind))
	}
	for _, k := range kinds {
		if !readKinds[k] && !(p.write && k == "edit") {
			return "", fmt.Sprintf("its kind is %q, not a read", k)
		}
	}
	for _, raw := range []any{known.raw, req.ToolCall.RawInput} {
		if why := p.input(tool, raw); why != "" {
			return "", why
		}
	}
	var locs []string
	for _, l := range known.ev.Locations {
		locs = append(locs, l.Path)
	}
	for _, l := range req.ToolCall.Locations {
		locs = append(locs, l.Path)
	}
	for _, l := range locs {
		if !p.write && !p.covers(l) {
			return "", "a location it names lies outside the turn's grant"
		}
	}
	return tool, ""
}

// named returns the tool of ours a name is, in one of the whole forms
// agents give an MCP tool (case and surrounding space aside), or "".
func (p policy) named(name string) string {
	name = strings.TrimSpace(name)
	if name == "" {
		return ""
	}
	for _, tool := range p.tools {
		for _, form := range qualifiedForms(tool) {
			if strings.EqualFold(name, form) {
				return tool
			}
		}
	}
	return ""
}

// input judges a raw input: "" when it is absent or could be a call of
// tool, else why not.
func (p policy) input(tool string, raw any) string {
	if raw == nil {
		return ""
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return "its input is not the tool's arguments"
	}
	args := p.args[tool]
	for k, v := range obj {
		if !slices.Contains(args, k) {
			return fmt.Sprintf("its input holds %q, which %s does not take", k, tool)
		}
		if k == "ref" {
			ref, ok := v.(string)
			if !ok || !p.coversRef(ref) {
				return "the ref it names lies outside the turn's grant"
			}
		}
	}
	if p.write {
		return ""
	}
	for _, path := range inputPaths(raw) {
		if !p.covers(path) {
			return "a path in its input lies outside the turn's grant"
		}
	}
	return ""
}

// coversRef reports whether a ref an agent passes to a context tool (a
// vault path or a citation URI) is covered by the grant.
func (p policy) coversRef(ref string) bool {
	file, _, _ := strings.Cut(ref, "#")
	clean, err := grant.CleanRef(file)
	if err != nil {
		return false
	}
	_, err = p.grant.Covering(clean)
	return err == nil
}

// covers reports whether a path (absolute, or as the agent wrote it) leads
// inside the vault to something the grant covers.
func (p policy) covers(path string) bool {
	real, ok := p.loc.canonical(path)
	if !ok {
		return false
	}
	rel, in := p.loc.inVault(real)
	if !in || rel == "." {
		return false
	}
	_, err := p.grant.Covering(rel)
	return err == nil
}

// qualifiedForms are the whole names under which agents send a tool of our
// server: Claude Code's adapter (mcp__<server>__<tool>, in the title and
// in _meta.claudeCode.toolName), other agents' qualified names, and Gemini
// CLI's display name.
func qualifiedForms(tool string) []string {
	s := ContextServer
	return []string{
		"mcp__" + s + "__" + tool,
		s + "__" + tool, s + "/" + tool, s + "." + tool, s + ":" + tool, s + "_" + tool,
		"Tool: " + s + "/" + tool,
		tool + " (" + s + " MCP Server)",
	}
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
	reads      policy                  // the turn's agentero-context tools that read: their calls are allowed at once
	writes     policy                  // the turn's agentero-context tools that write: the user approves every call
	approve    func(tool string) error // records an approval the server takes (grant.Approvals, in memory)
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
	checked map[string]string // by request id: why the policy did not allow it at once
	closed  bool
}

// waiter is a request waiting for the user.
type waiter struct {
	ev     events.AgentPermissionEvent
	answer chan sdk.RequestPermissionResponse // one slot, filled once by the settler
	write  string                             // the writing tool asked for, "" for any other request
}

// newAsking starts the asking of a turn whose grant is g (nil for a
// prompt-only turn); args are the context tools' arguments (mcp.Arguments).
func newAsking(conv, turn string, g *grant.Grant, args map[string][]string, unattended bool, st *stream, loc *locator, hold func() func(), now func() time.Time) *asking {
	a := &asking{conv: conv, turn: turn, unattended: unattended, st: st, loc: loc, hold: hold, now: now,
		waiting: map[string]*waiter{}, checked: map[string]string{}}
	a.reads = policy{grant: g, args: args, loc: loc}
	a.writes = policy{write: true, grant: g, args: args, loc: loc}
	if g != nil && g.Mode == grant.ModeMCP {
		for _, tool := range g.Tools {
			if tool == grant.WriteDocTool {
				a.writes.tools = append(a.writes.tools, tool)
			} else {
				a.reads.tools = append(a.reads.tools, tool)
			}
		}
	}
	return a
}

// request decides one permission request of the agent, waiting for the
// user when the policy does not decide it. ctx is the request's own: it
// ends when the agent withdraws the request or the connection closes.
func (a *asking) request(ctx context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
	known := a.st.toolFor(req.ToolCall)
	ev := a.describe(req, known)
	// A tool that writes is asked for every call: the user is not offered
	// "always", and an approval serves one call.
	write, _ := a.writes.judge(req, known)
	why := ""
	if write != "" {
		opts := ev.Options[:0:0]
		for _, o := range ev.Options {
			if o.Kind != string(sdk.PermissionOptionKindAllowAlways) {
				opts = append(opts, o)
			}
		}
		ev.Options = opts
	} else if tool, reason := a.reads.judge(req, known); tool != "" {
		if o, ok := allowOption(req.Options); ok {
			return a.decideNow(ev, sdk.NewRequestPermissionOutcomeSelected(o.OptionId))
		}
	} else {
		why = reason
	}
	if why != "" {
		a.mu.Lock()
		a.checked[ev.RequestID] = why
		a.mu.Unlock()
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
func (a *asking) entry(ev events.AgentPermissionEvent, by string) *transcript.Entry {
	data := map[string]any{
		"requestId": ev.RequestID, "kind": ev.Kind, "input": ev.Input, "locations": ev.Locations, "options": ev.Options,
		"inVault": ev.InVault, "outcome": ev.Outcome, "optionId": ev.OptionID, "verdict": Verdict(ev), "by": by}
	if why := a.checked[ev.RequestID]; why != "" {
		data["notContextTool"] = why // what the policy checked: not a call of the turn's context tools
	}
	return &transcript.Entry{At: a.now(), Kind: "permission", ToolCall: ev.ToolCallID, Text: ev.Title, Data: data}
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
	a := h.asksOf(conversationID)
	if a == nil {
		return fmt.Errorf("%w (%s)", ErrNoPermission, requestID)
	}
	if optionID == "" {
		return fmt.Errorf("%w: no option chosen", ErrBadOption)
	}
	return a.answer(requestID, optionID)
}
