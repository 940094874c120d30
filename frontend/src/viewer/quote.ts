// Finding a citation's quote in a page's text layer. pdf.js splits a page into
// text items that break lines, words and hyphenated words in arbitrary places,
// and quotes come from a different extractor, so both sides are compared in a
// folded form: no whitespace, no dashes or soft hyphens (so "con-\nsensus"
// matches "consensus"), no accents, lower case, ligatures expanded, curly
// quotes straightened.

/** A position in the text layer: an item index and a UTF-16 offset in its string. */
export interface TextPos {
  item: number;
  offset: number;
}

export interface QuoteMatch {
  start: TextPos;
  /** Exclusive. */
  end: TextPos;
  /** True when only the quote's opening words were found on the page. */
  partial: boolean;
}

/** A run of one item's string to highlight: [from, to). */
export interface Segment {
  item: number;
  from: number;
  to: number;
}

// Shorter folded prefixes than this would match all over a page.
const MinPrefixChars = 12;

const dropped = /[\s\p{Pd}\u00ad\u200b-\u200d\u2060\ufeff]/u;

/** fold maps one character to its comparable form ("" when it is ignored). */
export function fold(ch: string): string {
  if (dropped.test(ch)) return "";
  if (/[\u2018\u2019\u201a\u201b\u2032]/.test(ch)) return "'";
  if (/[\u201c\u201d\u201e\u201f\u2033]/.test(ch)) return '"';
  return ch.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

export function foldText(s: string): string {
  let out = "";
  for (const ch of s) out += fold(ch);
  return out;
}

interface Folded {
  text: string;
  /** For each UTF-16 unit of text: where its source character starts and ends. */
  item: number[];
  from: number[];
  to: number[];
}

function foldItems(items: string[]): Folded {
  const f: Folded = { text: "", item: [], from: [], to: [] };
  items.forEach((str, i) => {
    let offset = 0;
    for (const ch of str) {
      const folded = fold(ch);
      for (let k = 0; k < folded.length; k++) {
        f.item.push(i);
        f.from.push(offset);
        f.to.push(offset + ch.length);
      }
      f.text += folded;
      offset += ch.length;
    }
  });
  return f;
}

/**
 * findQuote returns where the first match of quote starts and ends in the
 * page's text items, or null. When the whole quote is not on the page (it may
 * run onto the next page, or be cut differently), it falls back to ever
 * shorter runs of the quote's opening words and reports the match as partial.
 */
export function findQuote(items: string[], quote: string): QuoteMatch | null {
  const cleaned = quote.trim().replace(/(\u2026|\.\.\.)$/, "").trim();
  const page = foldItems(items);
  if (page.text === "") return null;

  for (const candidate of prefixes(cleaned)) {
    const needle = foldText(candidate.text);
    if (needle === "") continue;
    const at = page.text.indexOf(needle);
    if (at < 0) continue;
    const last = at + needle.length - 1;
    return {
      start: { item: page.item[at], offset: page.from[at] },
      end: { item: page.item[last], offset: page.to[last] },
      partial: candidate.partial,
    };
  }
  return null;
}

// prefixes yields the whole quote, then its first half of words, quarter, …
// while the prefix stays long enough to mean something.
function* prefixes(quote: string): Generator<{ text: string; partial: boolean }> {
  yield { text: quote, partial: false };
  const words = quote.split(/\s+/).filter(Boolean);
  for (let n = Math.ceil(words.length / 2); n >= 1 && n < words.length; n = Math.ceil(n / 2)) {
    const text = words.slice(0, n).join(" ");
    if (foldText(text).length < MinPrefixChars) return;
    yield { text, partial: true };
    if (n === 1) return;
  }
}

/** segments splits a match into per-item runs, skipping empty ones. */
export function segments(items: string[], match: QuoteMatch): Segment[] {
  const out: Segment[] = [];
  for (let i = match.start.item; i <= match.end.item && i < items.length; i++) {
    const from = i === match.start.item ? match.start.offset : 0;
    const to = i === match.end.item ? match.end.offset : items[i].length;
    if (to > from) out.push({ item: i, from, to });
  }
  return out;
}
