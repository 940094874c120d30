// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CitationCheck, ContextRequest, Conversation, StoredMessage } from "../lib/backend";
import { createThreadView, type ThreadDeps, type ThreadView } from "./thread-view";
import type { SourceLink } from "./sources";
import { reduceChats, type ChatEvent, type ChatsState, type Thread } from "./state";

const id = "paper.papers_raft";
const request: ContextRequest = { surface: "sidebar", currentPaper: "papers/raft", selections: [], mentions: [], remote: false };
const sent: ChatEvent = { type: "sent", id, turn: { question: "How are leaders elected?", request, agent: "" }, localId: "l1" };
const turn = { conversationId: id, messageId: "m-turn" };
const chunk = (text: string): ChatEvent => ({ type: "chunk", ...turn, kind: "message", text });
const completed = (content: string, sources: string[] = [], consulted: string[] = []): ChatEvent => ({
  type: "completed",
  conversationId: id,
  turnId: "m-turn",
  messageId: "m-reply",
  content,
  sources,
  consulted,
  checks: [],
  stopReason: "end_turn",
  agent: "peer",
  sandbox: "bubblewrap",
  sandboxWhy: "bubblewrap: the vault does not exist for it",
});
const options = [
  { id: "always", name: "Always allow", kind: "allow_always" },
  { id: "once", name: "Allow", kind: "allow_once" },
  { id: "reject", name: "Reject", kind: "reject_once" },
];
const edit = (fields: Partial<Extract<ChatEvent, { type: "permission" }>> = {}): ChatEvent => ({
  type: "permission",
  ...turn,
  requestId: "r1",
  toolCallId: "edit-1",
  title: "Edit notes/consensus/raft.md",
  kind: "edit",
  input: '{"file_path":"/vault/notes/consensus/raft.md","new_string":"Leaders"}',
  locations: [{ path: "/vault/notes/consensus/raft.md", inVault: true, citationUri: "notes/consensus/raft.md" }],
  options,
  inVault: true,
  auto: false,
  ...fields,
});

interface Calls {
  opened: SourceLink[];
  external: string[];
  answered: [string, string][];
}

let view: ThreadView;
let calls: Calls;
let state: ChatsState;

beforeEach(() => {
  calls = { opened: [], external: [], answered: [] };
  const deps: ThreadDeps = {
    titleOfPath: (path) => (path === "papers/raft/raft.pdf" ? "In Search of an Understandable Consensus Algorithm" : ""),
    titleOfRef: () => "",
    openSource: async (link) => {
      calls.opened.push(link);
      return true;
    },
    openExternal: (url) => calls.external.push(url),
    answerPermission: (requestId, optionId) => calls.answered.push([requestId, optionId]),
    retry: () => {},
  };
  view = createThreadView(deps);
  document.body.append(view.el);
  state = {};
});

afterEach(() => {
  view.el.remove();
});

// show feeds events through the real reducer and draws the thread.
function show(...events: ChatEvent[]): Thread {
  for (const e of events) state = reduceChats(state, e);
  view.render(state[id], "");
  return state[id];
}

const answerEl = () => view.el.querySelector<HTMLElement>('[data-testid="msg-assistant"]:last-child')!;
const all = (selector: string) => Array.from(view.el.querySelectorAll<HTMLElement>(selector));
const one = (selector: string) => {
  const found = all(selector);
  expect(found, selector).toHaveLength(1);
  return found[0];
};

function key(el: Element, key: string): void {
  el.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
}

