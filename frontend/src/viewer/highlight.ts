// Marking a quote on a rendered text layer. Each text div pdf.js creates holds
// exactly its item's string, so a match in item offsets becomes <mark>s inside
// those divs. <mark> (not <span>) keeps pdf.js's text-layer span rules off it.

import { findQuote, segments, type QuoteMatch } from "./quote";

export interface TextLayerContent {
  divs: HTMLElement[];
  items: string[];
}

/** highlightQuote marks the first match of quote and returns the match and its marks. */
export function highlightQuote(layer: TextLayerContent, quote: string): { match: QuoteMatch; marks: HTMLElement[] } | null {
  const match = findQuote(layer.items, quote);
  if (!match) return null;
  const marks: HTMLElement[] = [];
  for (const seg of segments(layer.items, match)) {
    const div = layer.divs[seg.item];
    const text = layer.items[seg.item];
    if (!div || div.textContent !== text) continue;
    const mark = document.createElement("mark");
    mark.className = "quote-mark";
    mark.textContent = text.slice(seg.from, seg.to);
    div.replaceChildren(text.slice(0, seg.from), mark, text.slice(seg.to));
    marks.push(mark);
  }
  if (marks.length === 0) return null;
  marks[0].classList.add("first");
  marks[marks.length - 1].classList.add("last");
  return { match, marks };
}

/** clearHighlights puts every marked div back to plain text. */
export function clearHighlights(container: HTMLElement): void {
  for (const mark of container.querySelectorAll("mark.quote-mark")) {
    const div = mark.parentElement;
    if (div) div.textContent = div.textContent;
  }
}
