// Anchors: passages selected in the viewer that the next turn carries
// (SPEC §3 selections). The latest selection is the current anchor; the
// reader can pin up to MaxPinned so that they stay for later turns. A sent
// sidebar turn consumes the current anchor; pinned ones stay until unpinned
// or cleared.

import type { Selection } from "../lib/backend";

export const MaxPinned = 3;
/** Selections shorter than this are stray clicks, not anchors. */
export const MinAnchorChars = 2;

export interface AnchorsState {
  current: Selection | null;
  pinned: Selection[];
  /** Set when a pin was refused because MaxPinned are pinned. */
  full: boolean;
}

export type AnchorEvent =
  | { type: "select"; selection: Selection }
  | { type: "pin" }
  | { type: "unpin"; index: number }
  | { type: "drop-current" }
  | { type: "clear" }
  | { type: "sent" };

export const initialAnchors: AnchorsState = { current: null, pinned: [], full: false };

export function reduceAnchors(state: AnchorsState, event: AnchorEvent): AnchorsState {
  switch (event.type) {
    case "select": {
      const text = event.selection.text.replace(/\s+/g, " ").trim();
      if (text.length < MinAnchorChars) return state;
      const sel = { ...event.selection, text };
      if (state.pinned.some((p) => same(p, sel))) return { ...state, current: null, full: false };
      return { ...state, current: sel, full: false };
    }
    case "pin":
      if (!state.current) return state;
      if (state.pinned.length >= MaxPinned) return { ...state, full: true };
      return { current: null, pinned: [...state.pinned, state.current], full: false };
    case "unpin":
      return { ...state, pinned: state.pinned.filter((_, i) => i !== event.index), full: false };
    case "drop-current":
      return state.current ? { ...state, current: null, full: false } : state;
    case "clear":
      return initialAnchors;
    case "sent":
      return state.current || state.full ? { ...state, current: null, full: false } : state;
  }
}

/** selectionsOf lists what a turn carries: the pinned anchors, then the current one. */
export function selectionsOf(state: AnchorsState): Selection[] {
  return state.current ? [...state.pinned, state.current] : [...state.pinned];
}

function same(a: Selection, b: Selection): boolean {
  return a.sourcePath === b.sourcePath && a.page === b.page && a.text === b.text;
}

/** anchorPreview shortens an anchor's text for a chip. */
export function anchorPreview(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