describe("answers as Markdown and math", () => {
  const markdown = [
    "Leaders are elected by **randomized** timeouts:",
    "",
    "- a follower times out",
    "- it becomes a candidate",
    "",
    "| term | leader |",
    "| --- | --- |",
    "| 1 | S1 |",
    "",
    "```go",
    "if elapsed > timeout { startElection() }",
    "```",
    "",
    "A majority of $n$ servers is $$\\lfloor n/2 \\rfloor + 1$$",
    "",
    "“Raft uses randomized election timeouts” [papers/raft/raft.pdf#page=5] and [the paper](https://raft.github.io/).",
  ].join("\n");

  it("a finished answer draws lists, tables, code and math, with citation chips", () => {
    show(sent, chunk("Leaders"), completed(markdown, ["papers/raft/raft.pdf#page=5"]));
    const text = one('[data-testid="answer-text"]');
    expect(text.querySelectorAll("ul > li")).toHaveLength(2);
    expect(text.querySelectorAll("table td")).toHaveLength(2);
    expect(text.querySelector("pre code")?.textContent).toContain("startElection()");
    expect(text.querySelectorAll(".katex").length).toBeGreaterThanOrEqual(2);
    const chip = one('[data-testid="cite"]');
    expect(chip.dataset.uri).toBe("papers/raft/raft.pdf#page=5");
    expect(chip.textContent).toBe("p. 5");
  });

  it("beside the agent's name: how it ran, confined or not, with what that means", () => {
    show(sent, completed("An answer."));
    const badge = one('[data-testid="sandbox-badge"]');
    expect(badge.textContent).toContain("confined (bubblewrap)");
    expect(one('[data-testid="msg-agent"]').textContent).not.toContain("confined");
    expect(badge.title).toContain("the vault does not exist for it");
    show(sent, { ...completed("Another."), sandbox: "none", sandboxWhy: "bubblewrap is not installed" } as ChatEvent);
    const open = [...document.querySelectorAll<HTMLElement>('[data-testid="sandbox-badge"]')].pop()!;
    expect(open.textContent).toContain("not confined");
    expect(open.classList.contains("is-open")).toBe(true);
  });

  it("one view draws the answer while it streams and is finished once", async () => {
    show(sent, chunk("- one\n"));
    const text = one('[data-testid="answer-text"]');
    expect(text.getAttribute("aria-busy")).toBe("true");
    show(chunk("- two\n"));
    await new Promise((r) => setTimeout(r, 50)); // the view draws on the next frame
    expect(one('[data-testid="answer-text"]')).toBe(text);
    expect(Array.from(text.querySelectorAll("li"), (li) => li.textContent)).toEqual(["one", "two"]);
    show(completed("- one\n- two\n- three"));
    expect(one('[data-testid="answer-text"]')).toBe(text);
    expect(text.hasAttribute("aria-busy")).toBe(false);
    expect(text.querySelectorAll("li")).toHaveLength(3);
  });

  it("a chip opens its source with the quote the answer gives next to it", () => {
    show(sent, completed(markdown, ["papers/raft/raft.pdf#page=5"]));
    one('[data-testid="cite"]').click();
    expect(calls.opened).toHaveLength(1);
    expect(calls.opened[0].uri).toBe("papers/raft/raft.pdf#page=5");
    expect(calls.opened[0].quote).toBe("Raft uses randomized election timeouts");
    expect(calls.opened[0].target).toBe("papers/raft/raft.pdf#page=5&quote=Raft%20uses%20randomized%20election%20timeouts");
  });

  it("a link with no quote next to it highlights the passage the search returned for its page", () => {
    const cards = { cards: [{ ref: "papers/raft", page: 5, snippet: "…Raft uses randomized election timeouts…", citationUri: "papers/raft/raft.pdf#page=5" }] };
    show(
      sent,
      { type: "tool", ...turn, toolCallId: "t1", title: "mcp__agentero-context__context_search", status: "completed", content: [{ type: "text", text: JSON.stringify(cards) }] },
      completed("The closest passage is in *Raft* ([p. 5](papers/raft/raft.pdf#page=5)).", ["papers/raft/raft.pdf#page=5"]),
    );
    const chip = one('[data-testid="cite"]');
    expect(chip.textContent).toBe("p. 5");
    chip.click();
    expect(calls.opened.map((l) => l.target)).toEqual(["papers/raft/raft.pdf#page=5&quote=Raft%20uses%20randomized%20election%20timeouts"]);
  });

  it("an https link goes to the system browser; a javascript: one goes nowhere", () => {
    show(sent, completed(`${markdown}\n\n[bad](javascript:alert(1))`));
    const links = all('[data-testid="answer-text"] a');
    expect(links.map((a) => a.getAttribute("href"))).toEqual(["https://raft.github.io/"]);
    links[0].click();
    expect(calls.external).toEqual(["https://raft.github.io/"]);
  });

  it("a trailing list of the sources is left out of the text, and drawn as sources", () => {
    show(sent, completed("Randomized timeouts.\n\nSources:\n- papers/raft/raft.pdf#page=5", ["papers/raft/raft.pdf#page=5"]));
    expect(one('[data-testid="answer-text"]').textContent).not.toContain("Sources");
    expect(one('[data-testid="source"]').textContent).toBe("In Search of an Understandable Consensus Algorithm, p. 5");
  });

  it("a chip of a source that is gone is marked", () => {
    show(sent, completed(markdown, ["papers/raft/raft.pdf#page=5"]), { type: "sources-checked", id, exists: { "papers/raft/raft.pdf#page=5": false } });
    expect(one('[data-testid="cite"]').classList.contains("missing")).toBe(true);
  });
});

