// The PDF viewer in the main pane: continuous pages rendered lazily as they
// near the viewport, page N of M, zoom, keyboard paging, and citation targets
// (open at a page and mark a quote on it). Where a quote is comes from the
// backend's locator (App.Locate), asked once the PDF is loaded; the viewer
// draws the rectangles it returns and matches no text itself.

import { errorText, figures, locate, sections, vaultFileUrl, type QuoteLocation } from "../lib/backend";
import { regionOnPage, type Region } from "../lib/citation";
import { h } from "../lib/dom";
import { locationNotice, markBoxes } from "./marks";
import { OutlinePanel } from "./outline";
import { PageView, type PageSize } from "./page";
import { readSelection, type SelectedPassage } from "./selection";
import { CssUnitsPerPoint, describeLoadError, loadDocument, type PDFDocumentProxy } from "./pdf";
import { createToolbar, type Toolbar } from "./toolbar";
import { clampZoom, nextZoom } from "./zoom";

export interface OpenTarget {
  page: number;
  /** A citation URI with a quote (path#page=N&quote=…) for the backend to locate and the viewer to mark; "" for none. */
  locate: string;
  /** Shown in the toolbar; defaults to the path. */
  title?: string;
  /** A figure or table of the page (PDF points from its top-left) to outline instead of marking the quote. */
  region?: Region;
}

// Selections settle this long before they become an anchor (dragging fires many events).
const SelectionSettleMs = 250;

// Pages kept drawn beyond the ones near the viewport.
const MaxRenderedPages = 8;
// Horizontal room around pages when fitting the width.
const FitMargin = 32;

// Target is where the viewer was asked to go, and what the locator said of
// its quote: asked once the document is there, located (or failed) once it
// answered, shown once drawn.
// A target with a region outlines it once the page's size is known, if it
// lies on the page; else the region is dropped and the quote, if any, is
// located instead.
// note is what the toolbar says of a dropped region, before what it says
// of the quote.
type Target = { page: number; locate: string; region: Region | null; note: string; asked: boolean; located: QuoteLocation | null; failed: string; shown: boolean };

export class Viewer {
  private readonly toolbar: Toolbar;
  private readonly scroller: HTMLElement;
  private readonly pagesEl: HTMLElement;
  private readonly message: HTMLElement;
  private readonly outline: OutlinePanel;

  private path = "";
  private generation = 0;
  private destroyTask: (() => Promise<void>) | null = null;
  /** Settles when the previous document is fully destroyed; pdf.js needs that before the next load. */
  private closed: Promise<void> = Promise.resolve();
  private doc: PDFDocumentProxy | null = null;
  private pages: PageView[] = [];
  private baseWidth = 612;
  private observer: IntersectionObserver | null = null;
  private readonly near = new Set<PageView>();
  private fit = true;
  private percent = 100;
  /** The scroller width the fit-width zoom was computed for. */
  private fittedWidth = 0;
  private current = 0;
  private target: Target | null = null;
  /** The pages that hold marks. */
  private marked: PageView[] = [];
  private scrollQueued = false;
  private selectionTimer: ReturnType<typeof setTimeout> | undefined;

  /** onSelect receives each passage selected on the open PDF's text layer. */
  onSelect: (path: string, passage: SelectedPassage) => void = () => {};

  constructor(host: HTMLElement) {
    this.toolbar = createToolbar({
      goTo: (n) => this.goTo(n),
      step: (d) => this.goTo(this.current + d),
      zoom: (dir) => this.zoom(dir),
      outline: () => this.toggleOutline(false),
    });
    this.outline = new OutlinePanel({
      open: (n) => this.goTo(n),
      openFigure: (f) => this.showRegion(f.page, f.region),
      closed: () => {
        this.toolbar.setOutlineOpen(false);
        this.scroller.focus();
      },
    });
    this.message = h("div", { class: "viewer-message", role: "status" });
    this.pagesEl = h("div", { class: "viewer-pages" });
    this.scroller = h("div", { class: "viewer-scroll", tabIndex: -1 }, this.pagesEl);
    host.append(
      h(
        "section",
        { class: "viewer", "data-testid": "viewer", "aria-label": "PDF viewer" },
        this.toolbar.el,
        h("div", { class: "viewer-body" }, this.outline.el, this.message, this.scroller),
      ),
    );
    this.scroller.addEventListener("scroll", () => this.queueScrollUpdate(), { passive: true });
    new ResizeObserver(() => {
      if (this.fit && this.doc && this.scroller.clientWidth !== this.fittedWidth) this.relayout();
    }).observe(this.scroller);
    document.addEventListener("selectionchange", () => {
      clearTimeout(this.selectionTimer);
      this.selectionTimer = setTimeout(() => this.readSelection(), SelectionSettleMs);
    });
    this.showMessage("Open a paper from the library, or search across your vault, to read it here.");
    this.toolbar.setEnabled(false);
  }

