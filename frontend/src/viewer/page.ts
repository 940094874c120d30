// One page of the open PDF: a sized placeholder until it scrolls near the
// viewport, then a canvas plus a selectable text layer; released again when
// it is far away so long papers keep memory flat. The marks of a located
// quote lie between the two (under the text, so selecting still works) and
// stay while the page is released and drawn again.

import { h } from "../lib/dom";
import { drawMarks, type MarkBox } from "./marks";
import { TextLayer, type PDFDocumentProxy, type RenderTask } from "./pdf";

// WebKit refuses canvases much larger than this many pixels.
const MaxCanvasPixels = 16_777_216;

export interface PageSize {
  /** In PDF points, at scale 1, rotation applied, user unit applied. */
  width: number;
  height: number;
}

export class PageView {
  readonly el: HTMLElement;

  private size: PageSize;
  private exact = false;
  private scale = 1;
  private userUnit = 1;
  private generation = 0;
  private renderTask: RenderTask | null = null;
  private textLayer: InstanceType<typeof TextLayer> | null = null;
  private state: "empty" | "rendering" | "rendered" = "empty";
  /** The layer of quote marks; null when the page has none. */
  private marks: HTMLElement | null = null;

  constructor(readonly number: number, estimate: PageSize) {
    this.size = estimate;
    this.el = h("div", {
      class: "page",
      "data-testid": "viewer-page",
      "data-page": number,
      "aria-label": `Page ${number}`,
      role: "region",
    });
  }

  /** widthPoints is the page's width in PDF points (an estimate until the page was drawn once). */
  get widthPoints(): number {
    return this.size.width;
  }

  /** heightPoints is the page's height in PDF points (an estimate until the page was drawn once). */
  get heightPoints(): number {
    return this.size.height;
  }

  get rendered(): boolean {
    return this.state !== "empty";
  }

  /**
   * setMarks draws the boxes of a located quote on the page (none: clears
   * them), or with region the outline of a figure; it returns the marks drawn.
   */
  setMarks(boxes: readonly MarkBox[], region = false): HTMLElement[] {
    if (boxes.length === 0) {
      this.marks?.remove();
      this.marks = null;
      return [];
    }
    if (!this.marks) {
      this.marks = h("div", { class: "quote-marks", "aria-hidden": "true" });
      this.el.insertBefore(this.marks, this.el.querySelector(".textLayer"));
    }
    this.marks.classList.toggle("region", region);
    return drawMarks(this.marks, boxes);
  }

  /** firstMark is the first mark on the page, if any. */
  get firstMark(): HTMLElement | null {
    return this.marks?.querySelector<HTMLElement>(".quote-mark") ?? null;
  }

  /** layout sizes the placeholder for a scale (CSS px per point); returns the change in height. */
  layout(scale: number): number {
    const before = this.el.offsetHeight;
    this.scale = scale;
    this.el.style.width = `${Math.floor(this.size.width * scale)}px`;
    this.el.style.height = `${Math.floor(this.size.height * scale)}px`;
    // pdf.js sizes and sets text-layer fonts from this (CSS px per PDF unit).
    this.el.style.setProperty("--total-scale-factor", String(scale * this.userUnit));
    return this.el.offsetHeight - before;
  }

  /** render draws the page and its text layer; a later reset() or render() supersedes it. */
  async render(doc: PDFDocumentProxy, onResize: (page: PageView, delta: number) => void): Promise<void> {
    if (this.state !== "empty") return;
    this.state = "rendering";
    const generation = ++this.generation;
    const stale = () => generation !== this.generation;
    this.el.classList.add("loading");
    try {
      const page = await doc.getPage(this.number);
      if (stale()) return;
      if (!this.exact) {
        this.userUnit = page.userUnit;
        const base = page.getViewport({ scale: 1 });
        this.size = { width: base.width, height: base.height };
        this.exact = true;
        const delta = this.layout(this.scale);
        if (delta !== 0) onResize(this, delta);
      }
      const viewport = page.getViewport({ scale: this.scale });

      const ratio = Math.min(window.devicePixelRatio || 1, Math.sqrt(MaxCanvasPixels / (viewport.width * viewport.height)));
      const canvas = h("canvas", { class: "page-canvas" });
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      this.renderTask = page.render({
        canvas,
        viewport,
        transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined,
      });
      await this.renderTask.promise;
      if (stale()) return;
      this.renderTask = null;

      const container = h("div", { class: "textLayer" });
      this.el.replaceChildren(...[canvas, this.marks, container].filter((n): n is HTMLElement => n !== null));
      this.el.classList.remove("loading");
      this.textLayer = new TextLayer({ textContentSource: page.streamTextContent(), container, viewport });
      await this.textLayer.render();
      if (stale()) return;
      this.state = "rendered";
      this.el.dataset.text = "ready"; // its text layer is whole (tests read words from it)
    } catch (err) {
      if (stale() || (err as { name?: string })?.name === "RenderingCancelledException") return;
      this.state = "rendered"; // do not retry in a loop; a zoom or reopen tries again
      this.el.classList.remove("loading");
      this.el.replaceChildren(...[h("p", { class: "page-error" }, `Page ${this.number} could not be drawn.`), this.marks].filter((n): n is HTMLElement => n !== null));
      console.error(`render page ${this.number}:`, err);
    }
  }

  /** reset drops the canvas and text layer, keeping the sized placeholder. */
  reset(): void {
    this.generation++;
    this.renderTask?.cancel();
    this.renderTask = null;
    this.textLayer?.cancel();
    this.textLayer = null;
    for (const canvas of this.el.querySelectorAll("canvas")) {
      // Frees the backing store now rather than at garbage collection.
      canvas.width = 0;
      canvas.height = 0;
    }
    this.el.replaceChildren(...(this.marks ? [this.marks] : []));
    this.el.classList.remove("loading");
    delete this.el.dataset.text;
    this.state = "empty";
  }
}
