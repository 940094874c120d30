// Event names emitted by the Go backend, mirrored from backend/events/events.go
// (the one Go file that declares them). Names are `domain:verb`; keep both
// lists in the same order.

export const IndexProgress = "index:progress";
export const IndexDone = "index:done";
export const LibraryChanged = "library:changed";
export const WatchStatus = "watch:status";

export const AgentStatus = "agent:status";
export const AgentChunk = "agent:chunk";
export const AgentTool = "agent:tool";
export const AgentPlan = "agent:plan";
export const AgentCompleted = "agent:completed";
export const AgentError = "agent:error";

export type WatchMode = "starting" | "inotify" | "polling" | "off";

export interface IndexProgressEvent {
  done: number;
  total: number;
  /** The ref of the paper being indexed right now. */
  current: string;
}

export interface IndexDoneEvent {
  papers: number;
  pages: number;
  errors: number;
  seconds: number;
}

export interface WatchStatusEvent {
  mode: WatchMode;
  notice: string;
}

/** A source a turn may read: a paper (by ref), a directory or a file. */
export interface GrantSource {
  kind: "paper" | "directory" | "file";
  ref: string;
}

/** How a turn's session was obtained: new, resumed, loaded, from the warm pool, or continued. */
export type SessionAction = "new" | "resume" | "load" | "warm" | "continue";

export interface AgentStatusEvent {
  conversationId: string;
  /** The id of the turn (its user message). */
  messageId: string;
  action: SessionAction | "";
  /** Why a new session was started, e.g. because what the turn may read changed; "" otherwise. */
  note: string;
  mode: "mcp" | "prompt-only";
  allowed: GrantSource[] | null;
  fingerprint: string;
}

export interface AgentChunkEvent {
  conversationId: string;
  messageId: string;
  kind: "message" | "thought";
  text: string;
}

export interface AgentToolEvent {
  conversationId: string;
  messageId: string;
  toolCallId: string;
  /** Absent on updates that only change the status. */
  title?: string;
  /** pending | in_progress | completed | failed */
  status?: string;
  kind?: string;
}

export interface AgentPlanEvent {
  conversationId: string;
  messageId: string;
  entries: { content: string; priority?: string; status?: string }[] | null;
}

export interface AgentCompletedEvent {
  conversationId: string;
  /** The id of the assistant message. */
  messageId: string;
  content: string;
  sources: string[] | null;
  stopReason: string;
  /** The agent that answered. */
  agent?: string;
}

export interface AgentErrorEvent {
  conversationId: string;
  /** Absent when the turn failed before it had an id. */
  messageId?: string;
  error: string;
}

/** EventPayloads maps each event name to the payload the backend sends with it. */
export interface EventPayloads {
  [IndexProgress]: IndexProgressEvent;
  [IndexDone]: IndexDoneEvent;
  [LibraryChanged]: Record<string, never>;
  [WatchStatus]: WatchStatusEvent;
  [AgentStatus]: AgentStatusEvent;
  [AgentChunk]: AgentChunkEvent;
  [AgentTool]: AgentToolEvent;
  [AgentPlan]: AgentPlanEvent;
  [AgentCompleted]: AgentCompletedEvent;
  [AgentError]: AgentErrorEvent;
}

export type EventName = keyof EventPayloads;
