// Chat threads as a pure reducer. Every backend answer and agent:* event goes
// through reduceChats; the views render whatever it returns. A conversation
// runs one turn at a time (the backend refuses a second). Events are routed
// by conversation id, then by turn id (the messageId of status, chunk, tool
// and plan events, agent:completed's turnId) to the answer they belong to.
//
// Events may arrive out of order (the dev server's websocket bridge sends
// each one from its own goroutine), so: agent:completed carries the whole
// answer and wins over chunks; a chunk for a finished answer is dropped; a
// late status, tool or plan update still decorates the answer it belongs to; and
// only a status event opens an answer for a turn this window did not send.
//
// Permission requests (agent:permission) wait in the answer of their turn
// until the backend says how they were decided; the user's click only marks
// the card as answering. A request still waiting when its turn ends can no
// longer be answered and reads as cancelled.

import { readable } from "../lib/sentence";
import type { CitationCheck, ContextRequest, Conversation, Data, Failure } from "../lib/backend";
import type { events } from "../../wailsjs/go/models";
import {
  errorCode,
  type AgentChunkEvent,
  type AgentCompletedEvent,
  type AgentErrorEvent,
  type AgentPermissionEvent,
  type AgentPlanEvent,
  type AgentStatusEvent,
  type AgentToolEvent,
  type ErrorCode,
  type GrantSource,
  type PermissionOption,
  type ToolContent,
  type ToolLocation,
} from "../lib/events";

/** ToolActivity is one tool call of a turn as ACP describes it (tool_call and its updates). */
export interface ToolActivity {
  id: string;
  title: string;
  /** pending | in_progress | completed | failed, or stopped when the turn ended first */
  status: string;
  /** read, edit, delete, move, search, execute, think, fetch, other; "" when the agent named none. */
  kind: string;
  /** The call's raw input as JSON text ("" when none). */
  input: string;
  content: ToolContent[];
  locations: ToolLocation[];
}

/** PermissionOutcome is how a permission request was decided: "" while it waits. */
export type PermissionOutcome = "" | "selected" | "cancelled";

/** PermissionRequest is a permission request of the agent (ACP session/request_permission) and its decision. */
export interface PermissionRequest {
  requestId: string;
  /** The tool call it asks for ("" when the agent named none). */
  toolCallId: string;
  title: string;
  kind: string;
  input: string;
  locations: ToolLocation[];
  options: PermissionOption[];
  /** It names paths inside the vault: it reaches outside what the turn was granted. */
  inVault: boolean;
  outcome: PermissionOutcome;
  /** The chosen option, when outcome is selected. */
  optionId: string;
  /** Decided by Agentero's policy (the turn's own context tools), never shown as a card. */
  auto: boolean;
  /** The option the user chose, until the backend says it was decided ("" otherwise). */
  answering: string;
  /** Why the user's answer could not be sent ("" when nothing went wrong). */
  answerError: string;
}

export type PlanStatus = "pending" | "in_progress" | "completed";

/** PlanEntry is one step of the agent's plan for a turn (the generated events.PlanEntry, its priority and status read into their values). */
export type PlanEntry = Omit<Required<Data<events.PlanEntry>>, "priority" | "status"> & {
  priority: "high" | "medium" | "low";
  status: PlanStatus;
};

/** TurnContext is what a turn could read and how its session was obtained (from agent:status). */
export interface TurnContext {
  mode: "mcp" | "prompt-only";
  allowed: GrantSource[];
  action: string;
  /** Why a new session was started ("what this turn may read changed…"); "" when none was. */
  note: string;
  fingerprint: string;
}

export type MessageStatus = "streaming" | "done" | "error" | "cancelled";

