// One conversation's messages: questions, answers rendered as Markdown and
// math while they stream (inline citations are source chips, each with its
// claim check once the turn ended, summed up under the answer), the tool
// activity as ACP describes it and the agent's plan, permission cards for
// what the agent asks, the per-turn context indicator, errors that say what
// happened, and the sources as clickable locations. Messages are immutable,
// so a message is drawn again only when it changed, and only its own
// element changes in the list. An answer's element and its rendered text stay
// in place while the parts around them are drawn anew, so that a long answer
// is not laid out again for every streamed chunk; they, and which parts the
// reader opened, live as long as the message does. The thread follows new
// text while the reader is at its end (the list's size is watched, so that
// drawing never waits on a layout).

import "./activity.css";
import { formatCitation } from "../lib/citation";
import { h } from "../lib/dom";
import type { ErrorCode } from "../lib/events";
import { createAnswerView, type AnswerView, type CitationTarget } from "../markdown/answer";
import { agentLabel } from "./agent-choice";
import { checkedPlace, shownChecks } from "./checks";
import { checkLine, markChips, type ChipCheck } from "./checks-view";
import { grantChanged, sessionText, summarize } from "./context";
import { disclosure, remember, type Opened } from "./disclosure";
import { describeError } from "./errors";
import { answerExports, type Exporter } from "./export-actions";
import { permissionCards } from "./permission-view";
import { cardQuotes, sourceLink, sourceLinks, withoutSourceList, type SourceLink } from "./sources";
import { consultedLinks, sourceList } from "./sources-view";
import { canRetry, planProgress, waitingPermissions, type ChatMessage, type PlanEntry, type PlanStatus, type Thread, type ToolActivity } from "./state";
import { toolActivity } from "./tool-view";

export interface ThreadDeps {
  /** The title of the paper whose PDF is at a vault path ("" when unknown). */
  titleOfPath(path: string): string;
  /** The title of a paper ref ("" when unknown). */
  titleOfRef(ref: string): string;
  /** openSource follows a source; it resolves to false when the source no longer exists. */
  openSource(link: SourceLink): Promise<boolean>;
  /** openExternal opens an https: link of an answer in the system browser (the backend decides whether it may). */
  openExternal(url: string): void;
  /** answerPermission sends the option the user chose for a permission request of this thread. */
  answerPermission(requestId: string, optionId: string): void;
  retry(): void;
  /** exporter, when given, adds Copy as Markdown / BibTeX / CSL-JSON under each finished answer. */
  exporter?: Exporter;
}

export interface ThreadView {
  el: HTMLElement;
  render(thread: Thread | null, empty: string): void;
}

// Drawn is what the view keeps for one message: the element it drew, what
// it was drawn from, the rendered answer and the parts the reader opened.
// An answer's element holds top (what came before the text), the answer
// view's element, and bottom (what follows it).
interface Drawn {
  message: ChatMessage | null;
  exists: Record<string, boolean>;
  retry: boolean;
  cancelling: boolean;
  el: HTMLElement;
  top: HTMLElement;
  bottom: HTMLElement;
  answer: AnswerView | null;
  /** The text the answer view finished with; null while it streams. */
  finished: string | null;
  /** The message's sources by URI, with the quotes the answer gives next to them. */
  links: Map<string, SourceLink>;
  /** The passages the message's tools returned, by page (cardQuotes), and the tool calls they were read from. */
  read: Map<string, string>;
  readFrom: ToolActivity[] | null;
  /** The check each chip of the finished answer shows. */
  chips: Map<HTMLElement, ChipCheck>;
  opened: Opened;
}