  /** open shows the PDF at path (vault-relative), scrolled to the target page and quote. */
  async open(path: string, target: OpenTarget): Promise<void> {
    this.toolbar.setTitle(target.title || path, path);
    const same = path === this.path && this.destroyTask !== null;
    this.clearMarks();
    this.toolbar.setNotice("");
    this.target = { page: target.page, locate: target.locate, region: target.region ?? null, note: "", asked: false, located: null, failed: "", shown: false };
    if (same) {
      if (this.doc) this.navigate();
      return;
    }
    this.close();
    if (!/\.pdf$/i.test(path)) {
      this.showMessage(`${path} is not a PDF; only PDFs open in the viewer.`);
      return;
    }
    this.path = path;
    const generation = this.generation;
    this.showMessage("Opening paper…");
    this.destroyTask = () => Promise.resolve(); // marks the path as loading
    try {
      await this.closed;
      if (generation !== this.generation) return;
      const task = loadDocument(vaultFileUrl(path));
      this.destroyTask = () => task.destroy();
      const doc = await task.promise;
      if (generation !== this.generation) return;
      const first = await doc.getPage(1);
      if (generation !== this.generation) return;
      const base = first.getViewport({ scale: 1 });
      this.doc = doc;
      this.build(doc.numPages, { width: base.width, height: base.height });
      this.navigate();
      this.loadSections(path, generation);
      this.loadFigures(path, generation);
    } catch (err) {
      if (generation !== this.generation) return;
      this.close(); // so opening the same path again retries
      this.showMessage(describeLoadError(err, path), "error");
    }
  }

  /** toggleOutline shows or hides the open paper's sections; by the keyboard (focus), the panel takes the focus. */
  toggleOutline(focus = true): boolean {
    if (!this.doc) return false;
    this.outline.toggle(focus);
    this.toolbar.setOutlineOpen(this.outline.isOpen);
    return true;
  }

  // loadSections lists the open paper's sections in the outline panel,
  // unless another paper was opened meanwhile.
  private loadSections(path: string, generation: number): void {
    this.outline.show([], "Loading sections…");
    sections(path).then(
      (list) => {
        if (generation === this.generation) this.outline.show(list);
      },
      (err) => {
        if (generation === this.generation) this.outline.show([], `Couldn’t list the sections: ${errorText(err)}`);
      },
    );
  }

  // loadFigures lists the open paper's figures and tables under its
  // sections; a paper indexed before captions were found has none.
  private loadFigures(path: string, generation: number): void {
    figures(path).then(
      (list) => {
        if (generation === this.generation) this.outline.showFigures(list);
      },
      () => {
        if (generation === this.generation) this.outline.showFigures([]);
      },
    );
  }

  /** showRegion shows page n with a rectangle of it (PDF points from its top-left) outlined: a figure or table. */
  showRegion(n: number, region: { x: number; y: number; width: number; height: number }): void {
    if (!this.doc || this.pages.length === 0) return;
    if (this.target) this.target.shown = true; // a quote still being located is not drawn over it
    this.clearMarks();
    this.toolbar.setNotice("");
    const page = this.pages[Math.min(Math.max(1, Math.trunc(n) || 1), this.pages.length) - 1];
    this.scrollToPage(page.number);
    this.drawRegion(page, region, page.widthPoints, page.heightPoints);
  }

  // drawRegion outlines a region of a page width × height points, and
  // scrolls it into view.
  private drawRegion(page: PageView, region: Region, width: number, height: number): void {
    const rect = [region.x, region.y, region.x + region.width, region.y + region.height];
    if (page.setMarks(markBoxes([rect], width, height), true).length > 0) {
      this.marked.push(page);
      page.firstMark?.scrollIntoView({ block: "nearest" });
    }
  }