export interface ChatMessage {
  id: string;
  /** The message's identity for views: its first id, kept when the backend names the answer. */
  key: string;
  role: "user" | "assistant";
  /** The turn id the backend's events carry for this answer; "" until the first one arrived. */
  turn: string;
  /** Finished before any event named its turn: a late status or tool event of a turn belongs here. */
  orphan: boolean;
  content: string;
  thought: string;
  /** The citations the answer uses. */
  sources: string[];
  /** Citations the tools returned that the answer does not use. */
  consulted: string[];
  /** The claim check of each citation the answer writes, in the order it writes them (empty until the turn completed). */
  checks: CitationCheck[];
  tools: ToolActivity[];
  permissions: PermissionRequest[];
  /** The agent's latest plan for this turn; each agent:plan replaces the whole list. */
  plan: PlanEntry[];
  context: TurnContext | null;
  status: MessageStatus;
  error: string;
  /** What kind of failure error is (the backend's code); "" when the answer did not fail. */
  errorCode: ErrorCode | "";
  /** The agent that answered (or failed); "" when unknown (older conversations, the backend's default). */
  agent: string;
  /** How the agent that answered ran: bubblewrap, landlock or none; "" when unknown. sandboxWhy says what that means. */
  sandbox: string;
  sandboxWhy: string;
}

/** The question and request of the last turn, kept so that it can be retried. */
export interface AskedTurn {
  question: string;
  request: ContextRequest;
  agent: string;
}

export interface Thread {
  id: string;
  /** "loading" until the stored conversation arrived. */
  phase: "loading" | "ready" | "error";
  loadError: string;
  messages: ChatMessage[];
  /** A turn is in flight. */
  running: boolean;
  cancelling: boolean;
  last: AskedTurn | null;
  /** Whether each source URI still opens (checked after a turn). */
  exists: Record<string, boolean>;
}

export type ChatsState = Readonly<Record<string, Thread>>;

export type ChatEvent =
  | { type: "load"; id: string }
  | { type: "loaded"; id: string; conversation: Conversation }
  | { type: "load-failed"; id: string; error: string }
  | { type: "sent"; id: string; turn: AskedTurn; localId: string }
  | { type: "ask-failed"; id: string; failure: Failure }
  | { type: "cancel"; id: string }
  | { type: "sources-checked"; id: string; exists: Record<string, boolean> }
  | ({ type: "status" } & AgentStatusEvent)
  | ({ type: "chunk" } & AgentChunkEvent)
  | ({ type: "tool" } & AgentToolEvent)
  | ({ type: "plan" } & AgentPlanEvent)
  | ({ type: "permission" } & AgentPermissionEvent)
  | { type: "permission-answer"; id: string; requestId: string; optionId: string }
  | { type: "permission-answer-failed"; id: string; requestId: string; failure: Failure }
  | ({ type: "completed" } & AgentCompletedEvent)
  | ({ type: "error" } & AgentErrorEvent);

export const initialChats: ChatsState = {};

export function emptyThread(id: string): Thread {
  return { id, phase: "loading", loadError: "", messages: [], running: false, cancelling: false, last: null, exists: {} };
}

function message(role: ChatMessage["role"], id: string, fields: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    key: id,
    role,
    turn: "",
    orphan: false,
    content: "",
    thought: "",
    sources: [],
    consulted: [],
    checks: [],
    tools: [],
    permissions: [],
    plan: [],
    context: null,
    status: "done",
    error: "",
    errorCode: "",
    agent: "",
    sandbox: "",
    sandboxWhy: "",
    ...fields,
  };
}

export function reduceChats(state: ChatsState, event: ChatEvent): ChatsState {
  const id = "conversationId" in event ? event.conversationId : event.id;
  const before = state[id];
  const after = reduceThread(before ?? emptyThread(id), event);
  if (after === before) return state;
  return { ...state, [id]: after };
}

