// One conversation's messages: questions, streamed answers with inline
// citations, compact tool activity and the agent's plan, the per-turn
// context indicator, errors
// that say what happened, and the sources as clickable locations. Messages
// are immutable, so each one's element is cached by identity and only the
// message that changed is drawn again.

import { h } from "../lib/dom";
import { agentLabel } from "./agent-choice";
import { grantChanged, sessionText, summarize } from "./context";
import type { ErrorCode } from "../lib/events";
import { describeError } from "./errors";
import { sourceLabel, sourceLinks, splitAnswer, withoutSourceList, type SourceLink } from "./sources";
import { canRetry, planProgress, type ChatMessage, type PlanEntry, type PlanStatus, type Thread, type ToolActivity } from "./state";

export interface ThreadDeps {
  /** The title of the paper whose PDF is at a vault path ("" when unknown). */
  titleOfPath(path: string): string;
  /** The title of a paper ref ("" when unknown). */
  titleOfRef(ref: string): string;
  /** openSource follows a source; it resolves to false when the source no longer exists. */
  openSource(link: SourceLink): Promise<boolean>;
  retry(): void;
}

export interface ThreadView {
  el: HTMLElement;
  render(thread: Thread | null, empty: string): void;
}

export function createThreadView(deps: ThreadDeps): ThreadView {
  const list = h("ol", { class: "chat-messages", "aria-label": "Messages", "aria-live": "polite", "data-testid": "chat-messages" });
  const placeholder = h("p", { class: "chat-empty" });
  const el = h("div", { class: "chat-thread", tabIndex: -1 }, placeholder, list);
  const cache = new WeakMap<ChatMessage, { el: HTMLElement; exists: Record<string, boolean>; retry: boolean }>();

  function draw(m: ChatMessage, t: Thread, retry: boolean): HTMLElement {
    const hit = cache.get(m);
    if (hit && hit.exists === t.exists && hit.retry === retry) return hit.el;
    const node = m.role === "user" ? userMessage(m) : answer(m, t, retry, deps);
    cache.set(m, { el: node, exists: t.exists, retry });
    return node;
  }

  return {
    el,
    render(thread, empty) {
      const messages = thread?.messages ?? [];
      placeholder.textContent = thread?.phase === "error" ? `Couldn’t load this conversation: ${thread.loadError}` : empty;
      placeholder.classList.toggle("error", thread?.phase === "error");
      placeholder.hidden = messages.length > 0 || (thread?.phase === "loading" && empty === "");
      const retryAt = thread && canRetry(thread) ? messages.length - 1 : -1;
      const stick = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      const nodes = messages.map((m, i) => draw(m, thread!, i === retryAt));
      if (nodes.length !== list.children.length || nodes.some((n, i) => list.children[i] !== n)) {
        const focus = focusKey(list);
        list.replaceChildren(...nodes);
        if (focus) list.querySelector<HTMLElement>(focus)?.focus();
      }
      if (stick) el.scrollTop = el.scrollHeight;
    },
  };
}

// focusKey names the focused control inside the list, so that it can be
// focused again after its message was drawn anew (keyboard users keep their place).
function focusKey(list: HTMLElement): string {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement) || !list.contains(el)) return "";
  const li = el.closest("li.msg");
  const index = li ? Array.prototype.indexOf.call(list.children, li) : -1;
  if (index < 0 || !el.dataset.testid) return "";
  const uri = el.dataset.uri ? `[data-uri="${CSS.escape(el.dataset.uri)}"]` : "";
  return `:scope > li:nth-child(${index + 1}) [data-testid="${el.dataset.testid}"]${uri}`;
}

function userMessage(m: ChatMessage): HTMLElement {
  return h("li", { class: "msg msg-user", "data-testid": "msg-user" }, h("div", { class: "msg-text" }, m.content));
}

