import { describe, expect, it } from "vitest";
import type { ContextRequest, Conversation, StoredMessage } from "../lib/backend";
import {
  canRetry,
  emptyThread,
  fromStored,
  planEntries,
  planProgress,
  reduceChats,
  retryQuestion,
  waitingPermissions,
  type ChatEvent,
  type ChatsState,
  type Thread,
  type ToolActivity,
} from "./state";

const id = "paper.papers_bitcoin";
const request: ContextRequest = { surface: "sidebar", currentPaper: "papers/bitcoin", selections: [], mentions: [], remote: false };
const sent: ChatEvent = { type: "sent", id, turn: { question: "double spending?", request, agent: "" }, localId: "l1" };
const status: ChatEvent = {
  type: "status",
  conversationId: id,
  messageId: "m-turn",
  action: "new",
  note: "",
  mode: "mcp",
  allowed: [{ kind: "paper", ref: "papers/bitcoin" }],
  fingerprint: "sha256:1",
};
const chunk = (text: string, kind: "message" | "thought" = "message"): ChatEvent => ({ type: "chunk", conversationId: id, messageId: "m-turn", kind, text });
const tool = (status: string, title?: string): ChatEvent => ({ type: "tool", conversationId: id, messageId: "m-turn", toolCallId: "search-1", title, status });
// called is a tool call as the reducer keeps it, with nothing but an id, title and status.
const called = (title: string, status: string): ToolActivity => ({ id: "search-1", title, status, kind: "", input: "", content: [], locations: [] });
const plan = (...entries: { content: string; priority?: string; status?: string }[]): ChatEvent => ({ type: "plan", conversationId: id, messageId: "m-turn", entries });
const completed = (content: string, stopReason = "end_turn"): ChatEvent => ({
  type: "completed",
  conversationId: id,
  turnId: "m-turn",
  messageId: "m-reply",
  content,
  sources: ["papers/bitcoin/bitcoin.pdf#page=2"],
  consulted: [],
  checks: [],
  stopReason,
  agent: "builtin",
  sandbox: "none",
  sandboxWhy: "the built-in agent is Agentero itself",
});
const failed = (code: string, error: string, messageId?: string): ChatEvent => ({ type: "error", conversationId: id, messageId, code, error });

// stored is a conversation as backend.conversation() returns it; a message
// names what it has, the rest is what Go stores for a message without it.
function stored(messages: (Partial<StoredMessage> & Pick<StoredMessage, "id" | "role" | "content">)[], agent = ""): Conversation {
  const at = "2026-11-29T10:00:00Z";
  return {
    id,
    surface: "sidebar",
    agent,
    runtimeId: "",
    providerSessionId: "",
    fingerprint: "",
    sessionSeen: 0,
    createdAt: at,
    updatedAt: at,
    messages: messages.map((m) => ({ sources: [], consulted: [], checks: [], error: "", errorCode: "", agent: "", stopReason: "", sandbox: "", sandboxWhy: "", plan: [], tools: [], permissions: [], at, ...m })),
  };
}

function run(...events: ChatEvent[]): Thread {
  const state = events.reduce<ChatsState>(reduceChats, {});
  return state[id];
}

function answer(t: Thread) {
  return t.messages[t.messages.length - 1];
}