export function reduceThread(t: Thread, event: ChatEvent): Thread {
  switch (event.type) {
    case "load":
      return t.phase === "loading" ? t : { ...t, phase: "loading", loadError: "" };
    case "loaded":
      // A turn that started before the stored conversation arrived wins.
      if (t.running) return { ...t, phase: "ready" };
      return { ...t, phase: "ready", loadError: "", messages: fromStored(event.conversation) };
    case "load-failed":
      return { ...t, phase: "error", loadError: event.error };
    case "sent": {
      const user = message("user", `${event.localId}.q`, { content: event.turn.question });
      const answer = message("assistant", `${event.localId}.a`, { status: "streaming", agent: event.turn.agent });
      return { ...t, phase: "ready", messages: [...t.messages, user, answer], running: true, cancelling: false, last: event.turn };
    }
    case "ask-failed":
      // The backend never started this turn: no event of it will come.
      return finish(t, { status: "error", error: event.failure.message, errorCode: event.failure.code }, false);
    case "cancel":
      return t.running ? { ...t, cancelling: true } : t;
    case "sources-checked":
      return { ...t, exists: { ...t.exists, ...event.exists } };
    case "status":
      return onTurn(t, event.messageId, "status", (m) => ({
        ...m,
        context: {
          mode: event.mode === "mcp" ? "mcp" : "prompt-only",
          allowed: event.allowed ?? [],
          action: event.action,
          note: event.note ?? "",
          fingerprint: event.fingerprint,
        },
      }));
    case "chunk":
      if (!event.text) return t;
      return onTurn(t, event.messageId, "chunk", (m) =>
        event.kind === "thought" ? { ...m, thought: m.thought + event.text } : { ...m, content: m.content + event.text },
      );
    case "tool":
      return onTurn(t, event.messageId, "tool", (m) => ({ ...m, tools: upsertTool(m.tools, event) }));
    case "plan":
      return onTurn(t, event.messageId, "plan", (m) => ({ ...m, plan: planEntries(event.entries) }));
    case "permission":
      return onTurn(t, event.messageId, "permission", (m) => ({ ...m, permissions: upsertPermission(m.permissions, event, m.status !== "streaming") }));
    case "permission-answer":
      return onPermission(t, event.requestId, (p) => (p.outcome === "" ? { ...p, answering: event.optionId, answerError: "" } : p));
    case "permission-answer-failed":
      return onPermission(t, event.requestId, (p) => (p.outcome === "" ? { ...p, answering: "", answerError: event.failure.message } : p));
    case "completed":
      return finish(t, {
        id: event.messageId || undefined,
        turn: event.turnId || undefined,
        content: event.content,
        sources: event.sources ?? [],
        consulted: event.consulted ?? [],
        checks: event.checks ?? [],
        status: event.stopReason === "cancelled" ? "cancelled" : "done",
        agent: event.agent || undefined,
        sandbox: event.sandbox ?? "",
        sandboxWhy: event.sandboxWhy ?? "",
      });
    case "error":
      if (event.messageId && t.messages.some((m) => m.turn === event.messageId && m.status !== "streaming")) return t;
      return finish(t, { status: "error", error: readable(event.error || "") || "The turn failed.", errorCode: errorCode(event.code) });
  }
}

function streaming(t: Thread): number {
  const i = t.messages.length - 1;
  return i >= 0 && t.messages[i].role === "assistant" && t.messages[i].status === "streaming" ? i : -1;
}

function replace(t: Thread, i: number, m: ChatMessage): Thread {
  return { ...t, messages: [...t.messages.slice(0, i), m, ...t.messages.slice(i + 1)] };
}

