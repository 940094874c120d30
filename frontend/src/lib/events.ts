// Event names emitted by the Go backend, mirrored from backend/events/events.go
// (the one Go file that declares them). Names are `domain:verb`; keep both
// lists in the same order.

export const IndexProgress = "index:progress";
export const IndexDone = "index:done";
export const LibraryChanged = "library:changed";
export const WatchStatus = "watch:status";

export type WatchMode = "starting" | "inotify" | "polling" | "off";

export interface IndexProgressEvent {
  done: number;
  total: number;
  /** The ref of the paper being indexed right now. */
  current: string;
}

export interface IndexDoneEvent {
  papers: number;
  pages: number;
  errors: number;
  seconds: number;
}

export interface WatchStatusEvent {
  mode: WatchMode;
  notice: string;
}

/** EventPayloads maps each event name to the payload the backend sends with it. */
export interface EventPayloads {
  [IndexProgress]: IndexProgressEvent;
  [IndexDone]: IndexDoneEvent;
  [LibraryChanged]: Record<string, never>;
  [WatchStatus]: WatchStatusEvent;
}

export type EventName = keyof EventPayloads;