describe("a turn streams and completes", () => {
  it("sent opens the question and a streaming answer", () => {
    const t = run(sent);
    expect(t.running).toBe(true);
    expect(t.messages.map((m) => [m.role, m.status, m.content])).toEqual([
      ["user", "done", "double spending?"],
      ["assistant", "streaming", ""],
    ]);
  });

  it("status gives the answer its context and turn", () => {
    const a = answer(run(sent, status));
    expect(a.turn).toBe("m-turn");
    expect(a.context).toEqual({ mode: "mcp", allowed: [{ kind: "paper", ref: "papers/bitcoin" }], action: "new", note: "", fingerprint: "sha256:1" });
  });

  it("chunks append text and thoughts separately", () => {
    const a = answer(run(sent, status, chunk("Hello "), chunk("hmm", "thought"), chunk("world")));
    expect(a.content).toBe("Hello world");
    expect(a.thought).toBe("hmm");
    expect(a.status).toBe("streaming");
  });

  it("tool calls are upserted by id, keeping the title on status-only updates", () => {
    const a = answer(run(sent, status, tool("in_progress", "context_search: double spending"), tool("completed")));
    expect(a.tools).toEqual([called("context_search: double spending", "completed")]);
  });

  it("completed carries the whole answer, its id and sources", () => {
    const t = run(sent, status, chunk("partial"), completed("the whole answer"));
    expect(t.running).toBe(false);
    expect(answer(t)).toMatchObject({ id: "m-reply", content: "the whole answer", status: "done", sources: ["papers/bitcoin/bitcoin.pdf#page=2"] });
  });

  it("a cancelled stop reason marks the answer cancelled and hanging tools stopped", () => {
    const t = run(sent, status, tool("in_progress", "search"), { type: "cancel", id }, completed("", "cancelled"));
    expect(answer(t).status).toBe("cancelled");
    expect(answer(t).tools[0].status).toBe("stopped");
    expect(t.cancelling).toBe(false);
    expect(canRetry(t)).toBe(true);
  });
});

describe("errors", () => {
  it("agent:error ends the turn with the error and allows a retry", () => {
    const t = run(sent, status, failed("crashed", "the agent stopped (exit status 2)", "m-turn"));
    expect(answer(t)).toMatchObject({ status: "error", errorCode: "crashed", error: "the agent stopped (exit status 2)" });
    expect(t.running).toBe(false);
    expect(canRetry(t)).toBe(true);
    expect(retryQuestion(t)).toBe("double spending?");
  });

  it("an error without a turn id (before the session) ends the running turn", () => {
    const t = run(sent, failed("not-configured", 'no agent named "x" is configured'));
    expect(answer(t)).toMatchObject({ status: "error", errorCode: "not-configured" });
  });

  it("Ask refused: the answer says why", () => {
    const t = run(sent, { type: "ask-failed", id, failure: { code: "busy", message: "this conversation is still answering; cancel it or wait" } });
    expect(answer(t)).toMatchObject({ status: "error", errorCode: "busy", error: "this conversation is still answering; cancel it or wait", orphan: false });
  });
});

describe("events out of order (the dev bridge reorders them)", () => {
  it("a chunk after completed does not reopen or change the answer", () => {
    const t = run(sent, status, completed("whole"), chunk("late"));
    expect(t.messages).toHaveLength(2);
    expect(answer(t)).toMatchObject({ content: "whole", status: "done" });
    expect(t.running).toBe(false);
  });

  it("completed before any other event, then late status, tool and chunk", () => {
    const t = run(sent, completed("whole"), status, tool("in_progress", "search"), chunk("whole"), tool("completed"));
    expect(t.messages).toHaveLength(2);
    const a = answer(t);
    expect(a).toMatchObject({ content: "whole", status: "done", turn: "m-turn" });
    expect(a.context?.allowed).toEqual([{ kind: "paper", ref: "papers/bitcoin" }]);
    expect(a.tools).toEqual([called("search", "completed")]);
  });

  it("completed without its turn id (an older backend): the late events adopt the finished answer", () => {
    const t = run(sent, { ...completed("whole"), turnId: "" } as ChatEvent, status, tool("in_progress", "search"), chunk("whole"));
    expect(t.messages).toHaveLength(2);
    expect(answer(t)).toMatchObject({ content: "whole", status: "done", turn: "m-turn", orphan: false });
    expect(answer(t).tools).toEqual([called("search", "in_progress")]);
  });

  it("completed names its turn: the next turn's status is not taken for a late one of the finished answer", () => {
    const t = run(sent, completed("whole"), { ...status, messageId: "m-other" } as ChatEvent);
    expect(t.messages.map((m) => [m.role, m.turn, m.context?.fingerprint ?? null])).toEqual([
      ["user", "", null],
      ["assistant", "m-turn", null],
      ["assistant", "m-other", "sha256:1"],
    ]);
  });

  it("a late error of a finished turn is ignored", () => {
    const t = run(sent, status, completed("whole"), failed("internal", "x", "m-turn"));
    expect(answer(t).status).toBe("done");
  });
});