// onTurn applies a status, chunk, tool or plan event to the answer of its turn.
function onTurn(t: Thread, turn: string, kind: "status" | "chunk" | "tool" | "plan" | "permission", f: (m: ChatMessage) => ChatMessage): Thread {
  const known = t.messages.findLastIndex((m) => m.role === "assistant" && m.turn !== "" && m.turn === turn);
  if (known >= 0) {
    const m = t.messages[known];
    if (m.status !== "streaming" && kind === "chunk") return t; // completed already carried the whole text
    return replace(t, known, f(m));
  }
  const live = streaming(t);
  if (live >= 0 && t.messages[live].turn === "") return replace(t, live, f({ ...t.messages[live], turn }));
  // The answer finished before its first event arrived: adopt the turn for what is not text.
  const last = t.messages.length - 1;
  if (!t.running && last >= 0 && t.messages[last].orphan) {
    const adopted = { ...t.messages[last], turn, orphan: false };
    return replace(t, last, kind === "chunk" ? adopted : f(adopted));
  }
  if (kind !== "status" || t.running) return t;
  // A turn this window did not send (another window, or a reload while it ran).
  const answer = message("assistant", `live.${turn}`, { status: "streaming", turn });
  return { ...t, running: true, messages: [...t.messages, f(answer)] };
}

function finish(t: Thread, fields: Partial<ChatMessage>, started = true): Thread {
  const i = streaming(t);
  if (i < 0) return t.running ? { ...t, running: false, cancelling: false } : t;
  const next = { ...t.messages[i] };
  for (const [k, v] of Object.entries(fields)) {
    if (v !== undefined) (next as Record<string, unknown>)[k] = v;
  }
  next.orphan = started && next.turn === "";
  next.tools = endTools(next.tools);
  next.permissions = next.permissions.map(endWaiting);
  return { ...replace(t, i, next), running: false, cancelling: false };
}

// endTools marks the tool calls a turn left unfinished when it ended as stopped.
function endTools(tools: ToolActivity[]): ToolActivity[] {
  return tools.map((x) => (x.status === "completed" || x.status === "failed" ? x : { ...x, status: "stopped" }));
}

function endWaiting(p: PermissionRequest): PermissionRequest {
  return p.outcome === "" ? { ...p, outcome: "cancelled", answering: "" } : p;
}

function upsertTool(tools: ToolActivity[], e: AgentToolEvent): ToolActivity[] {
  const i = tools.findIndex((x) => x.id === e.toolCallId);
  if (i < 0) {
    const tool: ToolActivity = {
      id: e.toolCallId,
      title: e.title || "Tool call",
      status: e.status || "pending",
      kind: e.kind ?? "",
      input: e.input ?? "",
      content: e.content ?? [],
      locations: e.locations ?? [],
    };
    return [...tools, tool];
  }
  // An update carries only what changed; content and locations replace the call's.
  const old = tools[i];
  const next: ToolActivity = {
    ...old,
    title: e.title || old.title,
    status: e.status || old.status,
    kind: e.kind || old.kind,
    input: e.input || old.input,
    content: e.content ?? old.content,
    locations: e.locations ?? old.locations,
  };
  return [...tools.slice(0, i), next, ...tools.slice(i + 1)];
}

// upsertPermission adds a request or its decision. Events may arrive out of
// order: a decision is never undone by the request's first event arriving
// late, and a request of a finished answer cannot be answered any more.
function upsertPermission(list: PermissionRequest[], e: AgentPermissionEvent, finished: boolean): PermissionRequest[] {
  const i = list.findIndex((p) => p.requestId === e.requestId);
  const old = i >= 0 ? list[i] : null;
  const outcome: PermissionOutcome = e.outcome === "selected" || e.outcome === "cancelled" ? e.outcome : "";
  let next: PermissionRequest = {
    requestId: e.requestId,
    toolCallId: e.toolCallId || old?.toolCallId || "",
    title: e.title || old?.title || "Permission request",
    kind: e.kind || old?.kind || "",
    input: e.input || old?.input || "",
    locations: e.locations ?? old?.locations ?? [],
    options: e.options ?? old?.options ?? [],
    inVault: e.inVault || (old?.inVault ?? false),
    outcome: outcome || old?.outcome || "",
    optionId: e.optionId || old?.optionId || "",
    auto: e.auto || (old?.auto ?? false),
    answering: outcome ? "" : old?.answering ?? "",
    answerError: outcome ? "" : old?.answerError ?? "",
  };
  if (finished) next = endWaiting(next);
  return old ? [...list.slice(0, i), next, ...list.slice(i + 1)] : [...list, next];
}

