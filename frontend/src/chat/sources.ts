// Sources under an answer. The backend lists the citation URIs the agent's
// tools returned (agent:completed.sources); the answer text cites them inline
// as "[papers/x/x.pdf#page=N]", usually right after the quoted passage. When a
// cited passage is quoted next to its citation, its first words go into the
// link's quote so the viewer can highlight it.

import { citedFile, formatCitation, parseCitation, type Citation } from "../lib/citation";

/**
 * QuoteWords is how many opening words of a quoted passage a link carries:
 * enough to mark the passage rather than a table row it happens to start
 * with; the viewer falls back to fewer words when the page cuts it.
 */
export const QuoteWords = 24;

export interface SourceLink {
  /** The URI as the agent gave it. */
  uri: string;
  citation: Citation;
  /** The URI to open: for vault sources, with the quote the answer gives next to it. */
  target: string;
  /** Opening words of the quoted passage, "" when the answer quotes none. */
  quote: string;
}

/** A piece of answer text: plain text, or an inline citation. */
export type AnswerPart = { text: string } | { text: string; uri: string };

// "[…]" with no brackets or line breaks inside.
const bracket = /\[([^[\]\n]+)\]/g;
// A quoted passage: curly or straight double quotes.
const quoted = /“([^“”]+)”|"([^"\n]+)"/g;

/**
 * isCitation tells a bracketed citation from other brackets ("[1]", "[sic]"):
 * it must be one of the turn's sources, or a cited file (lib/citation.ts).
 */
function isCitation(inner: string, sources: ReadonlySet<string>): boolean {
  const text = inner.trim();
  return sources.has(text) || citedFile(text) !== null;
}

/** splitAnswer cuts answer text into plain text and inline citations, in order. */
export function splitAnswer(content: string, sources: readonly string[] = []): AnswerPart[] {
  const known = new Set(sources);
  const parts: AnswerPart[] = [];
  let at = 0;
  for (const m of content.matchAll(bracket)) {
    const uri = m[1].trim();
    if (!isCitation(uri, known)) continue;
    const start = m.index ?? 0;
    if (start > at) parts.push({ text: content.slice(at, start) });
    parts.push({ text: m[0], uri });
    at = start + m[0].length;
  }
  if (at < content.length) parts.push({ text: content.slice(at) });
  return parts;
}

/**
 * citedQuotes maps each cited URI to the opening words of the passage quoted
 * just before it: the last quotation between the previous citation and this
 * one. The first quotation of a URI wins.
 */
export function citedQuotes(content: string, sources: readonly string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  let plain = "";
  for (const part of splitAnswer(content, sources)) {
    if (!("uri" in part)) {
      plain += part.text;
      continue;
    }
    const quote = lastQuote(plain);
    if (quote && !out.has(part.uri)) out.set(part.uri, quote);
    plain = "";
  }
  return out;
}

function lastQuote(text: string): string {
  let last = "";
  for (const m of text.matchAll(quoted)) last = m[1] ?? m[2] ?? "";
  return openingWords(last);
}

/** openingWords is the first n words of a passage, without the ellipses a snippet starts or ends with. */
export function openingWords(text: string, n = QuoteWords): string {
  const clean = text
    .replace(/^[\s…]+|^\.\.\./g, "")
    .replace(/[\s…]+$|\.\.\.$/g, "")
    .trim();
  return clean.split(/\s+/).filter(Boolean).slice(0, n).join(" ");
}

/**
 * sourceLinks lists a turn's sources: the ones the backend reported, then any
 * the text cites that were not reported, each once, with the quote the answer
 * gives next to it. Sources that are neither vault paths nor allowed external
 * links are dropped.
 */
export function sourceLinks(content: string, sources: readonly string[]): SourceLink[] {
  const quotes = citedQuotes(content, sources);
  const cited = splitAnswer(content, sources).flatMap((p) => ("uri" in p ? [p.uri] : []));
  const seen = new Set<string>();
  const out: SourceLink[] = [];
  for (const uri of [...sources, ...cited]) {
    if (seen.has(uri)) continue;
    seen.add(uri);
    const link = sourceLink(uri, quotes.get(uri) ?? "");
    if (link) out.push(link);
  }
  return out;
}

/** sourceLink resolves one URI with an optional quote; null when it cannot be opened. */
export function sourceLink(uri: string, quote: string): SourceLink | null {
  const citation = parseCitation(uri);
  if (citation === null) return null;
  if (citation.kind === "external") return { uri, citation, target: citation.url, quote: "" };
  const q = citation.quote || quote;
  return { uri, citation, target: formatCitation({ path: citation.path, page: citation.page, quote: q }), quote: q };
}

/** sourceLabel names a source for a reader: "Title, p. 3", the file name, or the external site. */
export function sourceLabel(link: SourceLink, titleOf: (path: string) => string): string {
  const c = link.citation;
  if (c.kind === "external") {
    if (c.url.startsWith("https://doi.org/")) return `DOI ${c.url.slice("https://doi.org/".length)}`;
    return `arXiv ${c.url.slice("https://arxiv.org/abs/".length)}`;
  }
  const name = titleOf(c.path) || c.path.split("/").pop() || c.path;
  return /\.pdf$/i.test(c.path) ? `${name}, p. ${c.page}` : name;
}

/**
 * withoutSourceList drops a trailing "Sources:" list of bare URIs from an
 * answer: the same sources are drawn under it as clickable locations.
 */
export function withoutSourceList(content: string): string {
  const m = /\n[ \t]*(?:#+[ \t]*)?\**Sources\**:?\**[ \t]*\n((?:[ \t]*[-*•][ \t]*\S+[ \t]*(?:\n|$))+)\s*$/i.exec(content);
  if (!m) return content;
  const lines = m[1].split("\n").map((l) => l.replace(/^[ \t]*[-*•][ \t]*/, "").trim()).filter(Boolean);
  const uri = (l: string) => parseCitation(l.replace(/^\[|\]$/g, "")) !== null;
  return lines.every(uri) ? content.slice(0, m.index).trimEnd() : content;
}