describe("the claim check on citation chips", () => {
  const p1 = "papers/raft/raft.pdf#page=1";
  const p5 = "papers/raft/raft.pdf#page=5";
  const p6 = "papers/raft/raft.pdf#page=6";
  const p9 = "papers/raft/raft.pdf#page=9";
  const text = [
    "Raft “uses randomized election timeouts” [papers/raft/raft.pdf#page=5].",
    "",
    "Election timeouts are “chosen randomly from a fixed interval (e.g., 150–300 ms)” [papers/raft/raft.pdf#page=1].",
    "",
    "Logs are compacted by snapshots [papers/raft/raft.pdf#page=9].",
  ].join("\n");
  const check = (uri: string, verdict: string, fields: Partial<CitationCheck> = {}): CitationCheck => ({
    uri,
    page: Number(/page=(\d+)/.exec(uri)?.[1] ?? 0),
    verdict,
    foundPage: 0,
    quote: "",
    why: "",
    passage: "",
    claim: "",
    line: 1,
    start: 0,
    end: 0,
    ...fields,
  });
  const checks = [
    check(p5, "verified", { quote: "uses randomized election timeouts", why: "the quote is on page 5" }),
    check(p1, "wrong-page", { foundPage: 6, quote: "chosen randomly from a fixed interval (e.g., 150–300 ms)", why: "page 1 has no 150; page 6 has the quote" }),
    check(p9, "unsupported", { why: "no page of the paper has “snapshots”" }),
  ];
  const done = (content: string, list: CitationCheck[]): ChatEvent => ({ ...(completed(content, [p5, p1, p9]) as Extract<ChatEvent, { type: "completed" }>), checks: list });
  const chips = () => all('[data-testid="answer-text"] [data-testid="cite"]');

  it("each chip shows its verdict in words, with why, and none says more than was checked", () => {
    show(sent, chunk("Raft"), done(text, checks));
    const [verified, wrong, missing] = chips();
    expect(chips().map((c) => c.dataset.verdict)).toEqual(["verified", "wrong-page", "unsupported"]);
    expect(verified.title).toMatch(/^Quote found on p\. 5: the quote is on page 5\n/);
    expect(verified.getAttribute("aria-label")).toMatch(/^p\. 5: Quote found on p\. 5 \(the quote is on page 5\)\. Open raft\.pdf, page 5/);
    expect(verified.querySelector('[data-testid="cite-check"]')?.getAttribute("aria-hidden")).toBe("true");
    expect(missing.title).toMatch(/^Not found in this paper: no page of the paper has “snapshots”/);
    expect(missing.dataset.tone).toBe("missing");
    for (const c of chips()) expect(c.title + c.getAttribute("aria-label")).not.toMatch(/\btrue\b|correct/i);
    // A chip is still a button: reached by Tab, opened by Enter.
    expect(chips().every((c) => c.tagName === "BUTTON")).toBe(true);
    expect(wrong.textContent).toBe("p. 1↪found on p. 6");
  });

  it("a wrong-page chip reads “found on p. 6” and opens page 6 with the quote found there", () => {
    show(sent, done(text, checks));
    const wrong = chips()[1];
    expect(wrong.querySelector(".cite-found")?.textContent).toBe("found on p. 6");
    expect(wrong.getAttribute("aria-label")).toMatch(/^p\. 1, found on p\. 6: Found on p\. 6 \(page 1 has no 150; page 6 has the quote\)\. Opens page 6 and marks the quote there\.$/);
    wrong.click();
    expect(calls.opened).toHaveLength(1);
    expect(calls.opened[0].target).toBe(`${p6}&quote=${encodeURIComponent("chosen randomly from a fixed interval (e.g., 150–300 ms)")}`);
    // The other chips open the page they cite.
    chips()[0].click();
    expect(calls.opened[1].target).toBe(`${p5}&quote=${encodeURIComponent("uses randomized election timeouts")}`);
  });

  it("a chip whose check found the words of a page opens that page with those words marked", () => {
    const found = "Raft uses randomized election timeouts to ensure that split votes are rare and that they are resolved quickly.";
    const snapshot = "Snapshotting is the simplest approach to compaction.";
    show(
      sent,
      done(text, [
        check(p5, "verified", { quote: "uses randomized election timeouts", why: "the quote is on page 5" }),
        check(p1, "wrong-page", { foundPage: 6, passage: found, why: "page 6 has them all" }),
        check(p9, "supported", { passage: snapshot, why: "page 9 has its words" }),
      ]),
    );
    const [, wrong, supported] = chips();
    expect(wrong.getAttribute("aria-label")).toMatch(/Opens page 6 and marks the words found there\.$/);
    wrong.click();
    supported.click();
    expect(calls.opened.map((o) => o.target)).toEqual([`${p6}&quote=${encodeURIComponent(found)}`, `${p9}&quote=${encodeURIComponent(snapshot)}`]);
  });

  it("a one-line summary under the answer counts the verdicts", () => {
    show(sent, done(text, checks));
    const line = one('[data-testid="check-summary"]');
    expect(line.textContent).toBe("3 citations: 1 quote found, 1 on another page, 1 not found");
    expect(line.dataset.tone).toBe("missing");
    // It comes before the sources.
    expect(line.compareDocumentPosition(one('[data-testid="sources"]')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("checks that do not line up with the chips leave those chips without a badge", () => {
    // The backend checked the page-5 citation twice (once for a sentence the thread does not draw as a chip).
    show(sent, done(text, [checks[0], checks[0], checks[1], checks[2]]));
    expect(chips().map((c) => c.dataset.verdict ?? "")).toEqual(["", "wrong-page", "unsupported"]);
    expect(chips()[0].querySelector('[data-testid="cite-check"]')).toBeNull();
    expect(chips()[0].title).not.toMatch(/found/i);
  });

  it("no checks (an older conversation, a streaming answer): no badges and no summary", () => {
    show(sent, chunk(text));
    expect(all('[data-testid="cite-check"]')).toHaveLength(0);
    expect(all('[data-testid="check-summary"]')).toHaveLength(0);
    show(done(text, []));
    expect(chips()).toHaveLength(3);
    expect(all('[data-testid="cite-check"]')).toHaveLength(0);
    expect(all('[data-testid="check-summary"]')).toHaveLength(0);
  });

  it("drawn again (a source found gone), a chip keeps one badge", () => {
    show(sent, done(text, checks));
    show({ type: "sources-checked", id, exists: { [p9]: false } });
    expect(all('[data-testid="cite-check"]')).toHaveLength(3);
    expect(chips()[2].classList.contains("missing")).toBe(true);
  });

  it("a reopened conversation shows the stored checks", () => {
    const at = "2026-11-29T10:00:00Z";
    const message = (m: Partial<StoredMessage> & Pick<StoredMessage, "id" | "role" | "content">): StoredMessage => ({
      sources: [],
      consulted: [],
      checks: [],
      error: "",
      errorCode: "",
      agent: "",
      stopReason: "",
      sandbox: "",
      sandboxWhy: "",
      plan: [],
      tools: [],
      permissions: [],
      at,
      ...m,
    });
    const conversation: Conversation = {
      id,
      surface: "sidebar",
      agent: "",
      runtimeId: "",
      providerSessionId: "",
      fingerprint: "",
      sessionSeen: 0,
      createdAt: at,
      updatedAt: at,
      title: "",
      paper: "papers/raft",
      messages: [message({ id: "q", role: "user", content: "Timeouts?" }), message({ id: "a", role: "assistant", content: text, sources: [p5, p1, p9], checks })],
    };
    show({ type: "loaded", id, conversation });
    expect(chips().map((c) => c.dataset.verdict)).toEqual(["verified", "wrong-page", "unsupported"]);
    expect(one('[data-testid="check-summary"]').textContent).toBe("3 citations: 1 quote found, 1 on another page, 1 not found");
  });

  it("the checks of a trailing list of sources (drawn under the answer) are not counted", () => {
    const content = `${text}\n\nSources:\n- ${p5}\n- ${p1}\n- ${p9}\n`;
    const bytes = (s: string) => new TextEncoder().encode(s).length;
    const inList = (uri: string) => bytes(content.slice(0, content.lastIndexOf(uri)));
    const listed = [p5, p1, p9].map((u) => check(u, "supported", { start: inList(u), end: inList(u) + bytes(u) }));
    show(sent, done(content, [...checks.map((c) => ({ ...c, start: 1, end: 2 })), ...listed]));
    expect(chips().map((c) => c.dataset.verdict)).toEqual(["verified", "wrong-page", "unsupported"]);
    expect(one('[data-testid="check-summary"]').textContent).toBe("3 citations: 1 quote found, 1 on another page, 1 not found");
  });
});

describe("sources the answer used", () => {
  it("cited sources are listed; the consulted ones only on demand", () => {
    show(sent, completed("See [papers/raft/raft.pdf#page=5].", ["papers/raft/raft.pdf#page=5"], ["papers/raft/raft.pdf#page=5", "papers/raft/raft.pdf#page=9", "papers/raft/raft.pdf#page=11"]));
    expect(all('[data-testid="source"]').map((b) => b.dataset.uri)).toEqual(["papers/raft/raft.pdf#page=5"]);
    const consulted = one('[data-testid="consulted"]') as HTMLDetailsElement;
    expect(consulted.querySelector("summary")?.textContent).toBe("2 more consulted");
    expect(all('[data-testid="consulted-source"]')).toHaveLength(0);
    consulted.open = true;
    consulted.dispatchEvent(new Event("toggle"));
    expect(all('[data-testid="consulted-source"]').map((b) => b.dataset.uri)).toEqual(["papers/raft/raft.pdf#page=9", "papers/raft/raft.pdf#page=11"]);
    all('[data-testid="consulted-source"]')[1].click();
    expect(calls.opened.map((l) => l.uri)).toEqual(["papers/raft/raft.pdf#page=11"]);
  });

  it("no consulted ones, no toggle", () => {
    show(sent, completed("See [papers/raft/raft.pdf#page=5].", ["papers/raft/raft.pdf#page=5"]));
    expect(all('[data-testid="consulted"]')).toHaveLength(0);
  });
});

describe("tool activity", () => {
  const search: ChatEvent = {
    type: "tool",
    ...turn,
    toolCallId: "t1",
    title: "mcp__agentero-context__context_search",
    kind: "search",
    status: "in_progress",
    input: '{"query":"leader election"}',
  };
  const editCall: ChatEvent = {
    type: "tool",
    ...turn,
    toolCallId: "edit-1",
    title: "Edit raft.md",
    kind: "edit",
    status: "completed",
    content: [
      { type: "diff", path: "notes/consensus/raft.md", oldText: "# Raft\n\nLeader election uses randomized timeouts.\n", newText: "# Raft\n\nLeaders are elected with randomized timeouts.\n" },
      { type: "text", text: "edited" },
    ],
    locations: [
      { path: "/vault/papers/raft/raft.pdf", line: 0, inVault: true, citationUri: "papers/raft/raft.pdf#page=5" },
      { path: "/home/me/.bashrc", inVault: false },
    ],
  };

  it("each call shows its title, kind and live status, collapsed", () => {
    show(sent, search);
    const tool = one('[data-testid="tool"]');
    expect(tool.querySelector(".tool-title")?.textContent).toBe("mcp__agentero-context__context_search");
    expect(tool.querySelector(".tool-kind")?.textContent).toBe("search");
    expect(tool.querySelector('[data-testid="tool-status"]')?.textContent).toBe("running");
    expect((tool.querySelector("details") as HTMLDetailsElement).open).toBe(false);
    expect(tool.querySelector(".tool-input")).toBeNull();
    show({ type: "tool", ...turn, toolCallId: "t1", status: "completed" });
    expect(one('[data-testid="tool"]').dataset.status).toBe("completed");
    expect(one('[data-testid="tool-status"]').textContent).toBe("done");
  });

  it("expanded, a call shows its input, its diff, its text and its locations; it stays open while the answer streams", () => {
    show(sent, editCall);
    const details = one('[data-testid="tool-details"]') as HTMLDetailsElement;
    details.open = true;
    details.dispatchEvent(new Event("toggle"));
    const diff = one('[data-testid="tool-diff"]');
    expect(diff.querySelector("h5")?.textContent).toContain("+1 −1");
    expect(Array.from(diff.querySelectorAll(".diff-del"), (l) => l.textContent)).toEqual(["-removed: Leader election uses randomized timeouts."]);
    expect(Array.from(diff.querySelectorAll(".diff-add"), (l) => l.textContent)).toEqual(["+added: Leaders are elected with randomized timeouts."]);
    expect(one('[data-testid="tool-text"]').textContent).toBe("edited");
    one('[data-testid="location"]').click();
    expect(calls.opened.map((l) => l.target)).toEqual(["papers/raft/raft.pdf#page=5"]);
    expect(all(".location-text.outside").map((e) => e.textContent)).toEqual(["/home/me/.bashrc"]);

    show(chunk("more text"));
    expect((one('[data-testid="tool-details"]') as HTMLDetailsElement).open).toBe(true);
    expect(all('[data-testid="tool-diff"]')).toHaveLength(1);
  });

  it("a turn reopened later shows its calls the same way", () => {
    const t = show(sent, search, completed("done"));
    expect(t.messages[1].tools[0]).toMatchObject({ kind: "search", input: '{"query":"leader election"}', status: "stopped" });
    expect(one('[data-testid="tool-status"]').textContent).toBe("stopped");
  });

  it("an automatic decision is a quiet line above the call it allowed", () => {
    show(
      sent,
      search,
      edit({ requestId: "auto-1", toolCallId: "t1", title: "mcp__agentero-context__context_search", kind: "other", inVault: false, auto: true, outcome: "selected", optionId: "always", locations: [] }),
    );
    const items = all('[data-testid="tools"] > li');
    expect(items.map((li) => li.dataset.testid)).toEqual(["permission-auto", "tool"]);
    expect(items[0].textContent).toBe("allowed agentero-context search automatically");
    expect(all('[data-testid="permission"]')).toHaveLength(0);
  });
});

describe("permission cards", () => {
  it("a request shows its title, kind, locations, input and the agent's options; Reject has the focus when it reaches into the vault", () => {
    show(sent, chunk("I will edit the note."), edit());
    const card = one('[data-testid="permission"]');
    expect(card.dataset.state).toBe("waiting");
    expect(card.querySelector('[data-testid="permission-title"]')?.textContent).toBe("Edit notes/consensus/raft.md");
    expect(card.querySelector('[data-testid="permission-kind"]')?.textContent).toBe("edit");
    expect(card.querySelector('[data-testid="permission-outside"]')?.textContent).toMatch(/Outside this question’s grant/);
    expect(Array.from(card.querySelectorAll('[data-testid="location"]'), (b) => (b as HTMLElement).dataset.uri)).toEqual(["notes/consensus/raft.md"]);
    const input = card.querySelector('[data-testid="permission-input"]') as HTMLDetailsElement;
    expect(input.open).toBe(false);
    input.open = true;
    input.dispatchEvent(new Event("toggle"));
    expect(input.querySelector("pre")?.textContent).toContain('"new_string": "Leaders"');
    const buttons = Array.from(card.querySelectorAll<HTMLButtonElement>('[data-testid="permission-option"]'));
    expect(buttons.map((b) => b.textContent)).toEqual(["Always allow", "Allow", "Reject"]);
    expect(document.activeElement).toBe(buttons[2]);
    expect(buttons.map((b) => b.tabIndex)).toEqual([-1, -1, 0]);
    expect(answerEl().querySelector(".msg-progress")?.textContent).toBe("Waiting for your answer…");
  });

  it("an edit outside the vault still has Reject focused: Enter never approves a change", () => {
    show(sent, edit({ inVault: false, locations: [] }));
    expect(all('[data-testid="permission-outside"]')).toHaveLength(0);
    expect((document.activeElement as HTMLElement).dataset.optionId).toBe("reject");
  });

  it("a read that stays outside the vault has Allow focused, never Always", () => {
    show(sent, edit({ inVault: false, kind: "read", title: "Read /tmp/x", locations: [] }));
    expect((document.activeElement as HTMLElement).dataset.optionId).toBe("once");
  });

  it("the arrow keys move between the options and keep the focus across redraws", () => {
    show(sent, edit());
    key(document.activeElement!, "ArrowLeft");
    expect((document.activeElement as HTMLElement).dataset.optionId).toBe("once");
    key(document.activeElement!, "ArrowDown");
    expect((document.activeElement as HTMLElement).dataset.optionId).toBe("reject");
    key(document.activeElement!, "ArrowRight");
    expect((document.activeElement as HTMLElement).dataset.optionId).toBe("always");
    key(document.activeElement!, "End");
    expect((document.activeElement as HTMLElement).dataset.optionId).toBe("reject");
    key(document.activeElement!, "Home");
    const before = document.activeElement;
    show(chunk("still streaming"));
    expect(document.activeElement).not.toBe(before);
    expect((document.activeElement as HTMLElement).dataset.optionId).toBe("always");
  });

  it("choosing an option sends it; the decision replaces the buttons with the outcome", () => {
    show(sent, edit());
    (document.activeElement as HTMLButtonElement).click();
    expect(calls.answered).toEqual([["r1", "reject"]]);
    show({ type: "permission-answer", id, requestId: "r1", optionId: "reject" });
    expect(one('[data-testid="permission"]').dataset.state).toBe("answering");
    expect(all('[data-testid="permission-option"]').every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    show(edit({ outcome: "selected", optionId: "reject" }));
    expect(one('[data-testid="permission"]').dataset.state).toBe("selected");
    expect(all('[data-testid="permission-option"]')).toHaveLength(0);
    expect(one('[data-testid="permission-outcome"]').textContent).toBe("Rejected: you chose “Reject”.");
  });

  it("an answer that was not sent says why", () => {
    show(sent, edit(), { type: "permission-answer", id, requestId: "r1", optionId: "once" }, {
      type: "permission-answer-failed",
      id,
      requestId: "r1",
      failure: { code: "not-found", message: "the request is no longer waiting" },
    });
    expect(one('[data-testid="permission-error"]').textContent).toBe("Your answer was not sent: the request is no longer waiting");
    expect(all('[data-testid="permission-option"]').some((b) => (b as HTMLButtonElement).disabled)).toBe(false);
  });

  it("cancelling the turn disables the options; its end reads as cancelled", () => {
    show(sent, edit(), { type: "cancel", id });
    expect(all('[data-testid="permission-option"]').every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    show({ ...completed(""), stopReason: "cancelled" } as ChatEvent);
    expect(one('[data-testid="permission-outcome"]').textContent).toBe("Cancelled: the turn ended before an answer.");
  });

  it("the focus moves to a card only once", () => {
    show(sent, edit());
    const composer = document.createElement("textarea");
    document.body.append(composer);
    composer.focus();
    show(chunk("text"));
    expect(document.activeElement).toBe(composer);
    composer.remove();
  });
});

describe("a source that is a figure", () => {
  const fig = "papers/raft/raft.pdf#page=2&region=69,36.6,243.8,196.7";
  it("its chip and its source open the page with the figure's region", () => {
    show(sent, completed(`“Replicated state machines are typically implemented using a replicated log.” [${fig}&quote=Replicated+state+machines]`, [fig]));
    const source = one('[data-testid="source"]');
    expect(source.dataset.region).toBe("true");
    expect(source.title).toContain("Outlines the figure or table it cites on p. 2");
    source.click();
    one('[data-testid="cite"]').click();
    expect(calls.opened.map((l) => l.region)).toEqual([
      { x: 69, y: 36.6, width: 243.8, height: 196.7 },
      { x: 69, y: 36.6, width: 243.8, height: 196.7 },
    ]);
    expect(calls.opened.every((l) => l.target.includes("region=69,36.6,243.8,196.7"))).toBe(true);
  });
});