export function createThreadView(deps: ThreadDeps): ThreadView {
  const list = h("ol", { class: "chat-messages", "aria-label": "Messages", "aria-live": "polite", "data-testid": "chat-messages" });
  const placeholder = h("p", { class: "chat-empty" });
  const el = h("div", { class: "chat-thread", tabIndex: -1 }, placeholder, list);
  // By message key, for the thread shown (threadId).
  let drawn = new Map<string, Drawn>();
  let threadId = "";
  // Permission requests whose card has had the focus once.
  const focused = new Set<string>();

  function entry(m: ChatMessage): Drawn {
    let d = drawn.get(m.key);
    if (!d) {
      d = {
        message: null,
        exists: {},
        retry: false,
        cancelling: false,
        el: h("li"),
        top: h("div", { class: "msg-top" }),
        bottom: h("div", { class: "msg-bottom" }),
        answer: null,
        finished: null,
        links: new Map(),
        read: new Map(),
        readFrom: null,
        chips: new Map(),
        opened: new Set(),
      };
      drawn.set(m.key, d);
    }
    return d;
  }

  function draw(m: ChatMessage, t: Thread, retry: boolean): HTMLElement {
    const d = entry(m);
    if (d.message === m && d.exists === t.exists && d.retry === retry && d.cancelling === t.cancelling) return d.el;
    d.message = m;
    d.exists = t.exists;
    d.retry = retry;
    d.cancelling = t.cancelling;
    if (m.role === "user") d.el = userMessage(m);
    else answer(m, t, retry, d, deps, openCitation(d));
    return d.el;
  }

  // openCitation follows a chip of a message's answer: with the quote the
  // answer gives next to it (or the passage the turn's tools returned for
  // that page), through the same path as its sources. A checked chip opens
  // where its check found the claim (checkedPlace) when that is another
  // page, or when the chip has nothing of its own to mark: then the words
  // of that page that hold the claim are marked.
  function openCitation(d: Drawn) {
    return (target: CitationTarget, event: MouseEvent) => {
      const chip = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-testid="cite"]') : null;
      const checked = chip ? d.chips.get(chip) : undefined;
      const own = d.links.get(target.uri) ?? sourceLink(target.uri, target.quote, d.read);
      let place = checked ? checkedPlace(checked.check, target.page) : null;
      if (place && place.page === target.page && own?.quote) place = null;
      const found = place ? formatCitation({ path: target.path, page: place.page, quote: place.quote || target.quote }) : "";
      const link = found ? sourceLink(found, "", d.read) : own;
      if (link) void deps.openSource(link);
    };
  }

  function forget(keep: Set<string>) {
    for (const [key, d] of drawn) {
      if (keep.has(key)) continue;
      d.answer?.destroy();
      drawn.delete(key);
    }
  }

  // The reader is at the end of the thread: new text scrolls into view.
  let atEnd = true;
  el.addEventListener("scroll", () => {
    atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  });
  if (typeof ResizeObserver !== "undefined") {
    new ResizeObserver(() => {
      if (atEnd) el.scrollTop = el.scrollHeight;
    }).observe(list);
  }

  return {
    el,
    render(thread, empty) {
      if ((thread?.id ?? "") !== threadId) {
        forget(new Set());
        drawn = new Map();
        threadId = thread?.id ?? "";
        atEnd = true;
      }
      const messages = thread?.messages ?? [];
      list.dataset.phase = thread?.phase ?? "";
      placeholder.textContent = thread?.phase === "error" ? `Couldn’t load this conversation: ${thread.loadError}` : empty;
      placeholder.classList.toggle("error", thread?.phase === "error");
      placeholder.hidden = messages.length > 0 || (thread?.phase === "loading" && empty === "");
      const retryAt = thread && canRetry(thread) ? messages.length - 1 : -1;
      const focus = focusKey(list);
      const nodes = messages.map((m, i) => draw(m, thread!, i === retryAt));
      forget(new Set(messages.map((m) => m.key)));
      place(nodes);
      if (focus && !list.contains(document.activeElement)) list.querySelector<HTMLElement>(focus)?.focus();
      focusNewRequest(messages);
    },
  };

  // place puts the messages' elements in order, moving only what changed.
  function place(nodes: HTMLElement[]) {
    const keep = new Set<Element>(nodes);
    for (const child of Array.from(list.children)) if (!keep.has(child)) child.remove();
    nodes.forEach((n, i) => {
      const here = list.children[i] ?? null;
      if (here !== n) list.insertBefore(n, here);
    });
  }

  // focusNewRequest moves the focus to a permission card the first time it
  // is drawn: the turn waits for it.
  function focusNewRequest(messages: ChatMessage[]) {
    for (const m of messages) {
      for (const p of waitingPermissions(m)) {
        if (focused.has(p.requestId)) continue;
        focused.add(p.requestId);
        const card = Array.from(list.querySelectorAll<HTMLElement>('[data-testid="permission"]')).find((c) => c.dataset.requestId === p.requestId);
        card?.querySelector<HTMLElement>('[data-testid="permission-option"][tabindex="0"]')?.focus();
      }
    }
  }
}

