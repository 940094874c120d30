// The library list in the left pane: one row per paper with its health
// badge, sorted (title, first author, year, added) and filtered as you type
// (title, authors, year, tags). The list is one tab stop: the arrow keys,
// Home and End move between papers, Enter opens one (a roving tabindex).

import type { PaperSummary } from "../lib/backend";
import { h } from "../lib/dom";
import { filterPapers, isSortKey, SortLabels, sortPapers, type SortKey } from "./order";
import { authorLine, paperHealth, type LibraryState } from "./state";

const SortStorageKey = "agentero.librarySort";

export interface LibraryView {
  render(state: LibraryState): void;
  setHidden(hidden: boolean): void;
  /** focusList puts the keyboard on the list (the selected paper, else the first). */
  focusList(): void;
}

export interface LibraryOptions {
  /**
   * editMetadata, when given, edits a paper's details in place (F2 on a
   * focused paper, or its "Edit details" button); the editor is the
   * caller's.
   */
  editMetadata?(paper: PaperSummary): void;
  /** start is the way forward when no vault is open: the first screen's buttons. */
  start?: FirstScreen;
}

/** FirstScreen is what the library offers when no vault is open. */
export interface FirstScreen {
  open(): void;
  create(): void;
  /** example resolves to where the example vault is copied to, "" when none ships with the app. */
  example(): Promise<string>;
  openExample(): void;
}

export function mountLibrary(host: HTMLElement, onOpen: (paper: PaperSummary) => void, options: LibraryOptions = {}): LibraryView {
  const filter = h("input", {
    type: "search",
    class: "library-filter",
    placeholder: "Filter by title, author, year, tag…",
    "aria-label": "Filter the library",
    "data-testid": "library-filter",
  });
  const sort = h(
    "select",
    { class: "library-sort", "aria-label": "Sort the library by", "data-testid": "library-sort" },
    ...(Object.keys(SortLabels) as SortKey[]).map((k) => h("option", { value: k }, SortLabels[k])),
  );
  const stored = localStorage.getItem(SortStorageKey);
  sort.value = isSortKey(stored) ? stored : "title";
  const count = h("p", { class: "library-count", role: "status", "aria-live": "polite", "data-testid": "library-count" });
  const tools = h("div", { class: "library-tools" }, filter, sort);
  const list = h("ul", {
    class: "library-list",
    role: "list",
    "aria-label": "Papers (arrow keys move, Enter opens)",
    "aria-keyshortcuts": "ArrowUp ArrowDown Home End Enter",
    "data-testid": "library-list",
  });
  const message = h("div", { class: "pane-message", role: "status" });
  host.append(tools, count, message, list);

  let state: LibraryState | null = null;
  let rendered: PaperSummary[] | null = null;
  let shown: PaperSummary[] = [];
  let renderedSelected: string | null = null;
  let renderedKey = "";
  // Whether an example ships is asked once: the message is drawn again on every change.
  let example: Promise<string> | null = null;
  const start: FirstScreen | undefined = options.start && { ...options.start, example: () => (example ??= options.start!.example()) };
  // The row the list's tab stop is on.
  let active: string | null = null;

  const rows = () => [...list.querySelectorAll<HTMLButtonElement>("button.library-item")];

  list.addEventListener("click", (e) => {
    const target = e.target as HTMLElement;
    const edit = target.closest<HTMLElement>("[data-edit]");
    const row = target.closest<HTMLElement>("[data-ref]");
    const paper = shown.find((p) => p.ref === (edit?.dataset.edit ?? row?.dataset.ref));
    if (!paper) return;
    if (edit) options.editMetadata?.(paper);
    else {
      setActive(paper.ref);
      onOpen(paper);
    }
  });

  list.addEventListener("keydown", (e) => {
    const all = rows().filter((r) => !r.disabled);
    const i = all.findIndex((r) => r === document.activeElement);
    let next = -1;
    if (e.key === "ArrowDown") next = Math.min(all.length - 1, i + 1);
    else if (e.key === "ArrowUp") next = Math.max(0, i - 1);
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = all.length - 1;
    else if (e.key === "PageDown") next = Math.min(all.length - 1, i + 10);
    else if (e.key === "PageUp") next = Math.max(0, i - 10);
    else if (e.key === "F2" && options.editMetadata && i >= 0) {
      e.preventDefault();
      const paper = shown.find((p) => p.ref === all[i].dataset.ref);
      if (paper) options.editMetadata(paper);
      return;
    }
    if (next < 0 || all.length === 0) return;
    e.preventDefault();
    setActive(all[next].dataset.ref ?? null);
    all[next].focus();
    all[next].scrollIntoView({ block: "nearest" });
  });

  // Arrow down from the filter goes to the list.
  filter.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      focusList();
    } else if (e.key === "Escape" && filter.value) {
      e.preventDefault();
      e.stopPropagation();
      filter.value = "";
      redraw();
    }
  });
  filter.addEventListener("input", () => redraw());
  sort.addEventListener("change", () => {
    localStorage.setItem(SortStorageKey, sort.value);
    redraw();
  });

  function setActive(ref: string | null) {
    active = ref;
    for (const r of rows()) r.tabIndex = r.dataset.ref === active ? 0 : -1;
  }

  function focusList() {
    const all = rows().filter((r) => !r.disabled);
    const target = all.find((r) => r.dataset.ref === active) ?? all[0];
    if (!target) return;
    setActive(target.dataset.ref ?? null);
    target.focus();
  }

  function redraw() {
    if (state) draw(state, true);
  }

  function draw(next: LibraryState, force = false) {
    state = next;
    message.replaceChildren(...messageFor(next, start));
    message.hidden = message.childElementCount === 0;
    const key = `${sort.value}\u0000${filter.value}`;
    if (!force && next.papers === rendered && next.selected === renderedSelected && key === renderedKey) return;
    if (force || next.papers !== rendered || key !== renderedKey) {
      const hadFocus = list.contains(document.activeElement);
      shown = sortPapers(filterPapers(next.papers, filter.value), isSortKey(sort.value) ? sort.value : "title");
      list.replaceChildren(...shown.map((p) => row(p, options.editMetadata !== undefined)));
      rendered = next.papers;
      renderedKey = key;
      const total = next.papers.length;
      count.textContent = filter.value.trim() ? (shown.length === 0 ? `No paper matches “${filter.value.trim()}” (of ${total})` : `${shown.length} of ${total} papers`) : total > 0 ? (total === 1 ? "1 paper" : `${total} papers`) : "";
      count.hidden = count.textContent === "";
      if (!shown.some((p) => p.ref === active)) active = next.selected && shown.some((p) => p.ref === next.selected) ? next.selected : shown.find((p) => p.pdfPath)?.ref ?? null;
      setActive(active);
      if (hadFocus) focusList();
    }
    for (const el of rows()) {
      el.classList.toggle("selected", el.dataset.ref === next.selected);
      el.setAttribute("aria-current", String(el.dataset.ref === next.selected));
    }
    if (next.selected !== renderedSelected && next.selected && shown.some((p) => p.ref === next.selected)) setActive(next.selected);
    renderedSelected = next.selected;
  }

  return {
    render: (next) => draw(next),
    setHidden(hidden) {
      host.hidden = hidden;
    },
    focusList,
  };
}