describe("turns this window did not send", () => {
  it("a status opens a streaming answer; chunks alone do not", () => {
    const loaded = reduceChats({}, { type: "loaded", id, conversation: stored([], "builtin") });
    expect(reduceChats(loaded, chunk("stray"))[id].messages).toHaveLength(0);
    const t = [status, chunk("live")].reduce(reduceChats, loaded)[id];
    expect(t.running).toBe(true);
    expect(answer(t)).toMatchObject({ role: "assistant", status: "streaming", content: "live", turn: "m-turn" });
  });

  it("a stored conversation is not adopted by a new turn's status", () => {
    const loaded = reduceChats({}, {
      type: "loaded",
      id,
      conversation: stored([{ id: "a", role: "assistant", content: "old" }], "builtin"),
    });
    const t = reduceChats(loaded, status)[id];
    expect(t.messages).toHaveLength(2);
    expect(t.messages[0].context).toBeNull();
  });
});

describe("loading", () => {
  it("fromStored reopens a cancelled turn as cancelled, a finished one as done", () => {
    const got = fromStored(
      stored([
        { id: "u1", role: "user", content: "first" },
        { id: "a1", role: "assistant", content: "partial", stopReason: "cancelled" },
        { id: "u2", role: "user", content: "second" },
        { id: "a2", role: "assistant", content: "whole", stopReason: "end_turn" },
      ]),
    );
    expect(got.map((m) => m.status)).toEqual(["done", "cancelled", "done", "done"]);
  });

  it("fromStored shows a failed turn's error as its answer", () => {
    const got = fromStored(
      stored(
        [
          { id: "u1", role: "user", content: "q1" },
          { id: "a1", role: "assistant", content: "a1", sources: ["papers/x/x.pdf#page=1"] },
          { id: "u2", role: "user", content: "q2", error: "the agent did not answer within 5m0s" },
        ],
        "builtin",
      ),
    );
    expect(got.map((m) => [m.role, m.status, m.content || m.error])).toEqual([
      ["user", "done", "q1"],
      ["assistant", "done", "a1"],
      ["user", "done", "q2"],
      ["assistant", "error", "the agent did not answer within 5m0s"],
    ]);
  });

  it("a stored failure can be retried with its question", () => {
    const t = reduceChats({}, {
      type: "loaded",
      id,
      conversation: stored([{ id: "u", role: "user", content: "why?", error: "the agent stopped" }]),
    })[id];
    expect(canRetry(t)).toBe(true);
    expect(retryQuestion(t)).toBe("why?");
  });

  it("a load that arrives while a turn runs keeps the turn", () => {
    const t = run(sent, { type: "loaded", id, conversation: stored([]) });
    expect(t.phase).toBe("ready");
    expect(t.messages).toHaveLength(2);
  });

  it("load failure is shown; load again clears it", () => {
    let state = reduceChats({}, { type: "load-failed", id, error: "damaged" });
    expect(state[id]).toMatchObject({ phase: "error", loadError: "damaged" });
    state = reduceChats(state, { type: "load", id });
    expect(state[id].phase).toBe("loading");
  });

  it("events of other conversations leave a thread alone", () => {
    const state = reduceChats({}, sent);
    const other = reduceChats(state, { ...(chunk("x") as object), conversationId: "quick.1" } as ChatEvent);
    expect(other[id]).toBe(state[id]);
  });

  it("sources-checked records which sources still open", () => {
    const t = run(sent, { type: "sources-checked", id, exists: { "papers/a/a.pdf#page=1": false } });
    expect(t.exists).toEqual({ "papers/a/a.pdf#page=1": false });
  });

  it("emptyThread starts loading", () => {
    expect(emptyThread("quick.1")).toMatchObject({ id: "quick.1", phase: "loading", messages: [], running: false });
  });
});

