// The window's panes: splitters between the library, the PDF and the chat
// (drag them, or focus one and use the arrow keys; Enter collapses), a
// splitter between the library list and the relations panel, and buttons
// in the PDF's toolbar that hide or show the side panes. The layout is kept
// by the backend (layout.json) and in localStorage, so it survives a reload
// and a restart. The viewer refits itself when its width changes.

import { h } from "../lib/dom";
import "./layout.css";
import { clampRelations, effective, fromStored, maxOf, MinChat, MinLibrary, onKey, resize, toggle, toStored, type PaneLayout, type Side, type Stored } from "./state";

const StorageKey = "agentero.layout";
const SaveDelayMs = 300;

export interface LayoutDeps {
  load(): Promise<Stored>;
  save(l: Stored): Promise<void>;
}

export interface LayoutControl {
  toggle(side: Side): void;
  collapsed(side: Side): boolean;
}

export function mountLayout(app: HTMLElement, deps: LayoutDeps): LayoutControl {
  const library = app.querySelector<HTMLElement>(".sidebar")!;
  const chat = app.querySelector<HTMLElement>(".chat-host")!;
  const viewer = app.querySelector<HTMLElement>(".viewer-host")!;
  app.classList.add("panes");
  library.classList.add("pane-library");
  viewer.classList.add("pane-viewer");
  chat.classList.add("pane-chat");

  let layout: PaneLayout = fromStored(readLocal());
  let touched = false;

  const split = (side: Side) =>
    h("div", {
      class: `splitter splitter-${side}`,
      role: "separator",
      tabIndex: 0,
      "aria-orientation": "vertical",
      "aria-controls": side === "library" ? "library-pane" : "chat",
      "aria-label": side === "library" ? "Resize the library (arrow keys; Enter hides or shows it)" : "Resize the chat (arrow keys; Enter hides or shows it)",
      "data-testid": `splitter-${side}`,
    });
  if (!library.id) library.id = "library-pane";
  const libSplit = split("library");
  const chatSplit = split("chat");
  library.after(libSplit);
  chat.before(chatSplit);

  const toggles: Record<Side, HTMLButtonElement> = {
    library: h("button", { type: "button", class: "icon quiet pane-toggle", "data-testid": "toggle-library" }, "◧"),
    chat: h("button", { type: "button", class: "icon quiet pane-toggle", "data-testid": "toggle-chat" }, "◨"),
  };
  const toolbar = viewer.querySelector<HTMLElement>(".viewer-toolbar");
  toolbar?.prepend(toggles.library);
  toolbar?.append(toggles.chat);
  for (const side of ["library", "chat"] as const) toggles[side].addEventListener("click", () => change(toggle(layout, side)));

  // Library list | relations panel.
  const relations = library.querySelector<HTMLElement>(".relations-host");
  const relSplit = h("div", {
    class: "splitter-h",
    role: "separator",
    tabIndex: 0,
    "aria-orientation": "horizontal",
    "aria-label": "Resize the related papers panel (arrow keys)",
    "data-testid": "splitter-relations",
  });
  relations?.before(relSplit);

  function apply() {
    const width = app.clientWidth || window.innerWidth;
    const e = effective(layout, width);
    app.style.setProperty("--pane-library", `${e.library}px`);
    app.style.setProperty("--pane-chat", `${e.chat}px`);
    for (const side of ["library", "chat"] as const) {
      const pane = side === "library" ? library : chat;
      const sep = side === "library" ? libSplit : chatSplit;
      const shut = layout.collapsed[side];
      pane.hidden = shut;
      app.classList.toggle(`${side}-collapsed`, shut);
      sep.setAttribute("aria-valuenow", String(e[side]));
      sep.setAttribute("aria-valuemin", "0");
      sep.setAttribute("aria-valuemax", String(maxOf(layout, side, width)));
      const name = side === "library" ? "library" : "chat";
      toggles[side].setAttribute("aria-pressed", String(!shut));
      toggles[side].setAttribute("aria-label", shut ? `Show the ${name}` : `Hide the ${name}`);
      toggles[side].title = `${shut ? "Show" : "Hide"} the ${name} (or focus its splitter and press Enter)`;
    }
    if (relations) {
      if (layout.relations > 0) library.style.setProperty("--pane-relations", `${clampRelations(layout.relations, library.clientHeight || 600)}px`);
      else library.style.removeProperty("--pane-relations");
      relSplit.setAttribute("aria-valuenow", String(relations.clientHeight));
    }
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  function change(next: PaneLayout) {
    layout = next;
    touched = true;
    apply();
    clearTimeout(timer);
    timer = setTimeout(() => {
      const stored = toStored(layout);
      try {
        localStorage.setItem(StorageKey, JSON.stringify(stored));
      } catch {
        // localStorage may be unavailable; the backend keeps it.
      }
      deps.save(stored).catch((err) => console.warn("save layout:", err));
    }, SaveDelayMs);
  }

  for (const [side, sep] of [["library", libSplit], ["chat", chatSplit]] as const) {
    sep.addEventListener("keydown", (e) => {
      const next = onKey(layout, side, e.key, e.shiftKey, app.clientWidth || window.innerWidth);
      if (!next) return;
      e.preventDefault();
      change(next);
    });
    sep.addEventListener("dblclick", () => change(toggle(layout, side)));
    sep.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      sep.setPointerCapture(e.pointerId);
      app.classList.add("resizing");
      const box = app.getBoundingClientRect();
      const move = (m: PointerEvent) => {
        const px = side === "library" ? m.clientX - box.left : box.right - m.clientX;
        const min = side === "library" ? MinLibrary : MinChat;
        // Dragging a pane well under its minimum collapses it.
        if (px < min / 2) {
          if (!layout.collapsed[side]) change(toggle(layout, side));
          return;
        }
        change(resize(layout, side, px, box.width));
      };
      const up = () => {
        sep.removeEventListener("pointermove", move);
        app.classList.remove("resizing");
      };
      sep.addEventListener("pointermove", move);
      sep.addEventListener("pointerup", up, { once: true });
      sep.addEventListener("pointercancel", up, { once: true });
    });
  }

  const relHeight = () => relations?.getBoundingClientRect().height ?? 0;
  relSplit.addEventListener("keydown", (e) => {
    const step = e.shiftKey ? 96 : 24;
    const d = e.key === "ArrowUp" ? step : e.key === "ArrowDown" ? -step : 0;
    if (!d) return;
    e.preventDefault();
    change({ ...layout, relations: clampRelations(relHeight() + d, library.clientHeight) });
  });
  relSplit.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !relations) return;
    e.preventDefault();
    relSplit.setPointerCapture(e.pointerId);
    const bottom = library.getBoundingClientRect().bottom;
    const move = (m: PointerEvent) => change({ ...layout, relations: clampRelations(bottom - m.clientY, library.clientHeight) });
    relSplit.addEventListener("pointermove", move);
    relSplit.addEventListener("pointerup", () => relSplit.removeEventListener("pointermove", move), { once: true });
  });

  new ResizeObserver(() => apply()).observe(app);
  apply();
  deps.load().then(
    (stored) => {
      // What the user changed while it loaded wins.
      if (touched || !stored || (Object.keys(stored.sizes ?? {}).length === 0 && Object.keys(stored.collapsed ?? {}).length === 0)) return;
      layout = fromStored(stored);
      apply();
    },
    (err) => console.warn("read layout:", err),
  );

  return {
    toggle: (side) => change(toggle(layout, side)),
    collapsed: (side) => layout.collapsed[side],
  };
}

function readLocal(): Stored | null {
  try {
    const raw = localStorage.getItem(StorageKey);
    return raw ? (JSON.parse(raw) as Stored) : null;
  } catch {
    return null;
  }
}
