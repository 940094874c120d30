// Package events names the events the backend sends to the UI and declares
// their payloads. The payloads are Go structs so that the UI's types are
// generated with the Wails bindings (App.EventPayloads lists them); names
// are domain:verb.
package events

import (
	"github.com/agentero/agentero/backend/citation"
	"github.com/agentero/agentero/backend/context/grant"
)

// Event names. Each carries the payload type named beside it.
const (
	IndexProgress  = "index:progress"  // IndexProgressEvent, while papers are read
	IndexDone      = "index:done"      // IndexDoneEvent, when a sync ends
	LibraryChanged = "library:changed" // LibraryChangedEvent: reload the library list
	WatchStatus    = "watch:status"    // WatchStatusEvent, when the watcher starts or falls back to rescans
	IntakeProgress = "intake:progress" // IntakeProgressEvent, while papers are added or imported

	AgentStatus    = "agent:status"    // AgentStatusEvent: how a turn's session was obtained, what it may read
	AgentChunk     = "agent:chunk"     // AgentChunkEvent: streamed text
	AgentTool      = "agent:tool"      // AgentToolEvent: a tool call or its update
	AgentPlan      = "agent:plan"      // AgentPlanEvent: the agent's plan entries
	AgentCompleted = "agent:completed" // AgentCompletedEvent: a turn's end
	AgentError     = "agent:error"     // AgentErrorEvent: a failed turn's end
	// AgentPermission is AgentPermissionEvent: the agent asks before a tool
	// call; sent again, with its Outcome, once decided.
	AgentPermission = "agent:permission"
)

// Emitter sends one event to the UI. The desktop app passes Wails'
// EventsEmit; tests and the command line pass their own.
type Emitter func(name string, payload any)

// IndexProgressEvent is sent while papers are read.
type IndexProgressEvent struct {
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	Current string `json:"current"` // the ref of the paper being read
	// Step is "ocr" while Current's pages without a text layer are read
	// from their images, Page of Pages done; "" while papers are read.
	Step  string `json:"step,omitempty"`
	Page  int    `json:"page,omitempty"`
	Pages int    `json:"pages,omitempty"`
}

// IndexDoneEvent is sent when a sync ends.
type IndexDoneEvent struct {
	Papers  int     `json:"papers"`
	Pages   int     `json:"pages"`
	Errors  int     `json:"errors"` // papers whose PDF could not be read
	Seconds float64 `json:"seconds"`
	// Extracted counts the papers whose PDF this run read, Removed those
	// it dropped: both 0 for a run that found nothing changed.
	Extracted int `json:"extracted"`
	Removed   int `json:"removed"`
}

// VaultOpened is sent when a later launch (--vault DIR) opened a vault in
// the running app, or could not.
const VaultOpened = "vault:opened"

// VaultOpenedEvent says which vault a later launch opened, or why it could not.
type VaultOpenedEvent struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// LibraryChangedEvent tells the UI to reload the library list. Paths are
// the vault-relative paths that changed, when the sender knows them (none:
// reload everything); a field of its own also makes the generated
// bindings type the event (an empty struct would be any).
type LibraryChangedEvent struct {
	Paths []string `json:"paths,omitempty"`
}

// WatchStatusEvent says how the vault is followed: Mode is starting,
// inotify, polling or off; Notice explains a fallback to the user.
type WatchStatusEvent struct {
	Mode   string `json:"mode"`
	Notice string `json:"notice"`
}

// IntakeProgressEvent is sent while papers are added or imported: Done of
// Total entries handled, Current the file or entry being handled (Done ==
// Total at the end).
type IntakeProgressEvent struct {
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	Current string `json:"current"`
}

// AgentStatusEvent says how a turn's session was obtained and what the turn
// may read. MessageID is the turn's id (its question's message id).
type AgentStatusEvent struct {
	ConversationID string         `json:"conversationId"`
	MessageID      string         `json:"messageId"`
	Action         string         `json:"action"` // new, resume, load, warm or continue
	Note           string         `json:"note"`   // why a new session was started; "" otherwise
	Mode           string         `json:"mode"`   // mcp or prompt-only
	Allowed        []grant.Source `json:"allowed"`
	Fingerprint    string         `json:"fingerprint"`
}

