import { afterEach, describe, expect, it, vi } from "vitest";
import { createChatStore, type ChatStore } from "./store";
import type { Thread } from "./state";
// A conversation as Go stores and returns it: .agentero/chats/p/state.json
// written by backend/acp's TestPlanIsStored (a scripted agent that sends a
// plan on its first answer).
import storedJSON from "./testdata/state.json?raw";

// bridge stands in for the Wails bridge the generated bindings call
// (window.go.main.App.*), so that these tests go through backend.ts as the app does.
function bridge(app: Record<string, (...args: unknown[]) => Promise<unknown>>) {
  vi.stubGlobal("window", { go: { main: { App: { SourceExists: async () => true, ...app } } } });
}

afterEach(() => vi.unstubAllGlobals());

async function settled(store: ChatStore, id: string): Promise<Thread> {
  await vi.waitFor(() => {
    const t = store.chats()[id];
    if (!t || t.phase === "loading" || t.running) throw new Error("not settled");
  });
  return store.chats()[id];
}

describe("a reopened conversation", () => {
  it("shows which agent answered and the plan it was stored with", async () => {
    const conversation = vi.fn(async () => JSON.parse(storedJSON));
    bridge({ Conversation: conversation });
    const store = createChatStore();
    store.load("p");
    const t = await settled(store, "p");
    expect(conversation).toHaveBeenCalledWith("p");
    expect(t.phase).toBe("ready");
    expect(t.messages.map((m) => [m.role, m.content, m.agent])).toEqual([
      ["user", "first", ""],
      ["assistant", "peer answer 1", "planner"],
      ["user", "second", ""],
      ["assistant", "peer answer 2", "planner"],
    ]);
    expect(t.messages[1].plan).toEqual([
      { content: "Read the abstract", priority: "high", status: "completed" },
      { content: "Compare with the related work", priority: "medium", status: "in_progress" },
    ]);
    expect(t.messages[3].plan).toEqual([]);
  });

  it("keeps a stored failure's agent and error, and an answer's sources", async () => {
    const c = JSON.parse(storedJSON);
    c.messages[2].error = "the agent stopped (exit status 2)";
    c.messages[2].agent = "claude";
    c.messages.pop();
    c.messages[1].sources = ["papers/bitcoin/bitcoin.pdf#page=2"];
    bridge({ Conversation: async () => c });
    const store = createChatStore();
    store.load("p");
    const t = await settled(store, "p");
    expect(t.messages.slice(1).map((m) => [m.role, m.status, m.agent, m.error, m.sources])).toEqual([
      ["assistant", "done", "planner", "", ["papers/bitcoin/bitcoin.pdf#page=2"]],
      ["user", "done", "", "", []],
      ["assistant", "error", "claude", "the agent stopped (exit status 2)", []],
    ]);
  });
});

describe("a refused call", () => {
  const request = { surface: "sidebar" as const, selections: [], mentions: [], remote: false };

  it("shows the code the backend rejected with, and its message", async () => {
    bridge({ Ask: async () => Promise.reject({ code: "busy", message: "this conversation is still answering; cancel it or wait" }) });
    const store = createChatStore();
    expect(await store.ask("p", { question: "again?", request, agent: "" })).toBe(false);
    const answer = store.chats()["p"].messages.at(-1);
    expect(answer).toMatchObject({ status: "error", errorCode: "busy", error: "this conversation is still answering; cancel it or wait" });
  });

  it("a plain string from an older backend is an internal failure with that message", async () => {
    bridge({ Ask: async () => Promise.reject("no vault is open") });
    const store = createChatStore();
    expect(await store.ask("p", { question: "q", request, agent: "" })).toBe(false);
    expect(store.chats()["p"].messages.at(-1)).toMatchObject({ status: "error", errorCode: "internal", error: "no vault is open" });
  });
});

describe("answering a permission request", () => {
  const request = { surface: "sidebar" as const, selections: [], mentions: [], remote: false };
  const asked = {
    type: "permission" as const,
    conversationId: "p",
    messageId: "turn-1",
    requestId: "r1",
    title: "Edit notes/ideas.md",
    kind: "edit",
    options: [
      { id: "allow", name: "Allow", kind: "allow_once" },
      { id: "reject", name: "Reject", kind: "reject_once" },
    ],
    inVault: true,
    auto: false,
  };

  async function waiting(app: Record<string, (...args: unknown[]) => Promise<unknown>>): Promise<ChatStore> {
    bridge({ Ask: async () => undefined, ...app });
    const store = createChatStore();
    await store.ask("p", { question: "q", request, agent: "" });
    store.dispatch({ type: "status", conversationId: "p", messageId: "turn-1", action: "new", note: "", mode: "mcp", allowed: [], fingerprint: "" });
    store.dispatch(asked);
    return store;
  }

  it("sends the conversation, the request and the option chosen", async () => {
    const answer = vi.fn(async () => undefined);
    const store = await waiting({ AnswerPermission: answer });
    store.answerPermission("p", "r1", "reject");
    expect(answer).toHaveBeenCalledWith("p", "r1", "reject");
    expect(store.chats()["p"].messages.at(-1)?.permissions[0]).toMatchObject({ answering: "reject", outcome: "" });
  });

  it("a refused answer says why on the card", async () => {
    const store = await waiting({ AnswerPermission: async () => Promise.reject({ code: "not-found", message: "that request is no longer waiting" }) });
    store.answerPermission("p", "r1", "allow");
    await vi.waitFor(() => {
      if (!store.chats()["p"].messages.at(-1)?.permissions[0].answerError) throw new Error("not yet");
    });
    expect(store.chats()["p"].messages.at(-1)?.permissions[0]).toMatchObject({ answering: "", answerError: "that request is no longer waiting" });
  });
});
