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
  /** When the run on screen began (ms; 0 = unknown): the summary reports the time the user waited. */
  startedAt: number;
  /** The user asked for this run (Reindex): a run that changed nothing still says so. */
  explicit: boolean;
  /** The summary on screen when a new run began, kept if that run changes nothing. */
  previous: IndexDoneEvent | null;
  /** A paper whose pages OCR is reading (its own step: seconds a page): page of pages read so far; null when none. */
  ocr: { ref: string; page: number; pages: number } | null;
}

/** at is when the event arrived (ms), for the time the user waited. */
export type ProgressEvent =
  | { type: "started"; at?: number }
  | ({ type: "progress"; at?: number } & IndexProgressEvent)
  | ({ type: "done"; at?: number } & IndexDoneEvent)
  | { type: "dismiss" };

export const initialProgress: ProgressState = {
  phase: "idle",
  done: 0,
  total: 0,
  current: "",
  summary: null,
  startedAt: 0,
  explicit: false,
  previous: null,
  ocr: null,
};

/** OCRStep is the step of index:progress events sent while a paper's pages are read by OCR. */
export const OCRStep = "ocr";

export function reduceProgress(state: ProgressState, event: ProgressEvent): ProgressState {
  switch (event.type) {
    case "started":
      if (state.phase === "indexing") return { ...state, explicit: true };
      return { ...initialProgress, phase: "indexing", startedAt: event.at ?? 0, explicit: true, previous: state.summary };
    case "progress": {
      const total = Math.max(0, event.total);
      const done = Math.min(Math.max(0, event.done), total || Infinity);
      const fresh = state.phase !== "indexing";
      let ocr = fresh ? null : state.ocr;
      if (event.step === OCRStep) {
        const pages = Math.max(0, event.pages ?? 0);
        ocr = { ref: event.current ?? "", page: Math.min(Math.max(0, event.page ?? 0), pages), pages };
      } else if (ocr && event.current === ocr.ref) {
        ocr = null; // the paper OCR was reading is written
      }
      return {
        phase: "indexing",
        done,
        total,
        current: event.current ?? "",
        summary: null,
        startedAt: fresh ? event.at ?? 0 : state.startedAt,
        explicit: fresh ? false : state.explicit,
        previous: fresh ? state.summary : state.previous,
        ocr,
      };
    }
    case "done": {
      const { type: _, at, ...summary } = event;
      const unchanged = summary.extracted === 0 && summary.removed === 0;
      // A run the watcher started that found nothing to do does not
      // replace what the user waited for.
      if (unchanged && !state.explicit) {
        return state.previous ? { ...initialProgress, phase: "done", summary: state.previous } : initialProgress;
      }
      const waited = at && state.startedAt ? (at - state.startedAt) / 1000 : 0;
      return { ...initialProgress, phase: "done", done: state.total, total: state.total, summary: { ...summary, seconds: Math.max(summary.seconds, waited) } };
    }
    case "dismiss":
      return state.phase === "done" ? initialProgress : state;
  }
}

/** progressFraction is 0…1, or null when the total is not known yet (indeterminate bar). */
export function progressFraction(state: ProgressState): number | null {
  if (state.phase === "done") return 1;
  if (state.total <= 0) return null;
  const part = state.ocr && state.ocr.pages > 0 ? state.ocr.page / state.ocr.pages : 0;
  return Math.min(1, (state.done + part) / state.total);
}

/**
 * progressText says in a sentence what the bar shows; the paper being read
 * is named by its title (titleOf, "" when not known yet), else by its
 * folder's name in words.
 */
export function progressText(state: ProgressState, titleOf: (ref: string) => string = () => ""): string {
  if (state.phase === "indexing") {
    if (state.ocr && state.ocr.pages > 0) {
      // The page being read: one past those read, until the last is.
      const { ref, page, pages } = state.ocr;
      return `OCR: page ${count(Math.min(page + 1, pages))} of ${count(pages)} of ${paperName(ref, titleOf)}`;
    }
    if (state.total <= 0) return "Indexing your vault…";
    const head = `Indexing ${count(state.done)} of ${count(state.total)} papers`;
    return state.current ? `${head} — ${paperName(state.current, titleOf)}` : head;
  }
  if (state.phase === "done" && state.summary) {
    const s = state.summary;
    if (s.extracted === 0 && s.removed === 0 && s.errors === 0) {
      return `Checked ${plural(s.papers, "paper")} in ${duration(s.seconds)}: nothing had changed`;
    }
    let text = `Indexed ${plural(s.papers, "paper")} (${plural(s.pages, "page")}) in ${duration(s.seconds)}`;
    if (s.errors > 0) text += ` · ${plural(s.errors, "file")} could not be read`;
    return text;
  }
  return "";
}

/** paperName is a paper's title, else its folder's last name with dashes and underscores as spaces. */
export function paperName(ref: string, titleOf: (ref: string) => string): string {
  const title = titleOf(ref).trim();
  if (title) return title;
  const last = ref.split("/").filter(Boolean).pop() ?? ref;
  return last.replace(/[-_]+/g, " ").trim() || ref;
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
