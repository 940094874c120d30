// The tool activity of an answer, as ACP describes it: each tool call with
// its title, kind and status (live while the answer streams), collapsed to
// one line and expandable to its input, what it produced (text, or a diff of
// a file) and the locations it names. Permission requests that Agentero
// decided by itself (the turn's own context tools) are quiet lines here.

import { parseCitation } from "../lib/citation";
import { h } from "../lib/dom";
import type { ToolContent, ToolLocation } from "../lib/events";
import { lineDiff } from "./diff";
import { disclosure, type Opened } from "./disclosure";
import type { PermissionRequest, ToolActivity } from "./state";

export interface ActivityDeps {
  /** openLocation opens a location inside the vault (the PDF at the page, or the file). */
  openLocation(citationUri: string): void;
}

/** toolActivity lists a message's tool calls and automatic decisions; null when there are none. */
export function toolActivity(tools: ToolActivity[], permissions: PermissionRequest[], opened: Opened, deps: ActivityDeps): HTMLElement | null {
  const auto = permissions.filter((p) => p.auto);
  if (tools.length === 0 && auto.length === 0) return null;
  const items: HTMLElement[] = [];
  const placed = new Set<PermissionRequest>();
  for (const t of tools) {
    // A decision sits above the call it allowed.
    for (const p of auto.filter((p) => p.toolCallId === t.id)) {
      items.push(autoLine(p));
      placed.add(p);
    }
    items.push(toolItem(t, opened, deps));
  }
  for (const p of auto) if (!placed.has(p)) items.push(autoLine(p));
  return h("ul", { class: "msg-tools", "aria-label": "Tool activity", "data-testid": "tools" }, ...items);
}

