// Settings → Metadata online: the logic apart from the DOM.

import type { OnlineReport } from "../lib/backend";

/** emailProblem says what is wrong with a contact email, as a sentence; "" when it is fine or empty. */
export function emailProblem(email: string): string {
  const e = email.trim();
  if (e === "") return "";
  const at = e.indexOf("@");
  if (at < 1 || at === e.length - 1 || /[\s()<>,;]/.test(e) || e.length > 200) {
    return "The contact email must be one address, such as name@example.org.";
  }
  return "";
}

/** reportSummary is one line about a lookup. */
export function reportSummary(r: OnlineReport): string {
  if (r.running) return `Looking up… ${r.papers} papers so far.`;
  if (!r.finished || r.papers === 0 && r.reports.length === 0) return "No lookup has run since the vault was opened.";
  const papers = r.papers === 1 ? "1 paper" : `${r.papers} papers`;
  return `Looked up ${papers}: ${r.updated} updated, ${r.failed} failed.`;
}

/** reportProblems lists the failed lookups, one sentence each. */
export function reportProblems(r: OnlineReport): string[] {
  return r.reports
    .filter((x) => x.error)
    .map((x) => {
      const e = x.error ?? "";
      return `${x.ref || "The library"}${x.id ? ` (${x.id})` : ""}: ${e.endsWith(".") ? e : `${e}.`}`;
    });
}