function answer(m: ChatMessage, t: Thread, retry: boolean, deps: ThreadDeps): HTMLElement {
  const li = h("li", { class: `msg msg-assistant status-${m.status}`, "data-testid": "msg-assistant", "data-status": m.status });
  if (m.agent) li.append(h("p", { class: "msg-agent", "data-testid": "msg-agent" }, agentLabel(m.agent)));
  if (m.context) li.append(contextIndicator(m, deps));
  if (m.tools.length > 0) li.append(toolList(m.tools));
  if (m.plan.length > 0) li.append(planList(m.plan));
  if (m.thought) {
    li.append(h("details", { class: "msg-thought" }, h("summary", {}, "Thinking"), h("div", { class: "msg-text" }, m.thought)));
  }
  const links = sourceLinks(m.content, m.sources);
  if (m.content) li.append(answerText(m, links, t, deps));
  if (m.status === "streaming") {
    li.append(
      h(
        "div",
        { class: "msg-progress", role: "progressbar", "aria-label": "Answering" },
        h("div", { class: "progress-track" }, h("div", { class: "progress-fill" })),
        h("span", {}, m.content ? "Answering…" : m.tools.length ? "Reading your sources…" : "Waiting for the agent…"),
      ),
    );
  }
  if (m.status === "error") li.append(problem(m.errorCode || "internal", m.error));
  if (m.status === "cancelled") li.append(h("p", { class: "msg-note" }, "Cancelled. What arrived before is kept."));
  if (retry) {
    li.append(h("button", { type: "button", class: "msg-retry", "data-testid": "retry", onClick: () => deps.retry() }, "Retry"));
  }
  if (m.status !== "streaming" && links.length > 0) li.append(sourceList(links, t, deps));
  return li;
}

function answerText(m: ChatMessage, links: SourceLink[], t: Thread, deps: ThreadDeps): HTMLElement {
  const byUri = new Map(links.map((l) => [l.uri, l]));
  const text = h("div", { class: "msg-text", "data-testid": "answer-text" });
  const shown = m.status === "streaming" ? m.content : withoutSourceList(m.content);
  for (const part of splitAnswer(shown, m.sources)) {
    const link = "uri" in part ? byUri.get(part.uri) : undefined;
    if (!link) {
      text.append(part.text);
      continue;
    }
    text.append(sourceButton(link, t, deps, "cite"));
  }
  return text;
}

function sourceList(links: SourceLink[], t: Thread, deps: ThreadDeps): HTMLElement {
  return h(
    "div",
    { class: "msg-sources", "data-testid": "sources" },
    h("h3", {}, "Sources"),
    h("ul", {}, ...links.map((l) => h("li", {}, sourceButton(l, t, deps, "source")))),
  );
}

function sourceButton(link: SourceLink, t: Thread, deps: ThreadDeps, style: "cite" | "source"): HTMLElement {
  const exists = t.exists[link.uri];
  const missing = exists === false;
  const external = link.citation.kind === "external";
  const label = sourceLabel(link, deps.titleOfPath);
  const text = style === "cite" ? citeLabel(link, label) : label;
  const button = h(
    "button",
    {
      type: "button",
      class: `source ${style}${missing ? " missing" : ""}${external ? " external" : ""}`,
      "data-testid": style === "cite" ? "cite" : "source",
      "data-uri": link.uri,
      title: missing
        ? `${link.uri}\nThis source is no longer in the vault.`
        : external
          ? `${link.uri}\nOpens in your browser.`
          : `${link.uri}${link.quote ? `\nHighlights “${link.quote}”` : ""}`,
      onClick: () => void deps.openSource(link),
    },
    text,
  );
  if (style === "source" && missing) return h("span", { class: "source-row" }, button, h("span", { class: "source-missing" }, "no longer in the vault"));
  if (style === "source" && external) return h("span", { class: "source-row" }, button, h("span", { class: "source-hint" }, "opens in browser ↗"));
  return button;
}

function citeLabel(link: SourceLink, label: string): string {
  const c = link.citation;
  if (c.kind === "vault" && /\.pdf$/i.test(c.path)) return `p. ${c.page}`;
  return label;
}

function contextIndicator(m: ChatMessage, deps: ThreadDeps): HTMLElement {
  const ctx = m.context!;
  const s = summarize(ctx.mode, ctx.allowed, deps.titleOfRef);
  const changed = grantChanged(ctx);
  const session = sessionText(ctx);
  return h(
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
}

function kindIcon(kind: string): string {
  return kind === "paper" ? "Paper" : kind === "directory" ? "Folder" : "File";
}

function toolList(tools: ToolActivity[]): HTMLElement {
  return h(
    "ul",
    { class: "msg-tools", "aria-label": "Tool activity", "data-testid": "tools" },
    ...tools.map((t) =>
      h("li", { class: `tool tool-${t.status}`, title: `${t.title} (${t.status.replace("_", " ")})` }, h("span", { class: "tool-icon" }, toolIcon(t.status)), t.title),
    ),
  );
}

function toolIcon(status: string): string {
  switch (status) {
    case "completed":
      return "✓";
    case "failed":
      return "✗";
    case "stopped":
      return "–";
    default:
      return "…";
  }
}

function planList(plan: PlanEntry[]): HTMLElement {
  const { done, total } = planProgress(plan);
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

const planIcon: Record<PlanStatus, string> = { pending: "○", in_progress: "◐", completed: "✓" };
const planWord: Record<PlanStatus, string> = { pending: "to do", in_progress: "in progress", completed: "done" };

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
