// Library state as a pure reducer: the view renders whatever this returns,
// and every backend answer or event goes through reduce().

import type { PaperSummary, VaultState } from "../lib/backend";

export interface LibraryState {
  vault: VaultState | null;
  papers: PaperSummary[];
  /** "loading" only before the first list arrives; reloads keep showing the old list. */
  /** not-vault: the folder opened is not a vault yet (the intake dialog asks what to make of it). */
  status: "loading" | "ready" | "error" | "not-vault";
  error: string;
  /** Sequence number of the newest list request; older answers are dropped. */
  requested: number;
  /** Ref of the paper open in the viewer. */
  selected: string | null;
}

export type LibraryEvent =
  | { type: "vault"; vault: VaultState }
  | { type: "vault-failed"; error: string; notVault?: boolean }
  | { type: "request"; seq: number }
  | { type: "loaded"; seq: number; papers: PaperSummary[] }
  | { type: "failed"; seq: number; error: string }
  | { type: "watch"; mode: VaultState["watchMode"]; notice: string }
  | { type: "indexing"; on: boolean }
  | { type: "select"; ref: string | null };

export const initialLibrary: LibraryState = {
  vault: null,
  papers: [],
  status: "loading",
  error: "",
  requested: 0,
  selected: null,
};

export function reduceLibrary(state: LibraryState, event: LibraryEvent): LibraryState {
  switch (event.type) {
    case "vault": {
      const switched = state.vault !== null && state.vault.path !== event.vault.path;
      if (!switched) return { ...state, vault: event.vault };
      return { ...state, vault: event.vault, papers: [], status: "loading", error: "", selected: null };
    }
    case "vault-failed":
      return { ...state, status: event.notVault ? "not-vault" : "error", error: event.error };
    case "request":
      return { ...state, requested: Math.max(state.requested, event.seq) };
    case "loaded":
      if (event.seq < state.requested) return state;
      return { ...state, papers: event.papers, status: "ready", error: "" };
    case "failed":
      if (event.seq < state.requested) return state;
      // A folder that is not a vault yet has no library to read: its dialog says what to do, not an error behind it.
      if (state.status === "not-vault") return state;
      // A failed reload keeps the list the user is looking at.
      return state.status === "ready"
        ? { ...state, error: event.error }
        : { ...state, status: "error", error: event.error };
    case "watch":
      if (state.vault === null) return state;
      return { ...state, vault: { ...state.vault, watchMode: event.mode, watchNotice: event.notice } };
    case "indexing":
      if (state.vault === null || state.vault.indexing === event.on) return state;
      return { ...state, vault: { ...state.vault, indexing: event.on } };
    case "select":
      return { ...state, selected: event.ref };
  }
}

/** Health is the badge a paper shows: what the index could read from its PDF. */
export interface Health {
  tone: "ok" | "warn" | "error" | "pending";
  label: string;
  detail: string;
}

export function paperHealth(p: PaperSummary): Health {
  const pages = p.pages === 1 ? "1 page" : `${p.pages} pages`;
  switch (p.status) {
    case "ok":
      return { tone: "ok", label: pages, detail: "Full text indexed" };
    case "no-text":
      return {
        tone: "warn",
        label: "no text",
        detail: "Scanned or image-only PDF: no text layer, so only its title and metadata are searchable",
      };
    case "garbled":
      return {
        tone: "warn",
        label: "unreadable text",
        detail:
          "The PDF's text layer is unreadable (a broken font encoding): it needs OCR. Its pages are not indexed; only its title and metadata are searchable",
      };
    case "partial":
      return {
        tone: "warn",
        label: `${pages}, ${p.noTextPages} without text`,
        detail:
          `${p.noTextPages} of ${p.pages} pages have no text layer and are not searchable` +
          (p.error ? `; ${p.error}` : ""),
      };
    case "error":
      return { tone: "error", label: "unreadable", detail: p.error || "The PDF could not be read" };
    case "pending":
      return { tone: "pending", label: "pending", detail: "Waiting to be indexed" };
  }
  return { tone: "pending", label: String(p.status), detail: p.error };
}

/** authorLine shortens an author list the way a reference list would. */
export function authorLine(authors: string[]): string {
  if (authors.length === 0) return "";
  if (authors.length <= 3) return authors.join(", ");
  return `${authors.slice(0, 2).join(", ")} et al.`;
}