describe("the agent's plan", () => {
  const read = { content: "Search the paper for double spending", priority: "high", status: "in_progress" };
  const answerIt = { content: "Answer with page citations", priority: "medium", status: "pending" };

  it("a plan event gives the running answer its entries, in order", () => {
    const a = answer(run(sent, status, plan(read, answerIt)));
    expect(a.status).toBe("streaming");
    expect(a.plan).toEqual([
      { content: "Search the paper for double spending", priority: "high", status: "in_progress" },
      { content: "Answer with page citations", priority: "medium", status: "pending" },
    ]);
  });

  it("each plan replaces the whole list (the agent sends it complete)", () => {
    const a = answer(run(sent, status, plan(read, answerIt), plan({ ...read, status: "completed" }, { ...answerIt, status: "in_progress" })));
    expect(a.plan.map((e) => [e.content, e.status])).toEqual([
      ["Search the paper for double spending", "completed"],
      ["Answer with page citations", "in_progress"],
    ]);
    expect(planProgress(a.plan)).toEqual({ done: 1, total: 2 });
  });

  it("the latest plan stays on the finished answer, as the agent last sent it", () => {
    const t = run(sent, status, tool("completed", "search"), plan({ ...read, status: "completed" }, answerIt), completed("whole"));
    expect(answer(t)).toMatchObject({ status: "done", content: "whole" });
    expect(answer(t).plan.map((e) => e.status)).toEqual(["completed", "pending"]);
    expect(answer(t).tools).toHaveLength(1);
  });

  it("a plan that arrives before the status opens nothing new and names the turn", () => {
    const t = run(sent, plan(read), status);
    expect(t.messages).toHaveLength(2);
    expect(answer(t)).toMatchObject({ turn: "m-turn", plan: [{ content: read.content }] });
    expect(answer(t).context?.mode).toBe("mcp");
  });

  it("a late plan of a finished turn still decorates its answer", () => {
    const t = run(sent, status, completed("whole"), plan({ ...read, status: "completed" }));
    expect(t.messages).toHaveLength(2);
    expect(answer(t).plan).toEqual([{ content: read.content, priority: "high", status: "completed" }]);
    expect(t.running).toBe(false);
  });

  it("a plan alone does not open an answer for a turn this window did not send", () => {
    const loaded = reduceChats({}, { type: "loaded", id, conversation: stored([], "builtin") });
    expect(reduceChats(loaded, plan(read))).toBe(loaded);
  });

  it("a plan of another turn leaves the earlier answer alone", () => {
    const first = run(sent, status, plan(read), completed("one"));
    const second = [{ ...sent, localId: "l2" } as ChatEvent, { ...status, messageId: "m-turn-2" } as ChatEvent, { ...plan(answerIt), messageId: "m-turn-2" } as ChatEvent].reduce(
      reduceChats,
      { [id]: first },
    )[id];
    expect(second.messages[1].plan.map((e) => e.content)).toEqual([read.content]);
    expect(answer(second).plan.map((e) => e.content)).toEqual([answerIt.content]);
  });

  it("a stored answer shows the plan it was stored with", () => {
    const got = fromStored(
      stored([
        {
          id: "a",
          role: "assistant",
          content: "x",
          plan: [
            { content: "Read the abstract", priority: "high", status: "completed" },
            { content: "Compare", status: "in_progress" },
          ],
        },
      ]),
    );
    expect(got[0].plan.map((e) => [e.content, e.status])).toEqual([
      ["Read the abstract", "completed"],
      ["Compare", "in_progress"],
    ]);
  });

  it("an empty plan clears the list; stored messages without one have none", () => {
    expect(answer(run(sent, status, plan(read), plan())).plan).toEqual([]);
    expect(answer(run(sent, status, plan(read), { type: "plan", conversationId: id, messageId: "m-turn", entries: null })).plan).toEqual([]);
    expect(fromStored(stored([{ id: "a", role: "assistant", content: "x" }]))[0].plan).toEqual([]);
  });

  it("planEntries reads unknown values safely", () => {
    expect(
      planEntries([
        { content: "  trim me  ", priority: "urgent", status: "blocked" },
        { content: "   " },
        { content: "low one", priority: "low", status: "completed" },
      ]),
    ).toEqual([
      { content: "trim me", priority: "medium", status: "pending" },
      { content: "low one", priority: "low", status: "completed" },
    ]);
    expect(planProgress([])).toEqual({ done: 0, total: 0 });
  });
});