// focusKey names the focused control inside the list, so that it can be
// focused again after its message was drawn anew (keyboard users keep their
// place): by its data-focus key, else by its test id and URI.
function focusKey(list: HTMLElement): string {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement) || !list.contains(el)) return "";
  const li = el.closest("li.msg");
  const index = li ? Array.prototype.indexOf.call(list.children, li) : -1;
  if (index < 0) return "";
  const inside = `:scope > li:nth-child(${index + 1})`;
  if (el.dataset.focus) return `${inside} [data-focus="${quoted(el.dataset.focus)}"]`;
  if (el.tagName === "SUMMARY" && el.parentElement?.dataset.testid) {
    const details = el.parentElement;
    const id = details.closest<HTMLElement>("[data-tool-id]")?.dataset.toolId;
    const scope = id ? `[data-tool-id="${quoted(id)}"] ` : "";
    return `${inside} ${scope}[data-testid="${details.dataset.testid}"] > summary`;
  }
  if (!el.dataset.testid) return "";
  const uri = el.dataset.uri ? `[data-uri="${quoted(el.dataset.uri)}"]` : "";
  return `${inside} [data-testid="${el.dataset.testid}"]${uri}`;
}

// quoted escapes a value for a double-quoted CSS attribute selector.
function quoted(value: string): string {
  return value.replace(/["\\]/g, "\\$&").replace(/\n/g, "\\a ");
}

function userMessage(m: ChatMessage): HTMLElement {
  return h("li", { class: "msg msg-user", "data-testid": "msg-user" }, h("div", { class: "msg-text" }, m.content));
}

// answer draws an answer into its element: top holds who answered, the
// turn's context, tool activity, plan and thoughts; then the rendered text;
// bottom holds permission cards, progress, what went wrong and the sources.
function answer(m: ChatMessage, t: Thread, retry: boolean, d: Drawn, deps: ThreadDeps, openCitation: (target: CitationTarget, event: MouseEvent) => void): void {
  if (d.el.dataset.testid !== "msg-assistant") {
    d.el = h("li", { "data-testid": "msg-assistant" }, d.top, d.bottom);
  }
  const li = d.el;
  li.className = `msg msg-assistant status-${m.status}`;
  li.dataset.status = m.status;
  const openLocation = (uri: string) => {
    const link = sourceLink(uri, "");
    if (link) void deps.openSource(link);
  };
  const top: (Node | null)[] = [];
  if (m.agent) top.push(h("p", { class: "msg-agent" }, h("span", { "data-testid": "msg-agent" }, agentLabel(m.agent)), sandboxBadge(m)));
  if (m.context) top.push(contextIndicator(m, d.opened, deps));
  top.push(toolActivity(m.tools, m.permissions, d.opened, { openLocation }));
  if (m.plan.length > 0) top.push(planList(m.plan, m.status !== "streaming"));
  if (m.thought) {
    top.push(disclosure(d.opened, "thought", { class: "msg-thought" }, ["Thinking"], () => [h("div", { class: "msg-text" }, m.thought)]));
  }
  d.top.replaceChildren(...top.filter((n): n is Node => n !== null));

  if (d.readFrom !== m.tools) {
    d.read = cardQuotes(m.tools.flatMap((x) => x.content.flatMap((c) => (c.type === "text" && c.text ? [c.text] : []))));
    d.readFrom = m.tools;
  }
  const links = sourceLinks(m.content, m.sources, d.read);
  d.links = new Map(links.map((l) => [l.uri, l]));
  if (m.content) {
    const text = answerText(m, t, d, deps, openCitation);
    if (text.parentElement !== li) li.insertBefore(text, d.bottom);
  }

  const bottom: (Node | null)[] = [permissionCards(m.permissions, t.cancelling, d.opened, { openLocation, answer: deps.answerPermission })];
  if (m.status === "streaming") {
    const waiting = waitingPermissions(m).length > 0;
    bottom.push(
      h(
        "div",
        { class: "msg-progress", role: "progressbar", "aria-label": "Answering" },
        h("div", { class: "progress-track" }, h("div", { class: "progress-fill" })),
        h("span", {}, waiting ? "Waiting for your answer…" : m.content ? "Answering…" : m.tools.length ? "Reading your sources…" : "Waiting for the agent…"),
      ),
    );
  }
  if (m.status === "error") bottom.push(problem(m.errorCode || "internal", m.error));
  if (m.status === "cancelled") bottom.push(h("p", { class: "msg-note" }, "Cancelled. What arrived before is kept."));
  if (retry) bottom.push(h("button", { type: "button", class: "msg-retry", "data-testid": "retry", onClick: () => deps.retry() }, "Retry"));
  if (m.status !== "streaming") {
    bottom.push(checkLine(checksShown(m)));
    bottom.push(sourceList(links, consultedLinks(m.consulted, links, d.read), t.exists, d.opened, { titleOfPath: deps.titleOfPath, openSource: (l) => void deps.openSource(l) }));
  }
  if (deps.exporter && m.status === "done" && m.id) {
    const hasPapers = links.some((l) => l.citation.kind === "vault");
    bottom.push(answerExports(t.id, m.id, hasPapers, deps.exporter));
  }
  d.bottom.replaceChildren(...bottom.filter((n): n is Node => n !== null));
}

// answerText is the message's rendered answer: one view per message, updated
// while it streams and finished once; a trailing list of the sources is
// left out once it is finished (they are drawn under it).
function answerText(m: ChatMessage, t: Thread, d: Drawn, deps: ThreadDeps, openCitation: (target: CitationTarget, event: MouseEvent) => void): HTMLElement {
  if (!d.answer) {
    d.answer = createAnswerView({
      onCitation: openCitation,
      openExternal: (url) => deps.openExternal(url),
    });
    d.answer.element.classList.add("msg-answer");
    d.answer.element.dataset.testid = "answer-text";
  }
  const view = d.answer;
  if (m.status === "streaming") {
    view.update(m.content);
  } else {
    const text = withoutSourceList(m.content);
    if (d.finished !== text) view.finish(text);
    d.finished = text;
  }
  const chips = Array.from(view.element.querySelectorAll<HTMLElement>('[data-testid="cite"]'));
  for (const chip of chips) {
    const missing = t.exists[chip.dataset.uri ?? ""] === false;
    chip.classList.toggle("missing", missing);
  }
  d.chips = markChips(chips, m.status === "streaming" ? [] : checksShown(m));
  return view.element;
}

// checksShown is the checks of the citations a finished answer draws (not
// those of its trailing list of sources, drawn under it instead).
function checksShown(m: ChatMessage) {
  return shownChecks(m.checks, m.content, withoutSourceList(m.content));
}

function contextIndicator(m: ChatMessage, opened: Opened, deps: ThreadDeps): HTMLElement {
  const ctx = m.context!;
  const s = summarize(ctx.mode, ctx.allowed, deps.titleOfRef);
  const changed = grantChanged(ctx);
  const session = sessionText(ctx);
  const details = h(
    "details",
    { class: `turn-context${s.promptOnly ? " prompt-only" : ""}${changed ? " changed" : ""}`, "data-testid": "turn-context" },
    h(
      "summary",
      { title: "What this turn could read" },
      h("span", { class: "context-headline" }, s.headline),
      changed ? h("span", { class: "context-flag", "data-testid": "grant-changed" }, "new session: access changed") : null,
    ),
    s.items.length
      ? h(
          "ul",
          { class: "context-items" },
          ...s.items.map((i) => h("li", { "data-kind": i.kind, "data-ref": i.ref, title: i.ref }, h("span", { class: "kind" }, kindIcon(i.kind)), i.label)),
        )
      : h("p", {}, "Nothing in the vault was granted: the agent answered from the prompt alone."),
    session ? h("p", { class: "context-session" }, session) : null,
  );
  return remember(opened, "context", details);
}

function kindIcon(kind: string): string {
  return kind === "paper" ? "Paper" : kind === "directory" ? "Folder" : "File";
}

// planList draws the agent's plan; once the turn has ended, a step it left
// unfinished says so rather than "in progress".
function planList(entries: PlanEntry[], ended: boolean): HTMLElement {
  const plan: ShownPlanEntry[] = ended ? entries.map((e) => (e.status === "completed" ? e : { ...e, status: "unfinished" })) : entries;
  const { done, total } = planProgress(entries);
  return h(
    "div",
    { class: "msg-plan", "data-testid": "plan" },
    h("span", { class: "plan-head", "aria-hidden": "true" }, `Plan · ${done}/${total}`),
    h(
      "ol",
      { class: "plan-entries", "aria-label": `The agent’s plan: ${done} of ${total} steps done` },
      ...plan.map((e) =>
        h(
          "li",
          {
            class: `plan-entry plan-${e.status}${e.priority === "high" ? " plan-high" : ""}`,
            "data-status": e.status,
            "data-priority": e.priority,
            title: `${e.content}\n${planWord[e.status]}${e.priority === "high" ? ", high priority" : ""}`,
          },
          h("span", { class: "plan-icon", "aria-hidden": "true" }, planIcon[e.status]),
          h("span", { class: "visually-hidden" }, `${planWord[e.status]}: `),
          h("span", { class: "plan-text" }, e.content),
        ),
      ),
    ),
  );
}

type ShownPlanEntry = Omit<PlanEntry, "status"> & { status: PlanStatus | "unfinished" };
const planIcon: Record<ShownPlanEntry["status"], string> = { pending: "○", in_progress: "◐", completed: "✓", unfinished: "–" };
const planWord: Record<ShownPlanEntry["status"], string> = { pending: "to do", in_progress: "in progress", completed: "done", unfinished: "not done when the turn ended" };

function problem(code: ErrorCode, error: string): HTMLElement {
  const p = describeError(code);
  return h(
    "div",
    { class: "msg-error", role: "alert", "data-testid": "turn-error", "data-kind": p.kind },
    h("strong", {}, p.title),
    h("p", {}, p.hint),
    error ? h("p", { class: "detail" }, error) : null,
  );
}

/** sandboxBadge says beside the agent's name how it ran: confined (and by what) or not, with what that means on hover. */
export function sandboxBadge(m: Pick<ChatMessage, "agent" | "sandbox" | "sandboxWhy">): Node | null {
  // The built-in agent is Agentero itself, reading through the grant: nothing to confine.
  if (!m.sandbox || m.agent === "builtin") return null;
  const confined = m.sandbox !== "none";
  const label = confined ? `confined (${m.sandbox})` : "not confined";
  return h(
    "span",
    { class: `sandbox-badge ${confined ? "is-confined" : "is-open"}`, "data-testid": "sandbox-badge", title: m.sandboxWhy, "aria-label": `${label}: ${m.sandboxWhy}` },
    ` · ${label}`,
  );
}