  // outlineRegion draws the target's region on its page once the page's own size
  // is known (the pages not drawn yet have the first page's): a region that
  // does not lie on the page is dropped, not trusted, and the quote, if
  // the target has one, is located instead.
  private outlineRegion(t: Target, region: Region): void {
    t.asked = true;
    const doc = this.doc;
    if (!doc) return;
    doc.getPage(t.page).then(
      (p) => {
        if (this.target !== t || this.doc !== doc || t.shown) return;
        const { width, height } = p.getViewport({ scale: 1 });
        const page = this.pages[t.page - 1];
        if (page && regionOnPage(region, width, height)) {
          t.shown = true;
          this.clearMarks();
          this.drawRegion(page, region, width, height);
          return;
        }
        t.region = null;
        t.note = `The figure this source names is not on p. ${t.page}; the page is shown without it.`;
        this.toolbar.setNotice(t.note);
        if (t.locate) this.ask(t);
      },
      () => {
        if (this.target === t && t.locate) this.ask(t);
      },
    );
  }

  /** close drops the open document and everything drawn from it. */
  close(): void {
    this.generation++;
    this.outline.show([]);
    this.outline.showFigures([]);
    this.observer?.disconnect();
    this.observer = null;
    for (const page of this.pages) page.reset();
    this.pages = [];
    this.marked = [];
    this.near.clear();
    this.pagesEl.replaceChildren();
    if (this.destroyTask) {
      const previous = this.closed;
      const destroy = this.destroyTask;
      this.closed = previous.then(destroy).catch(() => {});
    }
    this.destroyTask = null;
    this.doc = null;
    this.path = "";
    this.current = 0;
    this.toolbar.setPage(0, 0);
    this.toolbar.setNotice("");
    this.toolbar.setEnabled(false);
  }

  /** goTo shows page n; a quote still being located is marked when it is (without pulling the view back to it). */
  goTo(n: number): void {
    if (!this.doc || this.pages.length === 0) return;
    this.scrollToPage(Math.min(Math.max(1, Math.trunc(n) || 1), this.pages.length));
  }

  zoom(direction: "in" | "out" | "fit"): void {
    if (!this.doc) return;
    if (direction === "fit") {
      this.fit = true;
    } else {
      this.percent = nextZoom(this.percent, direction);
      this.fit = false;
    }
    this.relayout();
  }

  /** clearHighlight removes the quote's marks and what the toolbar said of them. */
  clearHighlight(): void {
    if (this.target) this.target.shown = true; // a late answer of the locator draws nothing now
    this.clearMarks();
    this.toolbar.setNotice("");
  }

  /** setTitle renames the open paper in the toolbar (its title arrives after indexing). */
  setTitle(title: string, path: string): void {
    this.toolbar.setTitle(title, path);
  }

  /** showMissing says that a cited file is no longer in the vault, keeping the open paper if there is one. */
  showMissing(path: string, text = `This source is no longer in the vault: ${path}. It may have been moved or deleted.`): void {
    if (this.doc) this.toolbar.setNotice(text);
    else this.showMessage(text, "error");
  }

  /** openPath is the vault path of the open PDF, "" when none. */
  get openPath(): string {
    return this.doc ? this.path : "";
  }

  private readSelection(): void {
    if (!this.doc) return;
    const passage = readSelection(window.getSelection(), this.pagesEl, (n) => this.pages[n - 1]?.widthPoints ?? 0);
    if (passage) this.onSelect(this.path, passage);
  }

  /** handleKey runs viewer shortcuts; it returns whether it used the key. */
  handleKey(e: KeyboardEvent): boolean {
    if (!this.doc) return false;
    const typing = isTextField(e.target);
    const mod = e.ctrlKey || e.metaKey;
    if (e.key === "PageDown" || e.key === "PageUp") {
      if (typing && !(e.target instanceof HTMLInputElement && e.target.type === "search")) return false;
      this.goTo(this.current + (e.key === "PageDown" ? 1 : -1));
      return true;
    }
    if (!typing && (e.key === "Home" || e.key === "End") && !mod) {
      this.goTo(e.key === "Home" ? 1 : this.pages.length);
      return true;
    }
    const zoomKeys: Record<string, "in" | "out" | "fit"> = { "+": "in", "=": "in", "-": "out", "0": "fit" };
    if (mod && zoomKeys[e.key]) {
      this.zoom(zoomKeys[e.key]);
      return true;
    }
    if (e.key === "Escape" && (this.marked.length > 0 || ((this.target?.locate || this.target?.region) && !this.target.shown))) {
      this.clearHighlight();
      return true;
    }
    return false;
  }