function toolItem(t: ToolActivity, opened: Opened, deps: ActivityDeps): HTMLElement {
  const li = h("li", {
    class: `tool tool-${t.status}`,
    "data-testid": "tool",
    "data-tool-id": t.id,
    "data-status": t.status,
    "data-kind": t.kind,
  });
  const head = [
    h("span", { class: "tool-icon", "aria-hidden": "true" }, toolIcon(t.status)),
    h("span", { class: "tool-title", title: t.title }, ...titleParts(t.title)),
    t.kind ? h("span", { class: "tool-kind" }, t.kind) : "",
    h("span", { class: "tool-status", "data-testid": "tool-status" }, statusWord(t.status)),
  ];
  if (!t.input && t.content.length === 0 && t.locations.length === 0) {
    li.append(h("div", { class: "tool-row" }, ...head));
    return li;
  }
  li.append(
    disclosure(opened, `tool:${t.id}`, { class: "tool-details", "data-testid": "tool-details" }, head, () => [
      t.locations.length ? locationList(t.locations, deps) : null,
      t.input ? h("div", { class: "tool-part" }, h("h5", {}, "Input"), jsonBlock(t.input, "tool-input")) : null,
      ...t.content.map(contentPart),
    ]),
  );
  return li;
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

/** statusWord says where a tool call is, in a word. */
export function statusWord(status: string): string {
  switch (status) {
    case "pending":
      return "waiting";
    case "in_progress":
      return "running";
    case "completed":
      return "done";
    case "failed":
      return "failed";
    case "stopped":
      return "stopped";
    default:
      return status.replace(/_/g, " ");
  }
}

function contentPart(c: ToolContent): HTMLElement {
  if (c.type === "diff") return diffView(c.path ?? "", c.oldText ?? "", c.newText ?? "");
  const text = jsonBlock(c.text ?? "", "tool-text");
  text.dataset.testid = "tool-text";
  return h("div", { class: "tool-part" }, text);
}

/** diffView shows an edit as a unified diff: removed and added lines among a few unchanged ones. */
export function diffView(path: string, oldText: string, newText: string): HTMLElement {
  const d = lineDiff(oldText, newText);
  const summary = oldText === "" ? `new file, ${d.added} ${plural(d.added, "line")}` : `+${d.added} −${d.removed}`;
  const rows = d.lines.map((l) =>
    l.op === "…"
      ? h("div", { class: "diff-fold" }, `⋯ ${l.count} unchanged ${plural(l.count, "line")}`)
      : h(
          "div",
          { class: `diff-line diff-${l.op === "+" ? "add" : l.op === "-" ? "del" : "same"}` },
          h("span", { class: "diff-op", "aria-hidden": "true" }, l.op),
          h("span", { class: "visually-hidden" }, l.op === "+" ? "added: " : l.op === "-" ? "removed: " : ""),
          l.text,
        ),
  );
  return h(
    "div",
    { class: "tool-part tool-diff", "data-testid": "tool-diff" },
    h("h5", {}, h("span", { class: "diff-path" }, path || "Edit"), h("span", { class: "diff-count" }, summary)),
    d.whole ? h("p", { class: "diff-note" }, "Too long to compare line by line: the old text, then the new.") : null,
    h("div", { class: "diff-lines", role: "group", "aria-label": `Changes to ${path || "the file"}` }, ...rows),
  );
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

/**
 * titleParts writes a title as the agent did: `…` spans (Claude Code puts
 * paths in them) as code, the rest as text.
 */
export function titleParts(title: string): (Node | string)[] {
  return title.split(/(`[^`]+`)/).flatMap((part): (Node | string)[] => {
    if (part === "") return [];
    return part.length > 2 && part.startsWith("`") && part.endsWith("`") ? [h("code", {}, part.slice(1, -1))] : [part];
  });
}

/**
 * locationList shows the files a call names: inside the vault they open and
 * read as vault paths ("notes/raft.md:3", "papers/x/x.pdf, p. 4"), outside
 * they are only named.
 */
export function locationList(locations: ToolLocation[], deps: ActivityDeps): HTMLElement {
  return h(
    "ul",
    { class: "tool-locations", "aria-label": "Locations" },
    ...locations.map((l) => {
      const name = l.line ? `${l.path}:${l.line}` : l.path;
      if (l.inVault && l.citationUri) {
        const uri = l.citationUri;
        const c = parseCitation(uri);
        const label = c?.kind !== "vault" ? name : /\.pdf$/i.test(c.path) ? `${c.path}, p. ${c.page}` : l.line ? `${c.path}:${l.line}` : c.path;
        return h(
          "li",
          {},
          h(
            "button",
            { type: "button", class: "location", "data-testid": "location", "data-uri": uri, "data-focus": `location:${uri}`, title: `${l.path}\nOpens ${uri}`, onClick: () => deps.openLocation(uri) },
            label,
          ),
        );
      }
      return h(
        "li",
        {},
        h("span", { class: `location-text${l.inVault ? "" : " outside"}`, title: l.inVault ? l.path : "Outside the vault: not opened" }, name),
      );
    }),
  );
}

/** jsonBlock shows JSON text pretty-printed (other text as it came). */
export function jsonBlock(text: string, className: string): HTMLElement {
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Capped or not JSON: show it as it came.
  }
  return h("pre", { class: className }, shown);
}

function autoLine(p: PermissionRequest): HTMLElement {
  return h(
    "li",
    { class: "tool-auto", "data-testid": "permission-auto", "data-request-id": p.requestId, title: p.title },
    `${decisionVerb(p)} ${permissionSubject(p.title, p.toolCallId)} automatically`,
  );
}

/** decisionVerb says how a request was decided: allowed, rejected or cancelled. */
export function decisionVerb(p: Pick<PermissionRequest, "outcome" | "optionId" | "options">): string {
  if (p.outcome === "cancelled") return "cancelled";
  const kind = p.options.find((o) => o.id === p.optionId)?.kind ?? "";
  return kind.startsWith("reject") ? "rejected" : "allowed";
}

// The agentero-context tools (SPEC §4, §8.3), as agents name them.
const contextTools = /\b(context_search|context_read|context_history|paper_relations)\b/;

/**
 * permissionSubject names what a request is for: Claude Code's adapter
 * titles MCP calls mcp__<server>__<tool> ("agentero-context search");
 * Gemini CLI titles them with their arguments as JSON and names the tool in
 * the call's id ("context_search-1712…"). Other titles are kept as the
 * agent wrote them.
 */
export function permissionSubject(title: string, toolCallId = ""): string {
  const m = /^mcp__(.+?)__(.+)$/.exec(title.trim());
  if (m) return `${m[1]} ${shortTool(m[2])}`;
  const named = contextTools.exec(title) ?? contextTools.exec(toolCallId);
  if (named) return `agentero-context ${shortTool(named[1])}`;
  return title;
}

function shortTool(tool: string): string {
  return tool.replace(/^context_/, "").replace(/_/g, " ");
}