// Chunk kinds of AgentChunkEvent.
const (
	ChunkMessage = "message"
	ChunkThought = "thought"
)

// AgentChunkEvent is streamed text of the answer or of the agent's thoughts.
type AgentChunkEvent struct {
	ConversationID string `json:"conversationId"`
	MessageID      string `json:"messageId"`
	Kind           string `json:"kind"` // ChunkMessage or ChunkThought
	Text           string `json:"text"`
}

// AgentToolEvent is a tool call or an update of one (ACP tool_call and
// tool_call_update). An update carries only what changed: an empty field
// means unchanged; Content and Locations, when present, replace the
// call's.
type AgentToolEvent struct {
	ConversationID string         `json:"conversationId"`
	MessageID      string         `json:"messageId"`
	ToolCallID     string         `json:"toolCallId"`
	Title          string         `json:"title,omitempty"`
	Status         string         `json:"status,omitempty"` // pending, in_progress, completed or failed
	Kind           string         `json:"kind,omitempty"`   // read, edit, delete, move, search, execute, think, fetch, other
	Input          string         `json:"input,omitempty"`  // the call's raw input as JSON text, capped
	Content        []ToolContent  `json:"content,omitempty"`
	Locations      []ToolLocation `json:"locations,omitempty"`
}

// ToolContent is one piece of what a tool call produced: text, or a diff
// of a file (other ACP content is shown as text).
type ToolContent struct {
	Type    string `json:"type"` // text or diff
	Text    string `json:"text,omitempty"`
	Path    string `json:"path,omitempty"` // a diff's file
	OldText string `json:"oldText,omitempty"`
	NewText string `json:"newText,omitempty"`
}

// ToolLocation is a file (and line) a tool call or a permission request
// names. Inside the vault, CitationURI opens it (at the page when it is a
// paper's PDF); a path outside the vault is shown, never opened.
type ToolLocation struct {
	Path        string `json:"path"` // as the agent sent it
	Line        int    `json:"line,omitempty"`
	InVault     bool   `json:"inVault"`
	CitationURI string `json:"citationUri,omitempty"`
}

// PermissionOption is one of the answers an agent offers to a permission
// request. Kind is allow_once, allow_always, reject_once or reject_always.
type PermissionOption struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// Permission outcomes.
const (
	PermissionSelected  = "selected"  // an option was chosen (OptionID)
	PermissionCancelled = "cancelled" // the turn was cancelled before an answer
)

// AgentPermissionEvent is a permission request of the agent (ACP
// session/request_permission). It is sent when the request waits for the
// user (Outcome empty), and again once decided. Requests for the turn's own
// agentero-context tools, and every request when no one can answer (the
// command line), are decided by Agentero's policy: Auto is set and only the
// decided event is sent. InVault marks a request that names paths inside
// the vault, which reaches outside what the turn was granted.
type AgentPermissionEvent struct {
	ConversationID string             `json:"conversationId"`
	MessageID      string             `json:"messageId"`
	RequestID      string             `json:"requestId"`
	ToolCallID     string             `json:"toolCallId,omitempty"`
	Title          string             `json:"title"`
	Kind           string             `json:"kind,omitempty"`
	Input          string             `json:"input,omitempty"` // the tool's raw input as JSON text, capped
	Locations      []ToolLocation     `json:"locations,omitempty"`
	Options        []PermissionOption `json:"options"`
	InVault        bool               `json:"inVault"`
	Outcome        string             `json:"outcome,omitempty"`  // "" while waiting, then PermissionSelected or PermissionCancelled
	OptionID       string             `json:"optionId,omitempty"` // the chosen option
	Auto           bool               `json:"auto"`
}

// PlanEntry is one entry of an agent's plan.
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority,omitempty"`
	Status   string `json:"status,omitempty"`
}