  private build(count: number, estimate: PageSize): void {
    this.baseWidth = estimate.width;
    this.pages = Array.from({ length: count }, (_, i) => new PageView(i + 1, estimate));
    this.message.hidden = true;
    this.scroller.hidden = false;
    const scale = this.scale();
    for (const page of this.pages) page.layout(scale);
    this.pagesEl.replaceChildren(...this.pages.map((p) => p.el));
    this.toolbar.setEnabled(true);
    this.showZoom(scale);

    const byElement = new Map(this.pages.map((p) => [p.el as Element, p]));
    this.observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const page = byElement.get(entry.target);
          if (!page) continue;
          if (entry.isIntersecting) {
            this.near.add(page);
            this.draw(page);
          } else {
            this.near.delete(page);
          }
        }
        this.evict();
      },
      { root: this.scroller, rootMargin: "100% 0px" },
    );
    for (const page of this.pages) this.observer.observe(page.el);
  }

  private draw(page: PageView): void {
    if (this.doc) void page.render(this.doc, this.onPageResize);
  }

  // A page above the viewport that turns out taller or shorter than estimated
  // would shift what the reader is looking at; WebKit has no scroll anchoring.
  private readonly onPageResize = (page: PageView, delta: number): void => {
    if (page.el.offsetTop < this.scroller.scrollTop) this.scroller.scrollTop += delta;
  };

  private evict(): void {
    const drawn = this.pages.filter((p) => p.rendered && !this.near.has(p));
    const excess = drawn.length + this.near.size - MaxRenderedPages;
    if (excess <= 0) return;
    drawn.sort((a, b) => Math.abs(b.number - this.current) - Math.abs(a.number - this.current));
    for (const page of drawn.slice(0, excess)) page.reset();
  }

  private scale(): number {
    if (!this.fit) return (this.percent / 100) * CssUnitsPerPoint;
    this.fittedWidth = this.scroller.clientWidth;
    const width = Math.max(200, this.fittedWidth - FitMargin);
    this.percent = clampZoom((width / this.baseWidth / CssUnitsPerPoint) * 100);
    return (this.percent / 100) * CssUnitsPerPoint;
  }

  private showZoom(scale: number): void {
    this.toolbar.setZoom((scale / CssUnitsPerPoint) * 100, this.fit);
  }

  private relayout(): void {
    const anchor = this.pages[this.current - 1];
    const within = anchor ? (this.scroller.scrollTop - anchor.el.offsetTop) / Math.max(1, anchor.el.offsetHeight) : 0;
    const scale = this.scale();
    for (const page of this.pages) {
      page.reset();
      page.layout(scale);
    }
    if (anchor) this.scroller.scrollTop = anchor.el.offsetTop + within * anchor.el.offsetHeight;
    this.showZoom(scale);
    for (const page of this.near) this.draw(page);
  }

  private navigate(): void {
    const t = this.target;
    if (!t || this.pages.length === 0) return;
    t.page = Math.min(Math.max(1, Math.trunc(t.page) || 1), this.pages.length);
    this.scrollToPage(t.page);
    if (t.region && !t.asked) this.outlineRegion(t, t.region);
    else if (t.locate && !t.asked) this.ask(t);
    this.showLocation();
  }

  private scrollToPage(n: number): void {
    this.scroller.scrollTop = this.pages[n - 1].el.offsetTop - 8;
    this.setCurrent(n);
  }

  // ask asks the locator where the target's quote is; the answer is drawn
  // (showLocation) unless another target came meanwhile. It is asked once
  // the PDF is read whole, so the page comes first: the locator's first
  // call starts the backend's PDF workers (and, before the backend marked
  // its files close-on-exec, a worker started while WebKit streamed the PDF
  // kept it from ever loading).
  private ask(t: Target): void {
    t.asked = true;
    locate(t.locate).then(
      (loc) => {
        t.located = loc;
        if (this.target === t) this.showLocation();
      },
      (err) => {
        t.failed = errorText(err);
        if (this.target === t) this.showLocation();
      },
    );
  }

  // showLocation draws the marks the locator returned for the target, once
  // both the pages and the answer are there: on the cited page, scrolled
  // into view; on another page that has the quote, with a notice that offers
  // it; nowhere, with a notice, the cited page shown as asked.
  private showLocation(): void {
    const t = this.target;
    if (!t || t.shown || t.region || !t.locate || this.pages.length === 0 || (!t.located && !t.failed)) return;
    t.shown = true;
    const loc = t.located;
    const noted = (text: string) => [t.note, text].filter(Boolean).join(" ");
    if (!loc) {
      this.toolbar.setNotice(noted(`Couldn’t locate the quote: ${t.failed}`));
      return;
    }
    const drawn = this.drawLocation(loc);
    const said = locationNotice(loc, t.page, drawn !== null);
    if (said.show > 0) {
      const p = said.show;
      this.toolbar.setNotice(
        noted(said.text),
        {
          label: `Show p. ${p}`,
          run: () => {
            this.scrollToPage(p);
            this.pages[p - 1]?.firstMark?.scrollIntoView({ block: "center" });
            this.toolbar.setNotice("");
          },
        },
        said.detail,
      );
      return;
    }
    this.toolbar.setNotice(noted(said.text), undefined, said.detail);
    // Only pull the view to the quote if the reader has not scrolled away meanwhile.
    const first = drawn?.firstMark;
    if (first && loc.page === t.page && this.current === t.page) first.scrollIntoView({ block: "center" });
  }

  // drawLocation puts a location's marks on their pages (the quote's page,
  // and the next one for a quote that runs onto it); it returns the page
  // that holds the first marks, null when none were drawn.
  private drawLocation(loc: QuoteLocation): PageView | null {
    this.clearMarks();
    const page = this.pages[loc.page - 1];
    if (!page || loc.rects.length === 0) return null;
    const put = (p: PageView, rects: number[][]) => {
      // Rects are in the located page's points; the next page is taken to be
      // the same size (the locator gives no second size).
      if (p.setMarks(markBoxes(rects, loc.width, loc.height)).length > 0) this.marked.push(p);
    };
    put(page, loc.rects);
    const next = loc.next ? this.pages[loc.next.page - 1] : undefined;
    if (next && loc.next && next !== page) put(next, loc.next.rects);
    return this.marked.includes(page) ? page : null;
  }

  private clearMarks(): void {
    for (const p of this.marked) p.setMarks([]);
    this.marked = [];
  }

  private queueScrollUpdate(): void {
    if (this.scrollQueued) return;
    this.scrollQueued = true;
    requestAnimationFrame(() => {
      this.scrollQueued = false;
      const n = this.mostVisiblePage();
      if (n) this.setCurrent(n);
    });
  }

  private mostVisiblePage(): number {
    const top = this.scroller.scrollTop;
    const bottom = top + this.scroller.clientHeight;
    // Binary search for the first page whose bottom is below the top edge.
    let lo = 0;
    let hi = this.pages.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const el = this.pages[mid].el;
      if (el.offsetTop + el.offsetHeight <= top) lo = mid + 1;
      else hi = mid;
    }
    let best = 0;
    let bestVisible = -1;
    for (let i = lo; i < this.pages.length; i++) {
      const el = this.pages[i].el;
      if (el.offsetTop >= bottom) break;
      const visible = Math.min(bottom, el.offsetTop + el.offsetHeight) - Math.max(top, el.offsetTop);
      if (visible > bestVisible) {
        best = i + 1;
        bestVisible = visible;
      }
    }
    return best;
  }

  private setCurrent(n: number): void {
    this.current = n;
    this.toolbar.setPage(n, this.pages.length);
    this.outline.setPage(n);
  }

  private showMessage(text: string, tone = ""): void {
    this.message.textContent = text;
    this.message.className = `viewer-message ${tone}`;
    this.message.hidden = false;
    this.scroller.hidden = true;
  }
}

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement;
}