function row(p: PaperSummary, editable: boolean): HTMLElement {
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
        "data-year": p.year,
        "data-added": p.added,
        disabled: !openable,
        title: `${p.title || p.ref}\n${p.ref}`,
        tabIndex: -1,
      },
      h("span", { class: "item-title" }, p.title || p.ref),
      meta ? h("span", { class: "item-meta" }, meta) : null,
      h("span", { class: `badge badge-${health.tone}`, title: health.detail }, health.label),
      p.status === "error" ? h("span", { class: "item-error" }, health.detail) : null,
      p.tags?.length ? h("span", { class: "item-tags" }, p.tags.map((t) => `#${t}`).join(" ")) : null,
    ),
    editable ? h("button", { type: "button", class: "quiet item-edit", "data-edit": p.ref, tabIndex: -1, title: "Edit this paper’s details (F2)", "aria-label": `Edit the details of ${p.title || p.ref}` }, "Edit") : null,
  );
}

// firstScreen is the way forward with no vault open: Open vault…, New
// vault…, and the example vault when one ships with the app.
function firstScreen(start: FirstScreen | undefined): Node[] {
  const intro = h("p", {}, "No vault is open. A vault is a folder of papers: open one, make a new one, or try the example.");
  if (!start) return [intro];
  const example = h(
    "button",
    { type: "button", hidden: true, "data-testid": "start-example", onClick: () => start.openExample() },
    "Open the example vault",
  );
  void start.example().then(
    (path) => {
      example.hidden = path === "";
      example.title = path ? `A copy of the example, in ${path}` : "";
    },
    () => {},
  );
  return [
    intro,
    h(
      "div",
      { class: "first-screen", "data-testid": "first-screen" },
      h("button", { type: "button", class: "primary", "data-testid": "start-open", title: "Choose the folder that holds your papers", onClick: () => start.open() }, "Open vault…"),
      h("button", { type: "button", "data-testid": "start-new", title: "Choose an empty folder: papers/ and .agentero/ are made in it", onClick: () => start.create() }, "New vault…"),
      example,
    ),
    h("p", { class: "detail" }, "Add, Zotero and BibTeX bring papers into an open vault: they wait until one is open."),
  ];
}

function messageFor(state: LibraryState, start?: FirstScreen): Node[] {
  if (state.status === "loading") return [h("p", {}, "Opening your library…")];
  if (state.status === "not-vault") {
    return [
      h("p", {}, "This folder is not a vault yet."),
      h("p", { class: "detail" }, `${state.error.replace(/\.$/, "")}. Nothing is written to it until you choose how to make it one.`),
    ];
  }
  if (state.status === "error") {
    return [h("p", { class: "error" }, "Couldn’t read the library."), h("p", { class: "detail" }, state.error)];
  }
  const notes: Node[] = [];
  if (state.error) notes.push(h("p", { class: "error" }, `Couldn’t refresh the library: ${state.error}`));
  if (state.papers.length === 0) {
    if (state.vault?.indexing) {
      notes.push(h("p", {}, "Indexing your papers… they will appear here as they are read."));
    } else if (!state.vault?.path) {
      notes.push(...firstScreen(start));
    } else {
      notes.push(
        h("p", {}, "No papers in this vault yet."),
        h("p", { class: "detail" }, "Add PDFs or import from Zotero or a bibliography with the buttons above, or drop PDFs on the window."),
        h("p", { class: "detail" }, "By hand: each paper in its own folder under papers/, with its PDF inside."),
      );
    }
  }
  return notes;
}
