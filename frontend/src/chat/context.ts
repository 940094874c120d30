// Words for what a turn can read: the plan's allowed sources (from
// PreviewPlan before sending, from agent:status once the turn runs) and
// whether a new session was started because the grant changed.

import type { ContextPlan } from "../lib/backend";
import type { GrantSource } from "../lib/events";
import type { TurnContext } from "./state";

export interface ContextItem {
  kind: GrantSource["kind"];
  ref: string;
  label: string;
}

export interface ContextSummary {
  promptOnly: boolean;
  /** One short line, e.g. "Can read 2 papers, 1 folder". */
  headline: string;
  items: ContextItem[];
}

const kindNames: Record<GrantSource["kind"], [string, string]> = {
  paper: ["paper", "papers"],
  directory: ["folder", "folders"],
  file: ["file", "files"],
};

/** summarize describes the allowed sources; titleOf names a paper ref ("" when unknown). */
export function summarize(mode: string, allowed: readonly GrantSource[], titleOf: (ref: string) => string): ContextSummary {
  const items = allowed.map((s) => ({ kind: s.kind, ref: s.ref, label: itemLabel(s, titleOf) }));
  if (mode !== "mcp" || items.length === 0) {
    return { promptOnly: true, headline: "Prompt only: the agent can’t read your vault in this turn", items };
  }
  const counts = (["paper", "directory", "file"] as const)
    .map((k) => [k, items.filter((i) => i.kind === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${kindNames[k][n === 1 ? 0 : 1]}`);
  return { promptOnly: false, headline: `Can read ${counts.join(", ")}`, items };
}

function itemLabel(s: GrantSource, titleOf: (ref: string) => string): string {
  if (s.kind === "paper") return titleOf(s.ref) || s.ref;
  return s.kind === "directory" ? `${s.ref}/` : s.ref;
}

/** PreviewListed is how many sources the preview line names; beyond it, the line is a count and the names sit behind "show all". */
export const PreviewListed = 3;

/** Preview is what the box says before sending: one line, and the names behind "show all" when there are many. */
export interface Preview {
  line: string;
  /** more lists every source when the line only counts them (empty otherwise). */
  more: string[];
}

/** preview is the line shown under the question box before sending, kept short so the thread keeps its room (@vault grants every paper). */
export function preview(plan: ContextPlan, titleOf: (ref: string) => string): Preview {
  const s = summarize(plan.mode, plan.allowed, titleOf);
  if (s.promptOnly) {
    return { line: "Prompt only: nothing is pointed at, so the agent can’t read your vault. Open a paper, select text or @-mention what it should read.", more: [] };
  }
  if (s.items.length > PreviewListed) return { line: s.headline, more: s.items.map((i) => i.label) };
  return { line: `${s.headline}: ${s.items.map((i) => i.label).join(", ")}`, more: [] };
}

/** previewText is the preview's line alone. */
export function previewText(plan: ContextPlan, titleOf: (ref: string) => string): string {
  return preview(plan, titleOf).line;
}

/** sessionText says how the turn's session was obtained, and why a new one was started. */
export function sessionText(ctx: TurnContext): string {
  const how: Record<string, string> = {
    new: "new session",
    warm: "new session (pre-started)",
    resume: "continued session (resumed)",
    load: "continued session (reloaded)",
    continue: "continued session",
  };
  const base = how[ctx.action] ?? "";
  if (!ctx.note) return base;
  return base ? `${base}: ${ctx.note}` : ctx.note;
}

/** grantChanged reports whether a new session was started because what the turn may read changed. */
export function grantChanged(ctx: TurnContext): boolean {
  return /may read changed/i.test(ctx.note);
}
