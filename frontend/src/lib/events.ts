// The events the Go backend sends, and the codes its failures carry. The
// payload types are generated from backend/events/events.go (the Go structs,
// listed by events.Payloads under their event names); Go constants are not
// generated, so the event names (each checked against the generated list)
// and the error codes are repeated here.

import type { events } from "../../wailsjs/go/models";
import type { Data, Wire } from "./wire";

/**
 * EventPayloads maps each event name to its payload as it arrives: Go's nil
 * slices come as null.
 */
export type EventPayloads = {
  [K in keyof Omit<Data<events.Payloads>, "error">]: Wire<events.Payloads[K]>;
};

export type EventName = keyof EventPayloads;

export const IndexProgress = "index:progress" satisfies EventName;
export const IndexDone = "index:done" satisfies EventName;
export const LibraryChanged = "library:changed" satisfies EventName;
export const WatchStatus = "watch:status" satisfies EventName;
export const IntakeProgress = "intake:progress" satisfies EventName;

export const AgentStatus = "agent:status" satisfies EventName;
export const AgentChunk = "agent:chunk" satisfies EventName;
export const AgentTool = "agent:tool" satisfies EventName;
export const AgentPlan = "agent:plan" satisfies EventName;
export const AgentCompleted = "agent:completed" satisfies EventName;
export const AgentError = "agent:error" satisfies EventName;
export const AgentPermission = "agent:permission" satisfies EventName;
export const VaultOpened = "vault:opened" satisfies EventName;

export type IndexProgressEvent = EventPayloads[typeof IndexProgress];
export type IndexDoneEvent = EventPayloads[typeof IndexDone];
export type WatchStatusEvent = EventPayloads[typeof WatchStatus];
export type IntakeProgressEvent = EventPayloads[typeof IntakeProgress];
export type AgentStatusEvent = EventPayloads[typeof AgentStatus];
export type AgentChunkEvent = EventPayloads[typeof AgentChunk];
export type AgentToolEvent = EventPayloads[typeof AgentTool];
export type AgentPlanEvent = EventPayloads[typeof AgentPlan];
export type AgentCompletedEvent = EventPayloads[typeof AgentCompleted];
export type AgentErrorEvent = EventPayloads[typeof AgentError];
export type AgentPermissionEvent = EventPayloads[typeof AgentPermission];

/** ToolContent is what a tool call produced: text, or a diff of a file (oldText, newText). */
export type ToolContent = NonNullable<AgentToolEvent["content"]>[number];
/** ToolLocation is a file a tool call or permission request names; citationUri opens it when it is in the vault. */
export type ToolLocation = NonNullable<AgentToolEvent["locations"]>[number];
/** PermissionOption is one of the answers the agent offers; kind is allow_once, allow_always, reject_once or reject_always. */
export type PermissionOption = NonNullable<AgentPermissionEvent["options"]>[number];

/** GrantSource is a source a turn may read: a paper (by ref), a directory or a file. */
export type GrantSource = NonNullable<AgentStatusEvent["allowed"]>[number];

/**
 * errorCodes say what kind of failure a rejected call (events.Error) or an
 * agent:error is: the UI switches on the code, never on the message. They
 * are Go's events.Code* constants.
 */
export const errorCodes = [
  "no-vault",
  "not-vault",
  "busy",
  "invalid",
  "not-found",
  "not-configured",
  "crashed",
  "timeout",
  "refused",
  "auth-required",
  "unverified",
  "cancelled",
  "internal",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** errorCode reads a code sent by the backend; a missing or unknown one is "internal". */
export function errorCode(code: unknown): ErrorCode {
  return (errorCodes as readonly unknown[]).includes(code) ? (code as ErrorCode) : "internal";
}
