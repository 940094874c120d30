// The claim check of an answer's citations (SPEC §6), as the thread shows
// it: what each verdict says on its chip and in the line under the answer,
// and which check belongs to which chip. The backend checks; this module
// only words what it found and never says more than was checked: "Quote
// found on p. 6", never "true".

import type { CitationCheck } from "../lib/backend";
import { parseCitation } from "../lib/citation";

/** Verdicts are the claim check's verdicts (Go's citation.Verdicts), best first. */
export const verdicts = ["verified", "supported", "weak", "wrong-page", "unsupported", "outside", "broken"] as const;

export type Verdict = (typeof verdicts)[number];

export function isVerdict(v: unknown): v is Verdict {
  return (verdicts as readonly unknown[]).includes(v);
}

/** Tone is how a verdict is coloured: found, partly or elsewhere, not found, or not checked against the page. */
export type Tone = "found" | "partial" | "missing" | "neutral";

const tones: Record<Verdict, Tone> = {
  verified: "found",
  supported: "found",
  weak: "partial",
  "wrong-page": "partial",
  unsupported: "missing",
  outside: "neutral",
  broken: "missing",
};

/** Icons mark a chip's verdict beside its words (the words carry the meaning; the icon is decoration). */
const icons: Record<Verdict, string> = {
  verified: "✓",
  supported: "✓",
  weak: "◐",
  "wrong-page": "↪",
  unsupported: "✗",
  outside: "⊘",
  broken: "!",
};

export interface CheckView {
  verdict: Verdict;
  tone: Tone;
  icon: string;
  /** What was checked and found, as a sentence fragment: "Quote found on p. 6". */
  words: string;
  /** For wrong-page: the page that holds the claim, which the chip opens; else 0. */
  opens: number;
}

/**
 * describeCheck words a check for its chip; null for a verdict this UI does
 * not know (a newer backend), which then shows no badge.
 */
export function describeCheck(c: Pick<CitationCheck, "uri" | "page" | "verdict" | "foundPage">): CheckView | null {
  if (!isVerdict(c.verdict)) return null;
  const page = c.page > 0 ? c.page : c.foundPage;
  const where = page > 0 ? `on p. ${page}` : `in this ${kindOf(c.uri)}`;
  const words: Record<Verdict, string> = {
    verified: `Quote found ${where}`,
    supported: `Words found ${where}`,
    weak: `Only partly ${page > 0 ? where : `found ${where}`}`,
    "wrong-page": c.foundPage > 0 ? `Found on p. ${c.foundPage}` : "Found on another page",
    unsupported: `Not found in this ${kindOf(c.uri)}`,
    outside: "Outside this turn’s sources",
    broken: "Can’t be opened",
  };
  return {
    verdict: c.verdict,
    tone: tones[c.verdict],
    icon: icons[c.verdict],
    words: words[c.verdict],
    opens: c.verdict === "wrong-page" && c.foundPage > 0 ? c.foundPage : 0,
  };
}

// The verdicts whose check names the words of a page that hold the claim
// (CitationCheck.passage).
const withPassage: ReadonlySet<string> = new Set<Verdict>(["supported", "weak", "wrong-page"]);

/** CheckedPlace is where a checked chip opens and the words it has marked there. */
export interface CheckedPlace {
  page: number;
  /** The words to mark, located by the backend as a citation's quote is; "" for the chip's own quote. */
  quote: string;
}

/**
 * checkedPlace is where a checked chip opens, page being the chip's own: a
 * claim found on another page (wrong-page) opens that page, and so does a
 * page-less citation the check found on a page; a check that names the
 * page's words holding the claim (its passage: supported, weak, wrong-page)
 * has them marked. null when the check changes nothing, and the chip opens
 * its own page and quote.
 */
export function checkedPlace(check: Pick<CitationCheck, "verdict" | "page" | "foundPage" | "quote" | "passage">, page: number): CheckedPlace | null {
  if (!isVerdict(check.verdict)) return null;
  const passage = withPassage.has(check.verdict) ? (check.passage ?? "").trim() : "";
  const elsewhere = check.verdict === "wrong-page" && check.foundPage > 0;
  const at = elsewhere || (check.page === 0 && check.foundPage > 0) ? check.foundPage : page;
  if (passage) return { page: at, quote: passage };
  if (elsewhere) return { page: at, quote: check.quote };
  return null;
}

// kindOf names what a citation points into: a paper (a PDF) or a file.
function kindOf(uri: string): string {
  const c = parseCitation(uri);
  return c?.kind === "vault" && !/\.pdf$/i.test(c.path) ? "file" : "paper";
}

