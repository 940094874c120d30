// Turning a text selection on the PDF's text layer into an anchor: the page
// it starts on, its text, and where it is on that page in PDF points (from
// the page's top-left corner, independent of the zoom).

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface SelectedPassage {
  page: number;
  text: string;
  /** [x, y, width, height] in PDF points. */
  rects: number[][];
}

// A long selection has one rect per span; a handful is enough to find it again.
const MaxRects = 24;

/**
 * pageRects maps client rects (CSS pixels) onto the page box, in PDF points:
 * pointsPerPixel = page width in points / page box width in pixels. Empty
 * rects and the parts outside the page are dropped; values are rounded to
 * 0.1 pt.
 */
export function pageRects(rects: readonly Box[], page: Box, pointsPerPixel: number): number[][] {
  const out: number[][] = [];
  for (const r of rects) {
    const x0 = Math.max(r.left, page.left);
    const y0 = Math.max(r.top, page.top);
    const x1 = Math.min(r.left + r.width, page.left + page.width);
    const y1 = Math.min(r.top + r.height, page.top + page.height);
    if (x1 - x0 < 0.5 || y1 - y0 < 0.5) continue;
    out.push([x0 - page.left, y0 - page.top, x1 - x0, y1 - y0].map((v) => Math.round(v * pointsPerPixel * 10) / 10));
    if (out.length === MaxRects) break;
  }
  return out;
}

/** passageText tidies selected text-layer text: pdf.js puts a line break between spans. */
export function passageText(raw: string): string {
  return raw
    .replace(/(\p{L})-\s*\n\s*(\p{Ll})/gu, "$1$2") // words hyphenated across lines
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * readSelection returns the passage selected inside root (the viewer's
 * pages), or null when the selection is empty or elsewhere. pageWidth gives
 * a page's width in PDF points.
 */
export function readSelection(sel: globalThis.Selection | null, root: HTMLElement, pageWidth: (page: number) => number): SelectedPassage | null {
  if (!sel || sel.isCollapsed || sel.rangeCount === 0) return null;
  const range = sel.getRangeAt(0);
  const start = range.startContainer instanceof Element ? range.startContainer : range.startContainer.parentElement;
  const pageEl = start?.closest<HTMLElement>(".page[data-page]");
  if (!pageEl || !root.contains(pageEl)) return null;
  const text = passageText(sel.toString());
  if (!text) return null;
  const page = Number(pageEl.dataset.page);
  const box = pageEl.getBoundingClientRect();
  const points = pageWidth(page);
  const rects = points > 0 && box.width > 0 ? pageRects(Array.from(range.getClientRects()), box, points / box.width) : [];
  return { page, text, rects };
}
