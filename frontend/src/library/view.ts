// The library list in the left pane: one row per paper with its health badge.

import type { PaperSummary } from "../lib/backend";
import { h } from "../lib/dom";
import { authorLine, paperHealth, type LibraryState } from "./state";

export interface LibraryView {
  render(state: LibraryState): void;
  setHidden(hidden: boolean): void;
}

export function mountLibrary(host: HTMLElement, onOpen: (paper: PaperSummary) => void): LibraryView {
  const list = h("ul", { class: "library-list", role: "list", "aria-label": "Papers" });
  const message = h("div", { class: "pane-message", role: "status" });
  host.append(message, list);

  let rendered: PaperSummary[] | null = null;
  let renderedSelected: string | null = null;

  list.addEventListener("click", (e) => {
    const row = (e.target as HTMLElement).closest<HTMLElement>("[data-ref]");
    const paper = rendered?.find((p) => p.ref === row?.dataset.ref);
    if (paper) onOpen(paper);
  });

  return {
    render(state) {
      message.replaceChildren(...messageFor(state));
      message.hidden = message.childElementCount === 0;
      if (state.papers === rendered && state.selected === renderedSelected) return;
      if (state.papers !== rendered) {
        list.replaceChildren(...state.papers.map(row));
        rendered = state.papers;
      }
      for (const el of list.querySelectorAll<HTMLElement>("[data-ref]")) {
        el.classList.toggle("selected", el.dataset.ref === state.selected);
        el.setAttribute("aria-current", String(el.dataset.ref === state.selected));
      }
      renderedSelected = state.selected;
    },
    setHidden(hidden) {
      host.hidden = hidden;
    },
  };
}

function row(p: PaperSummary): HTMLElement {
  const health = paperHealth(p);
  const openable = p.pdfPath !== "";
  const meta = [p.year > 0 ? String(p.year) : "", authorLine(p.authors)].filter(Boolean).join(" · ");
  return h(
    "li",
    {},
    h(
      "button",
      {
        type: "button",
        class: "library-item",
        "data-testid": "library-item",
        "data-ref": p.ref,
        "data-status": p.status,
        disabled: !openable,
        title: `${p.title || p.ref}\n${p.ref}`,
      },
      h("span", { class: "item-title" }, p.title || p.ref),
      meta ? h("span", { class: "item-meta" }, meta) : null,
      h("span", { class: `badge badge-${health.tone}`, title: health.detail }, health.label),
      p.status === "error" ? h("span", { class: "item-error" }, health.detail) : null,
    ),
  );
}

function messageFor(state: LibraryState): Node[] {
  if (state.status === "loading") return [h("p", {}, "Opening your library…")];
  if (state.status === "error") {
    return [h("p", { class: "error" }, "Couldn’t read the library."), h("p", { class: "detail" }, state.error)];
  }
  const notes: Node[] = [];
  if (state.error) notes.push(h("p", { class: "error" }, `Couldn’t refresh the library: ${state.error}`));
  if (state.papers.length === 0) {
    if (state.vault?.indexing) {
      notes.push(h("p", {}, "Indexing your papers… they will appear here as they are read."));
    } else if (!state.vault?.path) {
      notes.push(h("p", {}, "No vault is open. Choose the folder that holds your papers."));
    } else {
      notes.push(
        h("p", {}, "No papers in this vault yet."),
        h("p", { class: "detail" }, "Put each paper in its own folder under papers/, with its PDF inside."),
      );
    }
  }
  return notes;
}
