// Agentero's window: wires the backend, the library, search, the progress bar
// and the viewer together. Feature modules never call each other directly.

import "./lib/stream-iteration"; // before pdf.js loads
import "./style.css";
import * as backend from "./lib/backend";
import type { PaperSummary, SearchHit } from "./lib/backend";
import { formatCitation, parseCitation } from "./lib/citation";
import { IndexDone, IndexProgress, LibraryChanged, WatchStatus } from "./lib/events";
import { initialLibrary, reduceLibrary, type LibraryEvent, type LibraryState } from "./library/state";
import { mountLibrary } from "./library/view";
import { initialProgress, reduceProgress, type ProgressEvent, type ProgressState } from "./progress/state";
import { mountProgress } from "./progress/view";
import { hitQuote } from "./search/hit";
import { mountSearch } from "./search/view";
import { mountVaultHeader } from "./vault/header";
import { Viewer } from "./viewer/viewer";

// How long the "Indexed N papers" summary stays up.
const SummaryMs = 5000;
const SummaryWithErrorsMs = 15000;
// library:changed arrives in bursts while indexing; reload at most this often.
const ReloadDebounceMs = 300;

function slot(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`index.html has no #${id}`);
  return el;
}

const viewer = new Viewer(slot("viewer"));
const progressView = mountProgress(slot("progress"));
const libraryView = mountLibrary(slot("library"), openPaper);
const header = mountVaultHeader(slot("vault"), slot("watch-banner"), { choose: chooseVault, reindex });
const search = mountSearch(slot("search"), slot("search-results"), {
  search: backend.search,
  open: openHit,
  active: (on) => libraryView.setHidden(on),
  indexing: () => progress.phase === "indexing",
});

let library: LibraryState = initialLibrary;
let progress: ProgressState = initialProgress;

function dispatchLibrary(event: LibraryEvent): void {
  library = reduceLibrary(library, event);
  libraryView.render(library);
  header.render(library.vault);
}

let summaryTimer: ReturnType<typeof setTimeout> | undefined;
function dispatchProgress(event: ProgressEvent): void {
  progress = reduceProgress(progress, event);
  progressView.render(progress);
  clearTimeout(summaryTimer);
  if (progress.phase === "done") {
    const ms = (progress.summary?.errors ?? 0) > 0 ? SummaryWithErrorsMs : SummaryMs;
    summaryTimer = setTimeout(() => dispatchProgress({ type: "dismiss" }), ms);
  }
  dispatchLibrary({ type: "indexing", on: progress.phase === "indexing" });
}

// --- loading ---------------------------------------------------------------

let librarySeq = 0;
let reloadTimer: ReturnType<typeof setTimeout> | undefined;

async function loadLibrary(): Promise<void> {
  const seq = ++librarySeq;
  dispatchLibrary({ type: "request", seq });
  try {
    dispatchLibrary({ type: "loaded", seq, papers: await backend.library() });
  } catch (err) {
    dispatchLibrary({ type: "failed", seq, error: errorText(err) });
  }
}

function scheduleReload(): void {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => void loadLibrary(), ReloadDebounceMs);
}

async function loadVault(): Promise<void> {
  try {
    const vault = await backend.vault();
    dispatchLibrary({ type: "vault", vault });
    if (vault.indexing) dispatchProgress({ type: "started" });
  } catch (err) {
    dispatchLibrary({ type: "vault-failed", error: errorText(err) });
  }
}

// --- actions ---------------------------------------------------------------

function openPaper(paper: PaperSummary): void {
  openCitation(formatCitation({ path: paper.pdfPath, page: 1 }), paper.title);
}

function openHit(hit: SearchHit, query: string): void {
  const c = parseCitation(hit.citationUri);
  if (c?.kind !== "vault") {
    openCitation(hit.citationUri, hit.title);
    return;
  }
  openCitation(formatCitation({ path: c.path, page: c.page, quote: c.quote || hitQuote(hit, query) }), hit.title);
}

/** openCitation follows a citation URI: a vault PDF opens in the viewer, doi.org / arxiv.org in the browser. */
function openCitation(uri: string, title = ""): void {
  const c = parseCitation(uri);
  if (c === null) {
    console.warn("not a citation Agentero can open:", uri);
    return;
  }
  if (c.kind === "external") {
    backend.openExternal(c.url);
    return;
  }
  const paper = library.papers.find((p) => p.pdfPath === c.path);
  dispatchLibrary({ type: "select", ref: paper?.ref ?? null });
  void viewer.open(c.path, { page: c.page, quote: c.quote, title: title || paper?.title || c.path });
}

async function chooseVault(): Promise<void> {
  try {
    const path = await backend.chooseVault();
    if (!path) return;
    viewer.close();
    search.clear();
    await loadVault();
    await loadLibrary();
  } catch (err) {
    dispatchLibrary({ type: "failed", seq: librarySeq, error: `Couldn’t open that folder: ${errorText(err)}` });
  }
}

async function reindex(): Promise<void> {
  dispatchProgress({ type: "started" });
  try {
    await backend.reindex();
  } catch (err) {
    dispatchProgress({ type: "done", papers: 0, pages: 0, errors: 0, seconds: 0 });
    dispatchLibrary({ type: "failed", seq: librarySeq, error: `Reindex failed: ${errorText(err)}` });
  }
}

// --- keyboard --------------------------------------------------------------

document.addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "f") {
    e.preventDefault();
    search.focus();
    return;
  }
  if (viewer.handleKey(e)) e.preventDefault();
});

// --- start -----------------------------------------------------------------

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function start(): void {
  libraryView.render(library);
  header.render(null);
  progressView.render(progress);
  if (!backend.available()) {
    dispatchLibrary({
      type: "vault-failed",
      error: "Agentero’s backend isn’t reachable. This page needs to run inside the Agentero app.",
    });
    return;
  }
  backend.on(IndexProgress, (p) => dispatchProgress({ type: "progress", ...p }));
  backend.on(IndexDone, (d) => {
    dispatchProgress({ type: "done", ...d });
    void loadLibrary();
    search.refresh();
  });
  backend.on(LibraryChanged, scheduleReload);
  backend.on(WatchStatus, (w) => dispatchLibrary({ type: "watch", mode: w.mode, notice: w.notice }));
  void loadVault().then(loadLibrary);
}

start();
