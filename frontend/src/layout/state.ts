// The window's panes as a pure model: the library's and the chat's widths,
// the relations panel's height, which side panes are collapsed, and how
// they fit the window (the PDF keeps at least MinViewer pixels).

export type Side = "library" | "chat";

/** Sizes are in pixels; 0 is "the default for the window" (defaults), until the user sets one. */
export interface PaneLayout {
  library: number;
  chat: number;
  relations: number;
  collapsed: Record<Side, boolean>;
}

/** Stored is the layout as the backend keeps it (workspace.Layout). */
export interface Stored {
  sizes: Record<string, number>;
  collapsed: Record<string, boolean>;
}

export const MinLibrary = 170;
export const MinChat = 260;
export const MinViewer = 440;
export const MinRelations = 80;
export const Splitter = 6;
export const Step = 24;
export const BigStep = 96;

/** defaultSize fits the window: narrower side panes on a laptop-sized one. */
export function defaultSize(side: Side, width: number): number {
  const narrow = width < 1200;
  if (side === "library") return narrow ? 240 : 280;
  return narrow ? 300 : 360;
}

/** initial is the layout before the user changed anything: every size the window's default. */
export const initial: PaneLayout = { library: 0, chat: 0, relations: 0, collapsed: { library: false, chat: false } };

/** sizeOf is a side pane's wanted width: the user's, else the default for the window. */
export function sizeOf(l: PaneLayout, side: Side, width: number): number {
  return l[side] > 0 ? l[side] : defaultSize(side, width);
}

/** fromStored reads a stored layout; a size that is not a positive number stays the window's default. */
export function fromStored(s: Stored | null | undefined): PaneLayout {
  const size = (k: string) => {
    const v = s?.sizes?.[k];
    return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : 0;
  };
  return {
    library: size("library"),
    chat: size("chat"),
    relations: size("relations"),
    collapsed: { library: s?.collapsed?.library === true, chat: s?.collapsed?.chat === true },
  };
}

export function toStored(l: PaneLayout): Stored {
  const sizes: Record<string, number> = {};
  for (const k of ["library", "chat", "relations"] as const) if (l[k] > 0) sizes[k] = l[k];
  return { sizes, collapsed: { library: l.collapsed.library, chat: l.collapsed.chat } };
}

/** maxOf is the widest a side pane may be in a window this wide, with the other side as it is. */
export function maxOf(l: PaneLayout, side: Side, width: number): number {
  const other = side === "library" ? "chat" : "library";
  const otherWidth = l.collapsed[other] ? 0 : sizeOf(l, other, width);
  const min = side === "library" ? MinLibrary : MinChat;
  return Math.max(min, width - otherWidth - MinViewer - 2 * Splitter);
}

/**
 * effective is the width each side pane gets in a window this wide: 0 when
 * collapsed, else its size clamped so that the PDF keeps MinViewer pixels
 * (the chat gives way first, then the library, never below their minimum).
 */
export function effective(l: PaneLayout, width: number): Record<Side, number> {
  let library = l.collapsed.library ? 0 : Math.max(MinLibrary, sizeOf(l, "library", width));
  let chat = l.collapsed.chat ? 0 : Math.max(MinChat, sizeOf(l, "chat", width));
  let over = library + chat + 2 * Splitter + MinViewer - width;
  if (over > 0 && chat > 0) {
    const give = Math.min(over, chat - MinChat);
    chat -= give;
    over -= give;
  }
  if (over > 0 && library > 0) library -= Math.min(over, library - MinLibrary);
  return { library, chat };
}

/**
 * resize sets a side pane's width (expanding it if it was collapsed),
 * clamped between its minimum and what leaves the PDF its room.
 */
export function resize(l: PaneLayout, side: Side, px: number, width: number): PaneLayout {
  const min = side === "library" ? MinLibrary : MinChat;
  const v = Math.round(Math.min(maxOf(l, side, width), Math.max(min, px)));
  return { ...l, [side]: v, collapsed: { ...l.collapsed, [side]: false } };
}

export function toggle(l: PaneLayout, side: Side): PaneLayout {
  return { ...l, collapsed: { ...l.collapsed, [side]: !l.collapsed[side] } };
}

/**
 * onKey is what a key does on a side pane's splitter (the separator
 * between it and the PDF): arrows move the separator (Shift: further),
 * Home/End take the pane to its narrowest/widest, Enter collapses or
 * expands it. null for any other key.
 */
export function onKey(l: PaneLayout, side: Side, key: string, shift: boolean, width: number): PaneLayout | null {
  const step = shift ? BigStep : Step;
  // Moving the library's separator right widens it; the chat's, narrows it.
  const dir = side === "library" ? 1 : -1;
  const current = effective(l, width)[side];
  switch (key) {
    case "ArrowRight":
      return resize(l, side, current + dir * step, width);
    case "ArrowLeft":
      return resize(l, side, current - dir * step, width);
    case "Home":
      return resize(l, side, side === "library" ? MinLibrary : maxOf(l, side, width), width);
    case "End":
      return resize(l, side, side === "library" ? maxOf(l, side, width) : MinChat, width);
    case "Enter":
      return toggle(l, side);
  }
  return null;
}

/** clampRelations keeps the relations panel between MinRelations and what leaves the library 120 pixels. */
export function clampRelations(px: number, sidebarHeight: number): number {
  return Math.round(Math.max(MinRelations, Math.min(px, sidebarHeight - 120)));
}
