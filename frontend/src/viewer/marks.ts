// Marks on a page: the rectangles the backend's locator found for a quote
// (App.Locate), drawn over the page. The viewer finds nothing itself; it
// places what it is given. Rectangles arrive in PDF points from the top-left
// corner of the page as shown (rotation applied), with the page's size in
// the same points, so each becomes a box in percent of the page: it follows
// every zoom and resize without being computed again.

import type { QuoteLocation } from "../lib/backend";

/** MarkBox is a mark's place on its page, in percent of the page's width and height. */
export interface MarkBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * markBoxes places rectangles [x0, y0, x1, y1] (points, from the top-left of
 * a page width × height points) on the page, in percent. Corners may come in
 * either order; a rectangle is clipped to the page, and one that is empty,
 * not finite or outside the page is dropped.
 */
export function markBoxes(rects: readonly (readonly number[])[], width: number, height: number): MarkBox[] {
  if (!(width > 0 && height > 0)) return [];
  const out: MarkBox[] = [];
  for (const r of rects) {
    if (r.length !== 4 || !r.every(Number.isFinite)) continue;
    const x0 = clamp(Math.min(r[0], r[2]), 0, width);
    const x1 = clamp(Math.max(r[0], r[2]), 0, width);
    const y0 = clamp(Math.min(r[1], r[3]), 0, height);
    const y1 = clamp(Math.max(r[1], r[3]), 0, height);
    if (x1 <= x0 || y1 <= y0) continue;
    out.push({ left: (x0 / width) * 100, top: (y0 / height) * 100, width: ((x1 - x0) / width) * 100, height: ((y1 - y0) / height) * 100 });
  }
  return out;
}

/** boxPixels is where a box lies on a page drawn cssWidth × cssHeight CSS pixels: x, y from its top-left corner. */
export function boxPixels(box: MarkBox, cssWidth: number, cssHeight: number): { x: number; y: number; width: number; height: number } {
  return {
    x: (box.left / 100) * cssWidth,
    y: (box.top / 100) * cssHeight,
    width: (box.width / 100) * cssWidth,
    height: (box.height / 100) * cssHeight,
  };
}

/** drawMarks fills a page's mark layer with one element per box; the first is marked as such (it is scrolled to). */
export function drawMarks(layer: HTMLElement, boxes: readonly MarkBox[]): HTMLElement[] {
  const marks = boxes.map((b, i) => {
    const el = document.createElement("div");
    el.className = i === 0 ? "quote-mark first" : "quote-mark";
    el.dataset.testid = "quote-mark";
    el.style.left = `${b.left}%`;
    el.style.top = `${b.top}%`;
    el.style.width = `${b.width}%`;
    el.style.height = `${b.height}%`;
    return el;
  });
  layer.replaceChildren(...marks);
  return marks;
}

/**
 * locationNotice is what the toolbar says of a located quote, asked for on
 * page asked: nothing when it is marked there; where it is instead, with
 * that page to offer (show), when another page has it; that it could not be
 * found otherwise, in the locator's own words (why, also the notice's
 * tooltip, detail). drawn tells whether its marks could be drawn.
 */
export function locationNotice(loc: Pick<QuoteLocation, "found" | "foundPage" | "page" | "why">, asked: number, drawn: boolean): { text: string; show: number; detail: string } {
  const detail = loc.why.trim();
  const elsewhere = drawn ? (loc.page !== asked ? loc.page : 0) : loc.found ? 0 : loc.foundPage;
  if (elsewhere > 0) return { text: `The quote is on p. ${elsewhere}, not p. ${asked} —`, show: elsewhere, detail };
  if (drawn) return { text: "", show: 0, detail };
  if (loc.found) return { text: `The quote is on p. ${asked}, but where on the page could not be marked.`, show: 0, detail };
  // Not found (or not looked for: too short): the locator's own sentence says which.
  const why = detail.replace(/[.\s]+$/, "");
  return { text: why ? `Not marked: ${why}.` : "Not marked: the quote was not found in this paper.", show: 0, detail };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
