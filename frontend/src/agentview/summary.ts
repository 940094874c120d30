// Words for how a conversation's history was compacted before it is handed
// to a new session (SPEC §8.3): the tiers applied, which turns went whole,
// as placeholders or into the summary, and the tokens before and after
// against the agent's window.

import type { CompactionResult } from "../lib/backend";

export interface CompactionPart {
  label: string;
  value: string;
}

const tierWords: Record<string, string> = {
  snip: "snip",
  prune: "prune",
  summarize: "summarize",
};

/** turnRanges writes 1-based turn numbers as ranges: [1, 2, 3, 5] is "1–3, 5". */
export function turnRanges(turns: readonly number[]): string {
  const sorted = [...new Set(turns)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    out.push(i === j ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return out.join(", ");
}

function tokens(n: number): string {
  return n.toLocaleString("en-US");
}

function turnCount(n: number): string {
  return `${n} ${n === 1 ? "turn" : "turns"}`;
}

/** historyTurns is the number of turns the history covers. */
export function historyTurns(h: CompactionResult): number {
  return h.whole.length + h.pruned.length + h.summarized.length;
}

/**
 * compactionParts is the compaction summary as labelled parts: the tiers
 * applied, the turns sent whole / pruned / summarized, and the tokens
 * before → after of the window.
 */
export function compactionParts(h: CompactionResult): CompactionPart[] {
  const tiers = h.tiers.map((t) => (t === "snip" && h.snipped > 0 ? `snip (${h.snipped} tool ${h.snipped === 1 ? "result" : "results"})` : tierWords[t] ?? t));
  const turns = [`${h.whole.length} whole`, `${h.pruned.length} pruned`, `${h.summarized.length} summarized`];
  const window = h.window > 0 ? ` of a ${tokens(h.window)}-token window` : "";
  const limit = h.limit > 0 ? ` (the history may use ${tokens(h.limit)})` : "";
  return [
    { label: "Tiers applied", value: tiers.length ? tiers.join(", ") : "none (sent whole)" },
    { label: "Turns", value: turns.join(", ") },
    { label: "Tokens", value: `about ${tokens(h.tokensBefore)} → ${tokens(h.tokensAfter)}${window}${limit}` },
  ];
}

/** compactionLine is the compaction summary on one line. */
export function compactionLine(h: CompactionResult): string {
  if (historyTurns(h) === 0) return "No turns yet: there is no history to hand over.";
  return compactionParts(h)
    .map((p) => `${p.label}: ${p.value}`)
    .join(" · ");
}

/** turnDetail names the turns in each state, e.g. "Whole: turns 5–8 · Pruned: turns 1–4". */
export function turnDetail(h: CompactionResult): string {
  const parts: [string, number[]][] = [
    ["Whole", h.whole],
    ["Pruned to placeholders", h.pruned],
    ["Summarized", h.summarized],
  ];
  return parts
    .filter(([, turns]) => turns.length > 0)
    .map(([label, turns]) => `${label}: ${turns.length === 1 ? "turn" : "turns"} ${turnRanges(turns)}`)
    .join(" · ");
}

/** historyHeadline says in a few words what happened to the history. */
export function historyHeadline(h: CompactionResult): string {
  const n = historyTurns(h);
  if (n === 0) return "No turns yet";
  if (h.tiers.length === 0) return `${turnCount(n)}, sent whole`;
  return `${turnCount(n)}, compacted`;
}

/** Decision is how a permission request of the turn was decided (the chat's PermissionRequest, in part). */
export interface Decision {
  toolCallId: string;
  outcome: string;
  optionId: string;
  options: readonly { id: string; kind: string }[];
}

/**
 * toolStatusWord says how a tool call of the last turn ended: a call whose
 * permission was rejected (or whose turn was cancelled while it waited)
 * never ran, whatever status the agent last sent; a call the turn left
 * unfinished was stopped, not pending.
 */
export function toolStatusWord(tool: { toolCallId: string; status?: string }, decisions: readonly Decision[], turnEnded: boolean): string {
  const d = decisions.find((x) => x.toolCallId !== "" && x.toolCallId === tool.toolCallId && x.outcome !== "");
  if (d?.outcome === "cancelled") return "not run (cancelled before you answered)";
  if (d && (d.options.find((o) => o.id === d.optionId)?.kind ?? "").startsWith("reject")) return "rejected by you (not run)";
  const status = tool.status || "?";
  if (turnEnded && (status === "pending" || status === "in_progress")) return "stopped when the turn ended";
  return status;
}