// onPermission applies f to the request with this id, in whichever answer holds it.
function onPermission(t: Thread, requestId: string, f: (p: PermissionRequest) => PermissionRequest): Thread {
  for (let i = t.messages.length - 1; i >= 0; i--) {
    const m = t.messages[i];
    const j = m.permissions.findIndex((p) => p.requestId === requestId);
    if (j < 0) continue;
    const p = f(m.permissions[j]);
    if (p === m.permissions[j]) return t;
    return replace(t, i, { ...m, permissions: [...m.permissions.slice(0, j), p, ...m.permissions.slice(j + 1)] });
  }
  return t;
}

/** waitingPermissions lists the requests of a message the user can still answer. */
export function waitingPermissions(m: ChatMessage): PermissionRequest[] {
  return m.permissions.filter((p) => p.outcome === "" && !p.auto);
}

/** planEntries reads an agent:plan's entries; an unknown status counts as pending, an unknown priority as medium. */
export function planEntries(entries: AgentPlanEvent["entries"]): PlanEntry[] {
  return (entries ?? [])
    .filter((e) => typeof e?.content === "string" && e.content.trim() !== "")
    .map((e) => ({
      content: e.content.trim(),
      priority: e.priority === "high" || e.priority === "low" ? e.priority : "medium",
      status: e.status === "in_progress" || e.status === "completed" ? e.status : "pending",
    }));
}

/** planProgress counts the plan's completed entries. */
export function planProgress(plan: readonly PlanEntry[]): { done: number; total: number } {
  return { done: plan.filter((e) => e.status === "completed").length, total: plan.length };
}

/**
 * fromStored turns a stored conversation into messages, as they were shown
 * when their turns ended: an answer with its tool calls, its permission
 * decisions, its sources and what else was consulted; a failed turn shows
 * its error, by its code (older conversations keep none: internal).
 */
export function fromStored(c: Conversation): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of c.messages) {
    const failed = m.error ? { status: "error" as const, error: m.error, errorCode: errorCode(m.errorCode) } : {};
    if (m.role === "user") {
      out.push(message("user", m.id, { content: m.content }));
      if (m.error) out.push(message("assistant", `${m.id}.error`, { ...failed, agent: m.agent }));
      continue;
    }
    // A turn the user cancelled reopens as cancelled, not as done.
    const cancelled = !m.error && m.stopReason === "cancelled" ? { status: "cancelled" as const } : {};
    out.push(
      message("assistant", m.id, {
        content: m.content,
        sources: m.sources,
        consulted: m.consulted,
        checks: m.checks,
        ...cancelled,
        ...failed,
        agent: m.agent,
        sandbox: m.sandbox,
        sandboxWhy: m.sandboxWhy,
        plan: planEntries(m.plan),
        tools: endTools(m.tools.reduce<ToolActivity[]>(upsertTool, [])),
        permissions: m.permissions.reduce<PermissionRequest[]>((list, p) => upsertPermission(list, p, true), []),
      }),
    );
  }
  return out;
}

/** lastAnswer is the thread's newest assistant message, if any. */
export function lastAnswer(t: Thread): ChatMessage | null {
  for (let i = t.messages.length - 1; i >= 0; i--) if (t.messages[i].role === "assistant") return t.messages[i];
  return null;
}

/** canRetry: the last turn failed or was cancelled, and there is a question to ask again. */
export function canRetry(t: Thread): boolean {
  const a = lastAnswer(t);
  return !t.running && a !== null && (a.status === "error" || a.status === "cancelled") && retryQuestion(t) !== "";
}

/** retryQuestion is the question of the last turn: the one sent in this session, else the last stored one. */
export function retryQuestion(t: Thread): string {
  if (t.last) return t.last.question;
  for (let i = t.messages.length - 1; i >= 0; i--) if (t.messages[i].role === "user") return t.messages[i].content;
  return "";
}