// AgentPlanEvent is the agent's current plan; each replaces the last.
type AgentPlanEvent struct {
	ConversationID string      `json:"conversationId"`
	MessageID      string      `json:"messageId"`
	Entries        []PlanEntry `json:"entries"`
}

// AgentCompletedEvent ends a turn. TurnID is the messageId the turn's other
// events carried; MessageID is the answer's own id.
type AgentCompletedEvent struct {
	ConversationID string   `json:"conversationId"`
	TurnID         string   `json:"turnId"`
	MessageID      string   `json:"messageId"`
	Content        string   `json:"content"`
	Sources        []string `json:"sources"`   // the citations the answer uses
	Consulted      []string `json:"consulted"` // what the tools returned that the answer does not use
	// Checks are the claim checks of the answer's citations, one per
	// citation the answer writes, in the order it writes them.
	Checks     []citation.Check `json:"checks"`
	StopReason string           `json:"stopReason"`
	Agent      string           `json:"agent"` // the agent that answered
	// Sandbox is how the agent ran: bubblewrap, landlock or none;
	// SandboxWhy says what that means, or why it was not confined.
	Sandbox    string `json:"sandbox"`
	SandboxWhy string `json:"sandboxWhy"`
}

// AgentErrorEvent ends a failed turn. MessageID is empty when the turn
// failed before it had an id. Code says what kind of failure it was (one of
// the Code constants); Error is the message shown with it.
type AgentErrorEvent struct {
	ConversationID string `json:"conversationId"`
	MessageID      string `json:"messageId,omitempty"`
	Code           string `json:"code"`
	Error          string `json:"error"`
}

// Error codes: what the UI switches on when a call or a turn fails, never
// the message text.
const (
	CodeNoVault       = "no-vault"       // no vault is open
	CodeNotVault      = "not-vault"      // the folder is not a vault yet; nothing is written there until the user says how to make it one
	CodeBusy          = "busy"           // the conversation is still answering
	CodeInvalid       = "invalid"        // the request is malformed (empty question, bad id, bad settings)
	CodeNotFound      = "not-found"      // the paper, conversation, agent or file does not exist
	CodeNotConfigured = "not-configured" // the agent is unknown or cannot be started
	CodeCrashed       = "crashed"        // the agent process died or spoke garbage
	CodeTimeout       = "timeout"        // the agent did not answer in time
	CodeRefused       = "refused"        // the agent refused the session
	CodeAuthRequired  = "auth-required"  // the agent needs the user to log in; the message names its login methods
	CodeUnverified    = "unverified"     // an agent failed the check Save runs; it is saved only when forced ("Save anyway")
	CodeCancelled     = "cancelled"      // the user cancelled
	CodeInternal      = "internal"       // anything else; the log has the details
)

// Error is how a failed call reaches the UI: the promise of a bound method
// rejects with it (main.go's ErrorFormatter).
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Payloads lists one value of every payload type, so that the Wails
// binding generator emits their TypeScript classes (App.EventPayloads
// returns it). Each field is named for its event.
type Payloads struct {
	IndexProgress   IndexProgressEvent   `json:"index:progress"`
	IndexDone       IndexDoneEvent       `json:"index:done"`
	LibraryChanged  LibraryChangedEvent  `json:"library:changed"`
	WatchStatus     WatchStatusEvent     `json:"watch:status"`
	IntakeProgress  IntakeProgressEvent  `json:"intake:progress"`
	AgentStatus     AgentStatusEvent     `json:"agent:status"`
	AgentChunk      AgentChunkEvent      `json:"agent:chunk"`
	AgentTool       AgentToolEvent       `json:"agent:tool"`
	AgentPlan       AgentPlanEvent       `json:"agent:plan"`
	AgentCompleted  AgentCompletedEvent  `json:"agent:completed"`
	AgentError      AgentErrorEvent      `json:"agent:error"`
	AgentPermission AgentPermissionEvent `json:"agent:permission"`
	VaultOpened     VaultOpenedEvent     `json:"vault:opened"`
	// Error is what a bound method's promise rejects with; not an event.
	Error Error `json:"error"`
}
