// Pure helpers for search hits: the snippet as safe HTML, the page label and
// the quote to highlight when the hit is opened.

import type { SearchHit } from "../lib/backend";

const MarkOpen = "\u0002";
const MarkClose = "\u0003";

/**
 * snippetHtml escapes a snippet and turns the backend's match markers
 * ("\u0002" … "\u0003") into <mark> elements. Everything else, including any
 * markup inside the paper's text, comes out as inert text. Unbalanced markers
 * are repaired so the result is always well formed.
 */
export function snippetHtml(snippet: string): string {
  let html = "";
  let open = false;
  for (const ch of snippet) {
    if (ch === MarkOpen) {
      if (!open) html += "<mark>";
      open = true;
    } else if (ch === MarkClose) {
      if (open) html += "</mark>";
      open = false;
    } else {
      html += escapeChar(ch);
    }
  }
  if (open) html += "</mark>";
  return html;
}

function escapeChar(ch: string): string {
  switch (ch) {
    case "&":
      return "&amp;";
    case "<":
      return "&lt;";
    case ">":
      return "&gt;";
    case '"':
      return "&quot;";
    case "'":
      return "&#39;";
    default:
      // Other control characters have no business in the page.
      return /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(ch) ? "" : ch;
  }
}

/** markedTerms lists the text the backend marked as matching, in order. */
export function markedTerms(snippet: string): string[] {
  const terms: string[] = [];
  const re = /\u0002([^\u0002\u0003]*)\u0003/g;
  for (let m = re.exec(snippet); m !== null; m = re.exec(snippet)) {
    const term = m[1].trim();
    if (term) terms.push(term);
  }
  return terms;
}

/**
 * hitQuote picks the text to highlight when a hit is opened: the first
 * passage the backend marked (it is the page's own wording, so it is found
 * on the text layer even when the query was stemmed), else the query words
 * without search syntax.
 */
export function hitQuote(hit: SearchHit, query: string): string {
  const [first] = markedTerms(hit.snippet);
  if (first) return first;
  return query
    .replace(/["()*^:]/g, " ")
    .split(/\s+/)
    .filter((w) => w && !/^(AND|OR|NOT|NEAR)$/.test(w))
    .join(" ");
}

/** pageText is how a hit names its page: the printed label, plus the physical page when they differ. */
export function pageText(hit: Pick<SearchHit, "page" | "pageLabel">): string {
  const label = hit.pageLabel.trim();
  if (!label || label === String(hit.page)) return `p. ${hit.page}`;
  return `p. ${label} (${hit.page})`;
}
