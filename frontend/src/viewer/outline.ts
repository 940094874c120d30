// The viewer's outline panel: the open paper's sections (its PDF outline,
// or the headings the index found on its pages), each a button that opens
// its page. Ctrl+Shift+O shows it and puts the focus on the section being
// read; arrow keys, Home and End move between sections, Enter opens one,
// Escape hides the panel and gives the focus back to the pages. Below the
// sections, the paper's figures and tables (found by their captions) each
// open their page with the figure's region outlined.

import type { index } from "../../wailsjs/go/models";
import type { Data } from "../lib/backend";
import { h } from "../lib/dom";

export type OutlineEntry = Data<index.Section>;
export type FigureEntry = Data<index.Figure>;

export interface OutlineActions {
  /** open shows page n of the open paper. */
  open(page: number): void;
  /** closed is called when Escape hides the panel, to give the focus back. */
  closed(): void;
  /** openFigure shows a figure's page with its region outlined. */
  openFigure(figure: FigureEntry): void;
}

/** figureText is a figure's entry: its label, then its caption without the label. */
export function figureText(f: Pick<FigureEntry, "label" | "caption">): string {
  const rest = f.caption.startsWith(f.label) ? f.caption.slice(f.label.length).replace(/^\s*[:.|—–-]?\s*/, "") : f.caption;
  return rest ? `${f.label}: ${rest}` : f.label;
}

/** currentEntry is the index of the section page n is in: the last one that starts on or before it; -1 before the first. */
export function currentEntry(entries: readonly OutlineEntry[], page: number): number {
  let found = -1;
  for (let i = 0; i < entries.length; i++) {
    if (entries[i].page > 0 && entries[i].page <= page) found = i;
  }
  return found;
}

export class OutlinePanel {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private readonly status: HTMLElement;
  private readonly figuresHead: HTMLElement;
  private readonly figuresList: HTMLElement;
  private entries: OutlineEntry[] = [];
  private buttons: HTMLButtonElement[] = [];
  private page = 0;

  constructor(private readonly actions: OutlineActions) {
    this.status = h("p", { class: "outline-status", role: "status" });
    this.list = h("ol", { class: "outline-list" });
    this.figuresHead = h("h2", { class: "outline-head figures-head", hidden: true }, "Figures and tables");
    this.figuresList = h("ul", { class: "outline-list figures-list", "data-testid": "figures", hidden: true });
    this.el = h(
      "nav",
      { class: "viewer-outline", "aria-label": "Sections", "data-testid": "outline", hidden: true },
      h("h2", { class: "outline-head" }, "Sections"),
      this.status,
      this.list,
      this.figuresHead,
      this.figuresList,
    );
    this.el.addEventListener("keydown", (e) => this.onKey(e));
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  /** show lists entries; status says why there are none ("Loading sections…", an error). */
  show(entries: readonly OutlineEntry[], status = ""): void {
    this.entries = [...entries];
    this.buttons = this.entries.map((s) =>
      h(
        "button",
        {
          type: "button",
          class: `outline-entry level-${Math.min(Math.max(s.level, 1), 4)}`,
          title: `${s.title} (page ${s.page})`,
          tabIndex: -1,
          onClick: () => this.actions.open(s.page),
        },
        h("span", { class: "outline-title" }, s.title),
        h("span", { class: "outline-page" }, String(s.page)),
      ),
    );
    this.list.replaceChildren(...this.buttons.map((b) => h("li", {}, b)));
    this.status.textContent = status || (entries.length === 0 ? "No sections were found in this paper." : "");
    this.status.hidden = this.status.textContent === "";
    this.setPage(this.page);
  }

  /** showFigures lists the paper's figures and tables (none: hides the list). */
  showFigures(figures: readonly FigureEntry[]): void {
    const items = figures.map((f) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: `outline-entry figure-entry ${f.kind === "table" ? "table" : "figure"}`,
            title: `${figureText(f)} (page ${f.page})`,
            "data-testid": "figure-entry",
            onClick: () => this.actions.openFigure(f),
          },
          h("span", { class: "outline-title" }, figureText(f)),
          h("span", { class: "outline-page" }, String(f.page)),
        ),
      ),
    );
    this.figuresList.replaceChildren(...items);
    this.figuresHead.hidden = this.figuresList.hidden = items.length === 0;
  }

  /** setPage marks the section page n is in, and makes it the one Tab reaches. */
  setPage(n: number): void {
    this.page = n;
    const at = currentEntry(this.entries, n);
    this.buttons.forEach((b, i) => {
      if (i === at) b.setAttribute("aria-current", "location");
      else b.removeAttribute("aria-current");
      b.tabIndex = i === Math.max(at, 0) ? 0 : -1;
    });
  }

  /** toggle shows or hides the panel; shown by the keyboard, it takes the focus. */
  toggle(focus: boolean): void {
    if (this.isOpen) {
      this.hide();
      return;
    }
    this.el.hidden = false;
    if (focus) this.focusEntry(Math.max(currentEntry(this.entries, this.page), 0));
  }

  hide(): void {
    this.el.hidden = true;
  }

  private focusEntry(i: number): void {
    const b = this.buttons[Math.min(Math.max(i, 0), this.buttons.length - 1)];
    if (!b) {
      this.el.tabIndex = -1;
      this.el.focus();
      return;
    }
    for (const other of this.buttons) other.tabIndex = other === b ? 0 : -1;
    b.focus();
  }

  private onKey(e: KeyboardEvent): void {
    const i = this.buttons.indexOf(e.target as HTMLButtonElement);
    const moves: Record<string, number> = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: this.buttons.length - 1 };
    if (e.key in moves && i >= 0) {
      e.preventDefault();
      e.stopPropagation();
      this.focusEntry(moves[e.key]);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      this.hide();
      this.actions.closed();
    }
  }
}
