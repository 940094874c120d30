// Indexing progress as a pure reducer over index:progress / index:done.

import type { IndexDoneEvent, IndexProgressEvent } from "../lib/events";

export interface ProgressState {
  /** "idle": nothing to show; "indexing": a run is going; "done": the last run's summary is shown. */
  phase: "idle" | "indexing" | "done";
  done: number;
  /** 0 while the backend has not counted the work yet. */
  total: number;
  current: string;
  summary: IndexDoneEvent | null;
}

export type ProgressEvent =
  | { type: "started" }
  | ({ type: "progress" } & IndexProgressEvent)
  | ({ type: "done" } & IndexDoneEvent)
  | { type: "dismiss" };

export const initialProgress: ProgressState = { phase: "idle", done: 0, total: 0, current: "", summary: null };

export function reduceProgress(state: ProgressState, event: ProgressEvent): ProgressState {
  switch (event.type) {
    case "started":
      if (state.phase === "indexing") return state;
      return { phase: "indexing", done: 0, total: 0, current: "", summary: null };
    case "progress": {
      const total = Math.max(0, event.total);
      const done = Math.min(Math.max(0, event.done), total || Infinity);
      return { phase: "indexing", done, total, current: event.current ?? "", summary: null };
    }
    case "done": {
      const { type: _, ...summary } = event;
      return { phase: "done", done: state.total, total: state.total, current: "", summary };
    }
    case "dismiss":
      return state.phase === "done" ? initialProgress : state;
  }
}

/** progressFraction is 0…1, or null when the total is not known yet (indeterminate bar). */
export function progressFraction(state: ProgressState): number | null {
  if (state.phase === "done") return 1;
  if (state.total <= 0) return null;
  return Math.min(1, state.done / state.total);
}

/** progressText says in a sentence what the bar shows. */
export function progressText(state: ProgressState): string {
  if (state.phase === "indexing") {
    if (state.total <= 0) return "Indexing your vault…";
    const head = `Indexing ${count(state.done)} of ${count(state.total)} papers`;
    return state.current ? `${head} — ${state.current}` : head;
  }
  if (state.phase === "done" && state.summary) {
    const s = state.summary;
    let text = `Indexed ${plural(s.papers, "paper")} (${plural(s.pages, "page")}) in ${duration(s.seconds)}`;
    if (s.errors > 0) text += ` · ${plural(s.errors, "file")} could not be read`;
    return text;
  }
  return "";
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function plural(n: number, word: string): string {
  return `${count(n)} ${word}${n === 1 ? "" : "s"}`;
}

function duration(seconds: number): string {
  if (seconds < 1) return "under a second";
  if (seconds < 90) return `${Math.round(seconds)} s`;
  return `${Math.round(seconds / 60)} min`;
}
