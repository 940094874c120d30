// The library's order and filter, as pure functions: sort by title, first
// author, year or when the PDF was added; an instant filter over title,
// authors, year and tags (every word must match somewhere).

import type { PaperSummary } from "../lib/backend";

export type SortKey = "title" | "author" | "year" | "added";

export const SortLabels: Record<SortKey, string> = {
  title: "Title",
  author: "First author",
  year: "Year (newest first)",
  added: "Added (newest first)",
};

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

function titleOf(p: PaperSummary): string {
  return (p.title || p.ref).replace(/^(the|a|an)\s+/i, "");
}

/** familyName is the sorting name of an author: "Satoshi Nakamoto" → "Nakamoto", "Nakamoto, Satoshi" → "Nakamoto". */
export function familyName(author: string): string {
  const a = author.trim();
  if (a.includes(",")) return a.split(",")[0].trim();
  const parts = a.split(/\s+/);
  return parts[parts.length - 1] ?? "";
}

/** sortPapers returns a sorted copy; ties fall back to the title, then the ref, so the order is stable. */
export function sortPapers(papers: readonly PaperSummary[], key: SortKey): PaperSummary[] {
  const byTitle = (a: PaperSummary, b: PaperSummary) => collator.compare(titleOf(a), titleOf(b)) || collator.compare(a.ref, b.ref);
  const cmp: Record<SortKey, (a: PaperSummary, b: PaperSummary) => number> = {
    title: byTitle,
    author: (a, b) => {
      const fa = a.authors[0] ? familyName(a.authors[0]) : "";
      const fb = b.authors[0] ? familyName(b.authors[0]) : "";
      // Papers without authors go last.
      if (!fa !== !fb) return fa ? -1 : 1;
      return collator.compare(fa, fb) || byTitle(a, b);
    },
    year: (a, b) => {
      if (!a.year !== !b.year) return a.year ? -1 : 1;
      return b.year - a.year || byTitle(a, b);
    },
    added: (a, b) => (b.added ?? 0) - (a.added ?? 0) || byTitle(a, b),
  };
  return [...papers].sort(cmp[key]);
}

function fold(s: string): string {
  return s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/** filterPapers keeps the papers whose title, authors, year or tags hold every word of the query. */
export function filterPapers(papers: readonly PaperSummary[], query: string): PaperSummary[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...papers];
  return papers.filter((p) => {
    const hay = fold([p.title, p.ref, ...p.authors, p.year > 0 ? String(p.year) : "", ...(p.tags ?? [])].join(" \u0000 "));
    return words.every((w) => hay.includes(w));
  });
}

export function isSortKey(v: string | null): v is SortKey {
  return v === "title" || v === "author" || v === "year" || v === "added";
}
