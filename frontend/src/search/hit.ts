// Pure helpers for search hits: the snippet as safe HTML and the page label.
// What a hit marks when it is opened is its quote (the backend's: the
// snippet's words as the page has them), located by the backend.

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

/** pageText is how a hit names its page: the printed label, plus the physical page when they differ. */
export function pageText(hit: Pick<SearchHit, "page" | "pageLabel">): string {
  const label = hit.pageLabel.trim();
  if (!label || label === String(hit.page)) return `p. ${hit.page}`;
  return `p. ${label} (${hit.page})`;
}

/** placeText is where a hit is: its page, and the section it falls in when the paper has one there. */
export function placeText(hit: Pick<SearchHit, "page" | "pageLabel" | "section">): string {
  const section = hit.section?.trim();
  return section ? `${pageText(hit)} · ${section}` : pageText(hit);
}
