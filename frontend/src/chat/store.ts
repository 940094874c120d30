// The chat store: holds the threads (reduceChats) and the anchors
// (reduceAnchors), feeds agent:* events into them, and runs the backend
// calls that start, cancel and load turns. Views subscribe and render.

import * as backend from "../lib/backend";
import { AgentChunk, AgentCompleted, AgentError, AgentPermission, AgentPlan, AgentStatus, AgentTool } from "../lib/events";
import { initialAnchors, reduceAnchors, type AnchorEvent, type AnchorsState } from "./anchors";
import { sourceLinks } from "./sources";
import { emptyThread, initialChats, reduceChats, retryQuestion, type AskedTurn, type ChatEvent, type ChatsState } from "./state";

export interface ChatStore {
  chats(): ChatsState;
  anchors(): AnchorsState;
  dispatch(e: ChatEvent): void;
  anchor(e: AnchorEvent): void;
  subscribe(listener: () => void): void;
  /** load reads a stored conversation once (again after a failure). */
  load(id: string): void;
  /** ask starts a turn; false when the backend refused to start it (the error is in the thread). */
  ask(id: string, turn: AskedTurn): Promise<boolean>;
  cancel(id: string): void;
  /** answerPermission sends the user's choice for a permission request; the backend's decision event ends it. */
  answerPermission(id: string, requestId: string, optionId: string): void;
  /**
   * retry asks the last question again, of the agent chosen now (the last
   * one may be what failed); request is used when the thread has no turn of
   * its own from this session (a stored failure).
   */
  retry(id: string, request: AskedTurn["request"], agent: string): Promise<boolean>;
  /** reset drops every thread and anchor, e.g. when another vault opens. */
  reset(): void;
  /** forget empties a thread that was deleted (a view showing it shows no messages). */
  forget(id: string): void;
  /** connect starts feeding agent:* events into the threads. */
  connect(): void;
}

export function createChatStore(): ChatStore {
  let chats: ChatsState = initialChats;
  let anchors: AnchorsState = initialAnchors;
  let seq = 0;
  const listeners: (() => void)[] = [];
  const notify = () => listeners.forEach((f) => f());

  function dispatch(e: ChatEvent) {
    const next = reduceChats(chats, e);
    if (next === chats) return;
    chats = next;
    notify();
    if (e.type === "completed" || (e.type === "loaded" && !chats[e.id]?.running)) void checkSources(e.type === "completed" ? e.conversationId : e.id);
  }

  // checkSources asks whether each source of the thread still opens, so that
  // a moved or deleted paper says so instead of failing on click.
  async function checkSources(id: string) {
    const t = chats[id];
    if (!t) return;
    const uris = new Set<string>();
    for (const m of t.messages) {
      for (const l of sourceLinks(m.content, m.sources)) if (!(l.uri in t.exists)) uris.add(l.uri);
    }
    if (uris.size === 0) return;
    const exists: Record<string, boolean> = {};
    await Promise.all(
      [...uris].map(async (u) => {
        try {
          exists[u] = await backend.sourceExists(u);
        } catch {
          // Unknown: leave it unchecked; a click checks again.
        }
      }),
    );
    dispatch({ type: "sources-checked", id, exists });
  }

  async function ask(id: string, turn: AskedTurn): Promise<boolean> {
    dispatch({ type: "sent", id, turn, localId: `local-${++seq}` });
    try {
      await backend.ask(id, turn.agent, turn.request, turn.question);
      return true;
    } catch (err) {
      dispatch({ type: "ask-failed", id, failure: backend.failure(err) });
      return false;
    }
  }

  return {
    chats: () => chats,
    anchors: () => anchors,
    dispatch,
    anchor(e) {
      const next = reduceAnchors(anchors, e);
      if (next === anchors) return;
      anchors = next;
      notify();
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    load(id) {
      const t = chats[id];
      if (t && t.phase !== "error") return;
      dispatch({ type: "load", id });
      backend.conversation(id).then(
        (conversation) => dispatch({ type: "loaded", id, conversation }),
        (err) => dispatch({ type: "load-failed", id, error: backend.errorText(err) }),
      );
    },
    ask,
    cancel(id) {
      dispatch({ type: "cancel", id });
      backend.cancelTurn(id).catch(() => {});
    },
    answerPermission(id, requestId, optionId) {
      dispatch({ type: "permission-answer", id, requestId, optionId });
      backend.answerPermission(id, requestId, optionId).catch((err) => dispatch({ type: "permission-answer-failed", id, requestId, failure: backend.failure(err) }));
    },
    async retry(id, request, agent) {
      const t = chats[id];
      if (!t || t.running) return false;
      const question = retryQuestion(t);
      if (!question) return false;
      return ask(id, { ...(t.last ?? { question, request }), agent });
    },
    connect() {
      backend.on(AgentStatus, (p) => dispatch({ type: "status", ...p }));
      backend.on(AgentChunk, (p) => dispatch({ type: "chunk", ...p }));
      backend.on(AgentTool, (p) => dispatch({ type: "tool", ...p }));
      backend.on(AgentPlan, (p) => dispatch({ type: "plan", ...p }));
      backend.on(AgentCompleted, (p) => dispatch({ type: "completed", ...p }));
      backend.on(AgentError, (p) => dispatch({ type: "error", ...p }));
      backend.on(AgentPermission, (p) => dispatch({ type: "permission", ...p }));
    },
    forget(id) {
      if (!(id in chats)) return;
      chats = { ...chats, [id]: { ...emptyThread(id), phase: "ready" } };
      notify();
    },
    reset() {
      chats = initialChats;
      anchors = initialAnchors;
      notify();
    },
  };
}

