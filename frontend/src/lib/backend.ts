// The only module that talks to the Go backend. Everything else imports the
// functions and shapes below, never the generated Wails bindings, so the
// bindings can be regenerated without touching the UI.

import * as App from "../../wailsjs/go/main/App";
import { BrowserOpenURL, EventsOn } from "../../wailsjs/runtime/runtime";
import type { EventName, EventPayloads, WatchMode } from "./events";

export interface VaultState {
  path: string;
  name: string;
  watchMode: WatchMode;
  watchNotice: string;
  indexing: boolean;
}

export type PaperStatus = "ok" | "no-text" | "partial" | "error" | "pending";

export interface PaperSummary {
  ref: string;
  title: string;
  authors: string[];
  /** 0 when the year is unknown. */
  year: number;
  /** Vault-relative, e.g. "papers/raft/paper.pdf". */
  pdfPath: string;
  pages: number;
  noTextPages: number;
  status: PaperStatus;
  error: string;
}

export interface SearchHit {
  ref: string;
  title: string;
  page: number;
  pageLabel: string;
  /** Matched terms are wrapped in "\u0002" … "\u0003". */
  snippet: string;
  citationUri: string;
}

export async function vault(): Promise<VaultState> {
  return (await App.Vault()) as VaultState;
}

export async function library(): Promise<PaperSummary[]> {
  const papers = ((await App.Library()) ?? []) as PaperSummary[];
  // Go encodes a nil slice as null.
  return papers.map((p) => ({ ...p, authors: p.authors ?? [] }));
}

export async function search(query: string, limit: number): Promise<SearchHit[]> {
  return ((await App.Search(query, limit)) ?? []) as SearchHit[];
}

export async function reindex(): Promise<void> {
  await App.Reindex();
}

/** chooseVault opens a folder dialog; it resolves to the new path, or "" when cancelled. */
export async function chooseVault(): Promise<string> {
  return (await App.ChooseVault()) ?? "";
}

/** on subscribes to a backend event and returns the unsubscribe function. */
export function on<K extends EventName>(name: K, callback: (payload: EventPayloads[K]) => void): () => void {
  return EventsOn(name, (payload: EventPayloads[K]) => callback(payload ?? ({} as EventPayloads[K])));
}

/** openExternal opens a URL in the system browser, never inside the app. */
export function openExternal(url: string): void {
  BrowserOpenURL(url);
}

/** vaultFileUrl is the asset-server URL of a vault-relative file. */
export function vaultFileUrl(path: string): string {
  return "/vault/" + path.split("/").map(encodeURIComponent).join("/");
}

/** available reports whether the Wails bridge is present (false in a plain browser). */
export function available(): boolean {
  const w = window as unknown as { go?: { main?: { App?: unknown } }; runtime?: unknown };
  return Boolean(w.go?.main?.App && w.runtime);
}