// What the summary line says of each verdict, for one citation and for several.
const counted: Record<Verdict, [string, string]> = {
  verified: ["quote found", "quotes found"],
  supported: ["with its words on the page", "with their words on the page"],
  weak: ["only partly on the page", "only partly on the page"],
  "wrong-page": ["on another page", "on another page"],
  unsupported: ["not found", "not found"],
  outside: ["outside this turn’s sources", "outside this turn’s sources"],
  broken: ["can’t be opened", "can’t be opened"],
};

/**
 * checkSummary is the line under an answer: "5 citations: 3 quotes found, 1
 * on another page, 1 not found", verdicts best first; "" when nothing was
 * checked.
 */
export function checkSummary(checks: readonly Pick<CitationCheck, "verdict">[]): string {
  if (checks.length === 0) return "";
  const counts = new Map<string, number>();
  for (const c of checks) counts.set(c.verdict, (counts.get(c.verdict) ?? 0) + 1);
  const parts: string[] = [];
  for (const v of verdicts) {
    const n = counts.get(v) ?? 0;
    if (n > 0) parts.push(`${n} ${counted[v][n === 1 ? 0 : 1]}`);
  }
  const unknown = checks.filter((c) => !isVerdict(c.verdict)).length;
  if (unknown > 0) parts.push(`${unknown} not checked`);
  return `${checks.length} ${checks.length === 1 ? "citation" : "citations"}: ${parts.join(", ")}`;
}

/**
 * shownChecks drops the checks of citations that are not in the text drawn:
 * shown is the start of the answer's Markdown that the thread draws (a
 * trailing "Sources:" list is drawn as the sources under it instead), and a
 * check's start is a byte offset into the whole answer. Checks without
 * offsets are all kept.
 */
export function shownChecks<C extends Pick<CitationCheck, "start" | "end">>(checks: readonly C[], content: string, shown: string): C[] {
  if (shown.length >= content.length || !content.startsWith(shown)) return [...checks];
  const end = new TextEncoder().encode(shown).length;
  return checks.filter((c) => !(c.end > c.start && c.start >= end));
}

// Above this many chips × checks the alignment is not attempted (an answer
// with hundreds of citations): only a list that lines up exactly is used.
const MaxAlignCells = 1_000_000;

/**
 * alignChecks pairs the chips of an answer (their URIs, in the order the
 * answer writes them) with its checks (in the same order, each naming the
 * URI it checked): the n-th chip with the n-th check when they line up.
 * When they do not (one side found a citation the other did not), the
 * longest common run of equal citations is paired, and a citation that
 * appears a different number of times on each side is left unpaired, since
 * which of its checks is whose cannot be told. It returns, for each chip,
 * the index of its check or -1: no badge rather than a wrong one.
 */
export function alignChecks(chips: readonly string[], checks: readonly Pick<CitationCheck, "uri">[]): number[] {
  const a = chips.map(citationKey);
  const b = checks.map((c) => citationKey(c.uri));
  const out = a.map(() => -1);
  if (a.length === b.length && a.every((k, i) => k === b[i])) return a.map((_, i) => i);
  if (a.length * b.length > MaxAlignCells) return out;

  // Longest common subsequence, by dynamic programming from the ends.
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  const len = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      len[i * width + j] = a[i] === b[j] ? len[(i + 1) * width + j + 1] + 1 : Math.max(len[(i + 1) * width + j], len[i * width + j + 1]);
    }
  }
  const times = (keys: string[]) => keys.reduce((t, k) => t.set(k, (t.get(k) ?? 0) + 1), new Map<string, number>());
  const inChips = times(a);
  const inChecks = times(b);
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j]) {
      if (inChips.get(a[i]) === inChecks.get(a[i])) out[i] = j;
      i++;
      j++;
    } else if (len[(i + 1) * width + j] >= len[i * width + j + 1]) {
      i++;
    } else {
      j++;
    }
  }
  return out;
}

/**
 * citationKey is what makes two written citations the same one: the file,
 * page and quote they name, however they were escaped (a Markdown link's
 * target is percent-encoded by the parser; the check keeps the text as the
 * agent wrote it).
 */
export function citationKey(uri: string): string {
  const text = uri.trim().replace(/^\[(.*)\]$|^<(.*)>$/s, "$1$2").trim();
  const c = parseCitation(text);
  if (c === null) return `text:${text}`;
  if (c.kind === "external") return c.url;
  return `${c.path}#${c.page}#${c.quote.replace(/\s+/g, " ")}`;
}
