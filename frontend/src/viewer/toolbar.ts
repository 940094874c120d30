// The viewer's toolbar: paper title, page N of M with a page box, zoom.

import { h } from "../lib/dom";

export interface ToolbarActions {
  goTo(page: number): void;
  step(delta: number): void;
  zoom(direction: "in" | "out" | "fit"): void;
  /** outline shows or hides the sections panel. */
  outline(): void;
}

export interface NoticeAction {
  label: string;
  run(): void;
}

export interface Toolbar {
  el: HTMLElement;
  setTitle(title: string, path: string): void;
  setPage(page: number, total: number): void;
  setZoom(percent: number, fit: boolean): void;
  /**
   * setNotice says something about the open page; action, when given, is a
   * button after it ("Show p. 6"); detail is the notice's tooltip (the text by default).
   */
  setNotice(text: string, action?: NoticeAction, detail?: string): void;
  setEnabled(enabled: boolean): void;
  /** setOutlineOpen says whether the sections panel is shown. */
  setOutlineOpen(open: boolean): void;
}

export function createToolbar(actions: ToolbarActions): Toolbar {
  const title = h("span", { class: "viewer-title" });
  const pageInput = h("input", {
    class: "page-input",
    type: "text",
    inputMode: "numeric",
    "aria-label": "Page number",
    "data-testid": "page-input",
    size: 4,
  });
  const pageCount = h("span", { class: "page-count", "data-testid": "page-count" });
  const prev = h("button", { type: "button", class: "icon", title: "Previous page (Page Up)", "aria-label": "Previous page", onClick: () => actions.step(-1) }, "‹");
  const next = h("button", { type: "button", class: "icon", title: "Next page (Page Down)", "aria-label": "Next page", onClick: () => actions.step(1) }, "›");
  const zoomOut = h("button", { type: "button", class: "icon", title: "Zoom out (Ctrl+−)", "aria-label": "Zoom out", "data-testid": "zoom-out", onClick: () => actions.zoom("out") }, "−");
  const zoomIn = h("button", { type: "button", class: "icon", title: "Zoom in (Ctrl++)", "aria-label": "Zoom in", "data-testid": "zoom-in", onClick: () => actions.zoom("in") }, "+");
  const zoomLabel = h("span", { class: "zoom-label", "data-testid": "zoom-level" });
  const fit = h("button", { type: "button", class: "quiet", title: "Fit the page width to the window (Ctrl+0)", onClick: () => actions.zoom("fit") }, "Fit width");
  const notice = h("span", { class: "viewer-notice", role: "status", "data-testid": "viewer-notice" });
  const outline = h(
    "button",
    {
      type: "button",
      class: "icon",
      title: "Sections of the paper (Ctrl+Shift+O)",
      "aria-label": "Sections (Ctrl+Shift+O)",
      "aria-expanded": "false",
      "data-testid": "outline-toggle",
      onClick: () => actions.outline(),
    },
    "☰",
  );

  let current = 0;
  let total = 0;
  const showPage = () => {
    pageInput.value = current ? String(current) : "";
  };
  pageInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      const n = Number.parseInt(pageInput.value, 10);
      if (Number.isFinite(n)) actions.goTo(n);
      else showPage();
      pageInput.blur();
    } else if (e.key === "Escape") {
      showPage();
      pageInput.blur();
    }
  });
  pageInput.addEventListener("focus", () => pageInput.select());
  pageInput.addEventListener("blur", showPage);

  const el = h(
    "div",
    { class: "viewer-toolbar", role: "toolbar", "aria-label": "PDF viewer" },
    outline,
    title,
    notice,
    h("div", { class: "toolbar-group" }, prev, pageInput, pageCount, next),
    h("div", { class: "toolbar-group" }, zoomOut, zoomLabel, zoomIn, fit),
  );
  const controls = [outline, prev, next, zoomOut, zoomIn, fit, pageInput];

  return {
    el,
    setTitle(text, path) {
      title.textContent = text;
      title.title = path;
    },
    setPage(page, count) {
      current = page;
      total = count;
      if (document.activeElement !== pageInput) showPage();
      pageCount.textContent = total ? `of ${total}` : "";
      prev.disabled = current <= 1;
      next.disabled = current >= total;
    },
    setZoom(percent, isFit) {
      zoomLabel.textContent = `${Math.round(percent)}%`;
      fit.classList.toggle("active", isFit);
    },
    setNotice(text, action, detail) {
      notice.replaceChildren(...(text ? [text] : []));
      notice.title = detail || text;
      if (action) {
        notice.append(
          " ",
          h("button", { type: "button", class: "link notice-action", "data-testid": "viewer-notice-action", onClick: () => action.run() }, action.label),
        );
      }
    },
    setOutlineOpen(open) {
      outline.setAttribute("aria-expanded", String(open));
      outline.classList.toggle("active", open);
    },
    setEnabled(enabled) {
      for (const c of controls) c.disabled = !enabled;
      if (enabled) {
        prev.disabled = current <= 1;
        next.disabled = current >= total;
      }
    },
  };
}
