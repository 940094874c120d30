// Package events names the events the backend sends to the UI. The frontend
// mirrors this list in frontend/src/lib/events.ts; names are domain:verb.
package events

const (
	// IndexProgress carries index.Progress {done, total, current} while papers are read.
	IndexProgress = "index:progress"
	// IndexDone carries {papers, pages, errors, seconds} when a sync ends.
	IndexDone = "index:done"
	// LibraryChanged tells the UI to reload the library list.
	LibraryChanged = "library:changed"
	// WatchStatus carries {mode, notice} when the watcher starts or falls back to rescans.
	WatchStatus = "watch:status"

	// AgentStatus carries how a turn's session was obtained and what the turn may read:
	// {conversationId, messageId, action, note, mode, allowed, fingerprint}.
	AgentStatus = "agent:status"
	// AgentChunk carries streamed text: {conversationId, messageId, kind: message|thought, text}.
	AgentChunk = "agent:chunk"
	// AgentTool carries a tool call or its update: {conversationId, messageId, toolCallId, title, status, kind}.
	AgentTool = "agent:tool"
	// AgentPlan carries the agent's plan entries: {conversationId, messageId, entries}.
	AgentPlan = "agent:plan"
	// AgentCompleted ends a turn: {conversationId, turnId, messageId, content, sources, stopReason};
	// turnId is the messageId the turn's other events carry, messageId the answer's own.
	AgentCompleted = "agent:completed"
	// AgentError ends a failed turn: {conversationId, messageId, error}.
	AgentError = "agent:error"
)

// Emitter sends one event to the UI. The desktop app passes Wails'
// EventsEmit; tests and the command line pass their own.
type Emitter func(name string, payload any)
