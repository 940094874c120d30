// The relations panel's state and words: which paper's relations are shown,
// the three lists (references, cited by, related) and which are expanded,
// what clicking a card does, and how each card says how it matched.

import type { RelationCard, RelationKind, Relations } from "../lib/backend";
import { parseCitation } from "../lib/citation";

/** The lists in the order they are shown. */
export const relationKinds: readonly RelationKind[] = ["references", "citedBy", "related"];

export const kindTitles: Record<RelationKind, string> = {
  references: "References",
  citedBy: "Cited by",
  related: "Related",
};

/** What an empty list says. */
export const emptyTexts: Record<RelationKind, string> = {
  references: "No references found in this paper’s text.",
  citedBy: "No paper in your library cites this one.",
  related: "No related papers in your library.",
};

/**
 * CardAction is what clicking a card does: a library paper opens in the
 * viewer, a work outside the library with a DOI or arXiv id opens in the
 * browser, and anything else cannot be opened.
 */
export type CardAction =
  | { kind: "paper"; ref: string; path: string }
  | { kind: "external"; url: string; site: string }
  | { kind: "none" };

/** cardAction maps a card to what clicking it does. */
export function cardAction(card: RelationCard): CardAction {
  const c = card.citationUri ? parseCitation(card.citationUri) : null;
  if (card.paperPath) return { kind: "paper", ref: card.paperPath, path: c?.kind === "vault" ? c.path : "" };
  if (c?.kind === "external") return { kind: "external", url: c.url, site: new URL(c.url).host };
  if (c?.kind === "vault") return { kind: "paper", ref: "", path: c.path };
  return { kind: "none" };
}

/** actionHint is the short line that says what clicking a card does. */
export function actionHint(action: CardAction): string {
  switch (action.kind) {
    case "paper":
      return "in your library";
    case "external":
      return `opens ${action.site} ↗`;
    case "none":
      return "not in your library, no DOI/arXiv id";
  }
}

/** matchText says how a card matched this paper; "" when it was not matched (a work outside the library). */
export function matchText(card: RelationCard): string {
  switch (card.matchBy) {
    case "":
      return "";
    case "doi":
      return "matched by DOI";
    case "arxiv":
      return "matched by arXiv id";
    case "title":
      return "matched by title";
    case "sharedReferences":
      return "shares references";
    case "text":
      return "similar text";
    default:
      return `matched by ${card.matchBy}`;
  }
}

/** cardMeta is the card's second line: year, how it matched, and for a work outside the library its identifier. */
export function cardMeta(card: RelationCard): string {
  const id = card.paperPath ? "" : card.doi ? `DOI ${card.doi}` : card.arxivId ? `arXiv ${card.arxivId}` : "";
  return [card.year > 0 ? String(card.year) : "", matchText(card), id].filter(Boolean).join(" · ");
}

/** countText is a list's count; a full list may have been cut at the limit. */
export function countText(n: number, limit: number): string {
  return n >= limit ? `${limit}+` : String(n);
}

// --- state -----------------------------------------------------------------

export interface RelationsState {
  /** The library paper whose relations are shown; null when none is open. */
  ref: string | null;
  status: "idle" | "loading" | "ready" | "error";
  /** The request whose answer is awaited; older answers are dropped. */
  seq: number;
  /** The last relations loaded for ref (kept while they reload). */
  relations: Relations | null;
  error: string;
  expanded: Record<RelationKind, boolean>;
}

export type RelationsEvent =
  | { type: "paper"; ref: string | null }
  | { type: "request"; seq: number }
  | { type: "loaded"; seq: number; relations: Relations }
  | { type: "failed"; seq: number; error: string }
  | { type: "toggle"; kind: RelationKind };

export const initialRelations: RelationsState = {
  ref: null,
  status: "idle",
  seq: 0,
  relations: null,
  error: "",
  expanded: { references: true, citedBy: true, related: true },
};

export function reduceRelations(state: RelationsState, e: RelationsEvent): RelationsState {
  switch (e.type) {
    case "paper":
      if (e.ref === state.ref) return state;
      return { ...state, ref: e.ref, status: "idle", relations: null, error: "" };
    case "request":
      if (state.ref === null) return state;
      return { ...state, status: "loading", seq: e.seq, error: "" };
    case "loaded":
      if (e.seq !== state.seq || state.ref === null) return state;
      return { ...state, status: "ready", relations: e.relations, error: "" };
    case "failed":
      if (e.seq !== state.seq || state.ref === null) return state;
      return { ...state, status: "error", error: e.error };
    case "toggle":
      return { ...state, expanded: { ...state.expanded, [e.kind]: !state.expanded[e.kind] } };
  }
}