describe("which agent answered", () => {
  it("a stored answer and a stored failure keep their agents; older messages have none", () => {
    const got = fromStored(
      stored(
        [
          { id: "u1", role: "user", content: "q1", agent: "builtin" },
          { id: "a1", role: "assistant", content: "a1", agent: "builtin" },
          { id: "u2", role: "user", content: "q2", error: "the agent stopped", agent: "claude" },
          { id: "a0", role: "assistant", content: "old" },
        ],
        "claude",
      ),
    );
    expect(got.filter((m) => m.role === "assistant").map((m) => m.agent)).toEqual(["builtin", "claude", ""]);
  });

  it("a sent turn's answer names the agent asked; completed names the one that answered", () => {
    const asked = reduceChats({}, { type: "sent", id, turn: { question: "q", request, agent: "claude" }, localId: "l9" });
    expect(asked[id].messages[1].agent).toBe("claude");
    const byDefault = reduceChats({}, { ...sent, localId: "l8" });
    expect(byDefault[id].messages[1].agent).toBe("");
    const done = reduceChats(byDefault, {
      type: "completed",
      conversationId: id,
      turnId: "m-q",
      messageId: "m-a",
      content: "answer",
      sources: [],
      consulted: [],
      checks: [],
      stopReason: "end_turn",
      agent: "builtin",
      sandbox: "none",
      sandboxWhy: "the built-in agent is Agentero itself",
    });
    expect(done[id].messages[1].agent).toBe("builtin");
    expect(done[id].messages[1].sandbox).toBe("none");
  });
});

describe("tool calls as ACP describes them", () => {
  const edit: ChatEvent = {
    type: "tool",
    conversationId: id,
    messageId: "m-turn",
    toolCallId: "edit-1",
    title: "Edit notes/consensus/raft.md",
    kind: "edit",
    status: "pending",
    input: '{"path":"notes/consensus/raft.md"}',
    locations: [{ path: "/vault/notes/consensus/raft.md", line: 3, inVault: true, citationUri: "notes/consensus/raft.md" }],
  };
  const diff = { type: "diff", path: "notes/consensus/raft.md", oldText: "a\n", newText: "b\n" };

  it("kind, input, content and locations are kept; an update replaces only what it carries", () => {
    const a = answer(
      run(sent, status, edit, { type: "tool", conversationId: id, messageId: "m-turn", toolCallId: "edit-1", status: "completed", content: [diff] }),
    );
    expect(a.tools).toEqual([
      {
        id: "edit-1",
        title: "Edit notes/consensus/raft.md",
        status: "completed",
        kind: "edit",
        input: '{"path":"notes/consensus/raft.md"}',
        content: [diff],
        locations: [{ path: "/vault/notes/consensus/raft.md", line: 3, inVault: true, citationUri: "notes/consensus/raft.md" }],
      },
    ]);
  });

  it("new locations replace the old ones", () => {
    const moved = { path: "/elsewhere/x.md", inVault: false };
    const a = answer(run(sent, status, edit, { type: "tool", conversationId: id, messageId: "m-turn", toolCallId: "edit-1", locations: [moved] }));
    expect(a.tools[0].locations).toEqual([moved]);
    expect(a.tools[0].status).toBe("pending");
  });
});

