// What the conversations panel shows of each stored conversation: where it
// was asked (a paper, by its title, or Quick Chat), by which agent, when.

import type { ConversationSummary } from "../lib/backend";

/** whenLabel says when a conversation was last updated: a time today, "Yesterday", else a date. */
export function whenLabel(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime()) || d.getFullYear() < 2000) return "";
  const time = d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  const day = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((day(now) - day(d)) / 86_400_000);
  if (days === 0) return `Today ${time}`;
  if (days === 1) return `Yesterday ${time}`;
  const sameYear = d.getFullYear() === now.getFullYear();
  return d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: sameYear ? undefined : "numeric" });
}

/** placeLabel names where a conversation was asked: its paper's title (or ref), or Quick Chat. */
export function placeLabel(c: ConversationSummary, titleOfRef: (ref: string) => string): string {
  if (c.surface === "quickChat") return "Quick Chat";
  if (!c.paper) return "About a paper";
  return `About ${titleOfRef(c.paper) || c.paper}`;
}

/** metaLine is the line under a conversation's title. */
export function metaLine(c: ConversationSummary, titleOfRef: (ref: string) => string, now: Date = new Date()): string {
  const n = c.messages === 1 ? "1 message" : `${c.messages} messages`;
  return [placeLabel(c, titleOfRef), c.agent ? `agent: ${c.agent}` : "", n, whenLabel(c.updatedAt, now)].filter(Boolean).join(" · ");
}

/** paperMissing: a paper's conversation whose paper is no longer in the library. */
export function paperMissing(c: ConversationSummary, hasPaper: (ref: string) => boolean): boolean {
  return c.surface !== "quickChat" && c.paper !== "" && !hasPaper(c.paper);
}
