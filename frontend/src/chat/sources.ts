// Sources under an answer. The backend lists the citations the answer uses
// (agent:completed.sources); the answer text cites them inline as
// "[papers/x/x.pdf#page=N]", usually right after the quoted passage, or as
// links. When a cited passage is quoted next to its citation, its first words
// go into the link's quote so the viewer can highlight it; when the answer
// quotes nothing there, the passage a tool of the turn returned for that page
// (a search card's snippet) is highlighted instead.

import { citedFile, formatCitation, parseCitation, type Citation, type Region, type VaultCitation } from "../lib/citation";

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
  /** The figure or table the source points at on its page: opening it outlines this region. */
  region?: Region;
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
 * gives next to it, else the passage the turn's tools returned for its page
 * (read, from cardQuotes). Sources that are neither vault paths nor allowed
 * external links are dropped.
 */
export function sourceLinks(content: string, sources: readonly string[], read: ReadonlyMap<string, string> = new Map()): SourceLink[] {
  const quotes = citedQuotes(content, sources);
  // A source the backend reports by its page is the citation the answer
  // writes with its quote (&quote=): the quote next to it is found by page.
  const byPage = new Map<string, string>();
  for (const [uri, q] of quotes) {
    const c = parseCitation(uri);
    if (c?.kind === "vault" && !byPage.has(pageKey(c))) byPage.set(pageKey(c), q);
  }
  const cited = splitAnswer(content, sources).flatMap((p) => ("uri" in p ? [p.uri] : []));
  // The figure the answer first cites a page with goes with that page's source.
  const regions = new Map<string, Region>();
  for (const uri of cited) {
    const c = parseCitation(uri);
    if (c?.kind === "vault" && c.region && !regions.has(pageKey(c))) regions.set(pageKey(c), c.region);
  }
  const seen = new Set<string>();
  const out: SourceLink[] = [];
  for (const uri of [...sources, ...cited]) {
    const c = parseCitation(uri);
    const key = c?.kind === "vault" ? pageKey(c) : uri;
    if (seen.has(key)) continue;
    seen.add(key);
    const link = sourceLink(uri, quotes.get(uri) ?? (c?.kind === "vault" ? byPage.get(key) : undefined) ?? "", read, regions.get(key));
    if (link) out.push(link);
  }
  return out;
}

/** pageKey names the page a vault citation points at, whatever its quote or encoding. */
export function pageKey(c: Pick<VaultCitation, "path" | "page">): string {
  return `${c.path}#${c.page}`;
}

// Objects nested deeper than this in a tool result are not searched.
const maxDepth = 6;

/**
 * cardQuotes reads what the turn's tools returned (their text content, the
 * JSON of agentero-context's results) for the passages they found: each
 * card's citationUri and snippet. It maps each page (pageKey) to the opening
 * words of its first snippet's longest uncut run. Text that is not JSON is
 * skipped.
 */
export function cardQuotes(texts: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (v: unknown, depth: number) => {
    if (depth > maxDepth || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.citationUri === "string" && typeof o.snippet === "string") {
      const c = parseCitation(o.citationUri);
      const quote = snippetQuote(o.snippet);
      if (c?.kind === "vault" && quote && !out.has(pageKey(c))) out.set(pageKey(c), quote);
    }
    for (const x of Object.values(o)) visit(x, depth + 1);
  };
  for (const text of texts) {
    const t = text.trim();
    if (!t.startsWith("{") && !t.startsWith("[")) continue;
    try {
      visit(JSON.parse(t), 0);
    } catch {
      // Not JSON: nothing to read.
    }
  }
  return out;
}

// snippetQuote is the opening words of a snippet's longest run between cuts
// ("…"), without the marks around matched terms, and from its first whole
// sentence when the run starts with the end of another.
function snippetQuote(snippet: string): string {
  const runs = snippet.replace(/[\u0002\u0003]/g, "").split(/…|\.\.\./).map((r) => r.trim());
  let longest = runs.reduce((a, b) => (b.length > a.length ? b : a), "");
  const end = /^\p{Ll}[^.!?]{0,80}[.!?]\s+(?=\p{Lu})/u.exec(longest);
  if (end) longest = longest.slice(end[0].length);
  return openingWords(longest);
}

/**
 * sourceLink resolves one URI with the quote the answer gives next to it
 * (""): the URI's own quote wins, then that one, then the passage the turn's
 * tools returned for its page (read). A region of the page (a figure, a
 * table) is the URI's own, else the one the answer cites the page with.
 * Null when it cannot be opened.
 */
export function sourceLink(uri: string, quote: string, read: ReadonlyMap<string, string> = new Map(), region?: Region): SourceLink | null {
  const citation = parseCitation(uri);
  if (citation === null) return null;
  if (citation.kind === "external") return { uri, citation, target: citation.url, quote: "" };
  const q = citation.quote || quote || read.get(pageKey(citation)) || "";
  const r = citation.region ?? region;
  const target = formatCitation({ path: citation.path, page: citation.page, quote: q, region: r });
  return r ? { uri, citation, target, quote: q, region: r } : { uri, citation, target, quote: q };
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