describe("permission requests", () => {
  const options = [
    { id: "allow", name: "Allow once", kind: "allow_once" },
    { id: "reject", name: "Reject", kind: "reject_once" },
  ];
  const asked = (fields: Partial<Extract<ChatEvent, { type: "permission" }>> = {}): ChatEvent => ({
    type: "permission",
    conversationId: id,
    messageId: "m-turn",
    requestId: "r1",
    toolCallId: "edit-1",
    title: "Edit notes/consensus/raft.md",
    kind: "edit",
    options,
    inVault: true,
    auto: false,
    ...fields,
  });
  const decided = (optionId: string, outcome = "selected") => asked({ outcome, optionId });

  it("a request waits in its answer with the agent's options", () => {
    const a = answer(run(sent, status, asked()));
    expect(a.permissions).toHaveLength(1);
    expect(a.permissions[0]).toMatchObject({ requestId: "r1", title: "Edit notes/consensus/raft.md", kind: "edit", inVault: true, outcome: "", options });
    expect(waitingPermissions(a).map((p) => p.requestId)).toEqual(["r1"]);
  });

  it("answering marks the card until the decision arrives, which replaces it", () => {
    let t = run(sent, status, asked(), { type: "permission-answer", id, requestId: "r1", optionId: "reject" });
    expect(answer(t).permissions[0]).toMatchObject({ answering: "reject", outcome: "" });
    t = run(sent, status, asked(), { type: "permission-answer", id, requestId: "r1", optionId: "reject" }, decided("reject"));
    expect(answer(t).permissions[0]).toMatchObject({ answering: "", outcome: "selected", optionId: "reject" });
    expect(waitingPermissions(answer(t))).toEqual([]);
  });

  it("an answer that could not be sent says why and can be given again", () => {
    const t = run(
      sent,
      status,
      asked(),
      { type: "permission-answer", id, requestId: "r1", optionId: "allow" },
      { type: "permission-answer-failed", id, requestId: "r1", failure: { code: "not-found", message: "no such request" } },
    );
    expect(answer(t).permissions[0]).toMatchObject({ answering: "", answerError: "no such request", outcome: "" });
  });

  it("a decision arriving before the request is not undone by it", () => {
    const a = answer(run(sent, status, decided("allow"), asked()));
    expect(a.permissions).toHaveLength(1);
    expect(a.permissions[0]).toMatchObject({ outcome: "selected", optionId: "allow", title: "Edit notes/consensus/raft.md" });
  });

  it("a request still waiting when the turn ends reads as cancelled", () => {
    const t = run(sent, status, asked(), { type: "cancel", id }, completed("", "cancelled"));
    expect(answer(t).permissions[0].outcome).toBe("cancelled");
    const late = run(sent, status, completed("done"), asked({ requestId: "r2" }));
    expect(answer(late).permissions[0]).toMatchObject({ requestId: "r2", outcome: "cancelled" });
  });

  it("automatic decisions are kept but never wait for the user", () => {
    const a = answer(
      run(sent, status, asked({ requestId: "r3", title: "mcp__agentero-context__context_search", kind: "other", inVault: false, auto: true, outcome: "selected", optionId: "allow" })),
    );
    expect(a.permissions[0]).toMatchObject({ auto: true, outcome: "selected" });
    expect(waitingPermissions(a)).toEqual([]);
  });

  it("a request of another conversation or turn does not land here", () => {
    const t = run(sent, status, asked({ conversationId: "quick.1" }), asked({ messageId: "m-other", requestId: "r9" }));
    expect(answer(t).permissions).toEqual([]);
  });
});

