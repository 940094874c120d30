// Citation URIs inside answer text (SPEC §1). An agent writes them as
// Markdown links ("[Raft, p. 3](papers/raft/paper.pdf#page=3&quote=…)"), in
// brackets ("[papers/raft/paper.pdf#page=3]", the form our agents were told
// to use), in angle brackets, or bare. Each one found becomes a source chip.

import { citedFile, type Citation } from "../lib/citation";

/** CitationTarget is what a source chip opens: a vault file at a page, with the quote to highlight. */
export interface CitationTarget {
  /** The URI as the answer wrote it (entities and escapes decoded, trimmed). */
  uri: string;
  /** Decoded vault-relative path with "/" separators. */
  path: string;
  /** 1-based physical page (1 when the URI names none). */
  page: number;
  /** Decoded quote to highlight, "" when the URI carries none. */
  quote: string;
}

/**
 * vaultTarget reads a citation URI that names a vault file (lib/citation.ts
 * citedFile decides, as it does for the thread's bracket citations), so
 * that "[1]", "[sic]" or "[foo](bar)" stay what they are.
 */
export function vaultTarget(uri: string): CitationTarget | null {
  const c = citedFile(uri);
  if (c === null || c.kind !== "vault") return null;
  return { uri: uri.trim(), path: c.path, page: c.page, quote: c.quote };
}

/** FoundCitation is a citation in a run of text: [start, end) covers any brackets around it. */
export interface FoundCitation {
  start: number;
  end: number;
  uri: string;
  citation: Citation;
}

// "[…]" or "<…>" with no brackets or line breaks inside.
const wrapped = /\[([^[\]\n]+)\]|<([^<>\n]+)>/g;

// A bare vault path: segments without spaces, brackets, quotes or list
// punctuation joined by "/", a last segment with an extension, and an
// optional fragment. It must start the text or follow a space or an opening
// mark, and end at a boundary. The segment classes exclude every character
// that may precede a match, so each run of text is scanned once (linear).
const bare =
  /(^|[\s([{<"'“‘«])((?:[^\s/()[\]{}<>"'`“”‘’«»|,;:]+\/)+[^\s/()[\]{}<>"'`“”‘’«»|,;:#?]+\.[A-Za-z0-9]{1,8}(?:#[^\s<>[\]{}"`“”‘’«»|]*)?)(?=$|[\s)\]}>"'”’»|.,;:!?*_~])/g;

/**
 * findCitations lists the citations in a run of plain text, in order:
 * bracketed or angle-bracketed ones (which may contain spaces), then bare
 * ones in what is left. Bare vault paths need a page or a PDF, so prose like
 * "read/write.txt" stays prose; bracketed ones follow vaultTarget alone.
 * Allowed external links (doi.org, arxiv.org) count when bracketed.
 */
export function findCitations(text: string): FoundCitation[] {
  const out: FoundCitation[] = [];
  let at = 0;
  for (const m of text.matchAll(wrapped)) {
    const start = m.index ?? 0;
    const uri = (m[1] ?? m[2]).trim();
    const citation = citedFile(uri);
    if (citation === null) continue;
    findBare(text, at, start, out);
    out.push({ start, end: start + m[0].length, uri, citation });
    at = start + m[0].length;
  }
  findBare(text, at, text.length, out);
  return out;
}

function findBare(text: string, from: number, to: number, out: FoundCitation[]): void {
  if (to <= from) return;
  const part = text.slice(from, to);
  for (const m of part.matchAll(bare)) {
    const start = from + (m.index ?? 0) + m[1].length;
    const uri = trimTrailing(m[2]);
    const target = vaultTarget(uri);
    if (target === null) continue;
    if (!/[#&]page=/.test(uri) && !/\.pdf$/i.test(target.path)) continue;
    out.push({ start, end: start + uri.length, uri, citation: { kind: "vault", path: target.path, page: target.page, quote: target.quote } });
  }
}

// trimTrailing drops the punctuation that ends a sentence or closes a
// parenthesis around a bare URI, keeping a ")" that the URI itself opened.
function trimTrailing(uri: string): string {
  let s = uri;
  for (;;) {
    const last = s.slice(-1);
    if (/[.,;:!?'’]/.test(last)) {
      s = s.slice(0, -1);
      continue;
    }
    if (last === ")" && count(s, "(") < count(s, ")")) {
      s = s.slice(0, -1);
      continue;
    }
    return s;
  }
}

function count(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n++;
  return n;
}

/** defaultLabel names a chip found in text: "p. 3" for a PDF page, the file name otherwise. */
export function defaultLabel(t: CitationTarget): string {
  if (/\.pdf$/i.test(t.path)) return `p. ${t.page}`;
  return t.path.split("/").pop() ?? t.path;
}

/** describeTarget is the chip's accessible description: which file, which page, which quote. */
export function describeTarget(t: CitationTarget): string {
  const file = t.path.split("/").pop() ?? t.path;
  const where = /\.pdf$/i.test(t.path) ? `${file}, page ${t.page}` : file;
  return t.quote ? `Open ${where} and highlight “${t.quote}”` : `Open ${where}`;
}