describe("sources the answer used", () => {
  it("completed keeps the cited sources and, apart, the consulted ones", () => {
    const t = run(sent, status, { ...completed("see [papers/bitcoin/bitcoin.pdf#page=2]"), consulted: ["papers/bitcoin/bitcoin.pdf#page=5"] } as ChatEvent);
    expect(answer(t)).toMatchObject({ sources: ["papers/bitcoin/bitcoin.pdf#page=2"], consulted: ["papers/bitcoin/bitcoin.pdf#page=5"] });
    const none = run(sent, status, { ...completed("x"), consulted: null } as ChatEvent);
    expect(answer(none).consulted).toEqual([]);
  });

  it("the answer keeps its key when the backend names it", () => {
    const t = run(sent, status, completed("whole"));
    expect(answer(t)).toMatchObject({ id: "m-reply", key: "l1.a" });
  });
});

describe("a reopened conversation shows what its turns showed", () => {
  const options = [
    { id: "allow", name: "Allow", kind: "allow_once" },
    { id: "reject", name: "Reject", kind: "reject_once" },
  ];
  const ids = { conversationId: id, messageId: "q1" };
  const c = stored([
    { id: "q1", role: "user", content: "How is a leader elected?" },
    {
      id: "a1",
      role: "assistant",
      content: "See [p. 5](papers/raft/raft.pdf#page=5).",
      sources: ["papers/raft/raft.pdf#page=5"],
      consulted: ["papers/raft/raft.pdf#page=9"],
      tools: [
        { ...ids, toolCallId: "t1", title: "mcp__agentero-context__context_search", kind: "other", status: "completed", input: '{"query":"leader"}', content: [{ type: "text", text: "{}" }], locations: [] },
        { ...ids, toolCallId: "t2", title: "Edit raft.md", kind: "edit", status: "pending", content: [], locations: [{ path: "/v/notes/raft.md", inVault: true, citationUri: "notes/raft.md" }] },
      ],
      permissions: [
        { ...ids, requestId: "p1", toolCallId: "t1", title: "mcp__agentero-context__context_search", options, locations: [], inVault: false, outcome: "selected", optionId: "allow", auto: true },
        { ...ids, requestId: "p2", toolCallId: "t2", title: "Edit raft.md", kind: "edit", options, locations: [], inVault: true, outcome: "selected", optionId: "reject", auto: false },
      ],
    },
    { id: "q2", role: "user", content: "again?", error: "the agent did not answer initialize in 30 s", errorCode: "not-configured" },
    { id: "q3", role: "user", content: "and?" },
    { id: "a3", role: "assistant", content: "partial", error: "the agent stopped (exit status 2)", errorCode: "crashed", tools: [{ ...ids, toolCallId: "t9", title: "read", status: "in_progress", content: [], locations: [] }] },
  ]);
  const got = fromStored(c);

  it("an answer keeps its tool calls, decisions, sources and what else was consulted", () => {
    const a = got[1];
    expect(a.tools.map((t) => [t.id, t.kind, t.status, t.input])).toEqual([
      ["t1", "other", "completed", '{"query":"leader"}'],
      ["t2", "edit", "stopped", ""],
    ]);
    expect(a.tools[1].locations).toEqual([{ path: "/v/notes/raft.md", inVault: true, citationUri: "notes/raft.md" }]);
    expect(a.permissions.map((p) => [p.requestId, p.auto, p.outcome, p.optionId, p.inVault])).toEqual([
      ["p1", true, "selected", "allow", false],
      ["p2", false, "selected", "reject", true],
    ]);
    expect(a.sources).toEqual(["papers/raft/raft.pdf#page=5"]);
    expect(a.consulted).toEqual(["papers/raft/raft.pdf#page=9"]);
  });

  it("a failed turn reads by its stored code", () => {
    expect(got.map((m) => [m.role, m.status, m.errorCode])).toEqual([
      ["user", "done", ""],
      ["assistant", "done", ""],
      ["user", "done", ""],
      ["assistant", "error", "not-configured"],
      ["user", "done", ""],
      ["assistant", "error", "crashed"],
    ]);
    expect(got[5].tools.map((t) => t.status)).toEqual(["stopped"]);
  });
});
