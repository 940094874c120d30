// Agentero's window: wires the backend, the library, search, the progress bar,
// the viewer, the open paper's relations, the sidebar chat, Quick Chat, "What
// the agent sees" and settings together. Feature modules never call each
// other directly.

import "./lib/stream-iteration"; // before pdf.js loads
import "./style.css";
import { mountAgentView } from "./agentview/view";
import * as backend from "./lib/backend";
import type { PaperSummary, SearchHit } from "./lib/backend";
import { mountDock } from "./chat/dock";
import { mountQuickChat } from "./chat/quick";
import { mountConversations } from "./conversations/view";
import { mountSidebar, type ChatDeps, type OpenPaper } from "./chat/sidebar";
import type { SourceLink } from "./chat/sources";
import { createChatStore } from "./chat/store";
import { formatCitation, parseCitation } from "./lib/citation";
import { h } from "./lib/dom";
import { AgentCompleted, AgentError, IndexDone, IndexProgress, IntakeProgress, LibraryChanged, WatchStatus } from "./lib/events";
import { mountWindowIntake, takeDrops } from "./intake/window";
import { initialLibrary, reduceLibrary, type LibraryEvent, type LibraryState } from "./library/state";
import { mountLibrary } from "./library/view";
import { mountLayout } from "./layout/view";
import { mountLoopbackStatus } from "./loopback/status";
import { mountMetadataEditor } from "./metadata/view";
import { initialProgress, reduceProgress, type ProgressEvent, type ProgressState } from "./progress/state";
import { mountProgress } from "./progress/view";
import { mountRelations } from "./relations/view";
import { mountSearch } from "./search/view";
import { mountSettings } from "./settings/view";
import { startTheme } from "./settings/theme";
import { mountVaultHeader } from "./vault/header";
import { startLinks } from "./vault/links";
import { createVaultMenu } from "./vault/menu";
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

// slotAfter makes a slot right after another one, for panels index.html does not name.
function slotAfter(id: string, name: string, className = ""): HTMLElement {
  const el = h("div", { id: name, class: className });
  slot(id).after(el);
  return el;
}

startTheme();

const viewer = new Viewer(slot("viewer"));
const progressView = mountProgress(slot("progress"), (ref) => library.papers.find((p) => p.ref === ref)?.title ?? "");
// F2 or a row's Edit opens the details editor (metadata/view.ts) on that paper.
const libraryView = mountLibrary(slot("library"), openPaper, {
  editMetadata: (paper) => metadataEditor.open(paper),
  start: {
    open: () => void chooseVault(),
    create: () => void switchVault(backend.newVault),
    example: backend.exampleVault,
    openExample: () => void switchVault(backend.openExampleVault),
  },
});
const vaultMenu = createVaultMenu({
  recent: backend.recentVaults,
  openRecent: (path) => switchVault(() => backend.openVault(path).then(() => path)),
  forget: backend.forgetVault,
  choose: chooseVault,
  create: () => switchVault(backend.newVault),
});
const header = mountVaultHeader(slot("vault"), slot("watch-banner"), {
  menu: vaultMenu.el,
  choose: chooseVault,
  reindex,
  quickChat: () => quick.toggle(),
  settings: () => settings.open(),
});
const search = mountSearch(slot("search"), slot("search-results"), {
  search: backend.search,
  open: openHit,
  active: (on) => libraryView.setHidden(on),
  indexing: () => progress.phase === "indexing",
});

const intakeBar = h("div", { id: "intake" });
slot("library").before(intakeBar);
const intake = mountWindowIntake(intakeBar, slotAfter("settings", "intake-dialogs"), () => void vaultSwitched());

const relations = mountRelations(slotAfter("library", "relations", "relations-host"), {
  load: backend.paperRelations,
  openPaper: openRelated,
  openExternal: backend.openExternal,
});
const metadataEditor = mountMetadataEditor(slotAfter("settings", "metadata-editor-host"), {
  load: backend.paperMetadata,
  save: backend.saveMetadata,
  saved: () => void loadLibrary(),
});
// "Edit details" sits beside the open paper's title in the viewer (Ctrl+Shift+E).
const editDetails = h(
  "button",
  {
    type: "button",
    class: "quiet edit-details",
    hidden: true,
    "data-testid": "edit-details",
    "aria-label": "Edit details (Ctrl+Shift+E)",
    title: "Edit title, authors, year, DOI, arXiv id and tags (Ctrl+Shift+E)",
    onClick: () => editOpenPaper(),
  },
  "Details…",
);
slot("viewer").querySelector(".viewer-title")?.after(editDetails);
function editOpenPaper(): void {
  const p = library.papers.find((x) => x.ref === library.selected);
  if (p) metadataEditor.open(p);
}
// Resizable, collapsible panes, remembered across restarts.
mountLayout(document.querySelector<HTMLElement>(".app")!, { load: backend.layout, save: backend.saveLayout });
const agentView = mountAgentView(slotAfter("settings", "agent-view"), {
  whatAgentSees: backend.whatAgentSees,
  copy: backend.copyText,
  lastTurn: (id) => {
    const last = chats.chats()[id]?.messages.filter((m) => m.role === "assistant").at(-1);
    return { decisions: last?.permissions ?? [], ended: last?.status !== "streaming" };
  },
});

let library: LibraryState = initialLibrary;
let progress: ProgressState = initialProgress;

const chats = createChatStore();
const chatDeps: ChatDeps = {
  store: chats,
  titleOfPath: (path) => library.papers.find((p) => p.pdfPath === path)?.title ?? "",
  titleOfRef: (ref) => library.papers.find((p) => p.ref === ref)?.title ?? "",
  openSource,
  openExternal: (url) => void backend.openExternal(url).catch((err) => console.warn("open external:", err)),
  complete: backend.complete,
  preview: backend.previewPlan,
  agents: backend.agents,
  showAgentView: (id, label) => agentView.open(id, label),
  exporter: {
    copyAnswer: async (conversationId, messageId) =>
      backend.copyText(await backend.exportText({ conversationId, messageId, format: "markdown" })),
    save: (conversationId, messageId, format) => backend.saveExport({ conversationId, messageId, format }),
    errorText: backend.errorText,
  },
  slash: backend,
};
// The right pane: the paper's chat, Quick Chat and the conversations, docked.
const dock = mountDock(slot("chat"));
const conversationTitles = new Map<string, string>();
chatDeps.conversationTitle = (id) => conversationTitles.get(id) ?? "";
const sidebar = mountSidebar(dock.body, chatDeps);
const quick = mountQuickChat(dock.body, chatDeps, { show: () => dock.select("quick"), hide: () => dock.select("paper") });
const conversations = mountConversations(dock.body, {
  list: async (query) => {
    const list = await backend.conversations(query);
    for (const c of list) conversationTitles.set(c.id, c.title);
    return list;
  },
  rename: backend.renameConversation,
  remove: backend.deleteConversation,
  open: (c) => {
    const paper = c.paper ? library.papers.find((p) => p.ref === c.paper) : undefined;
    if (c.surface !== "quickChat" && paper?.pdfPath) {
      openPaper(paper);
      dock.select("paper");
      return;
    }
    quick.showConversation(c.id);
  },
  titleOfRef: (ref) => library.papers.find((p) => p.ref === ref)?.title ?? "",
  hasPaper: (ref) => library.papers.some((p) => p.ref === ref),
  deleted: (id) => chats.forget(id),
  errorText: backend.errorText,
});
dock.add("paper", "This paper", sidebar.el);
dock.add("quick", "Quick Chat", quick.el, () => quick.activate());
dock.add("conversations", "Conversations", conversations.el, () => conversations.refresh());
const settings = mountSettings(slot("settings"), {
  agents: backend.agents,
  saveAgent: backend.saveAgent,
  addAgent: backend.addAgent,
  setDefaultAgent: backend.setDefaultAgent,
  deleteAgent: backend.deleteAgent,
  testAgent: backend.testAgent,
  cancelTestAgent: backend.cancelTestAgent,
  agentPresets: backend.agentPresets,
  agentsChanged: () => {
    sidebar.refreshAgents();
    quick.refreshAgents();
  },
  settings: backend.settings,
  defaultSettings: backend.defaultSettings,
  saveSettings: backend.saveSettings,
  contextDocs: backend.contextDocs,
  contextDocSource: backend.contextDocSource,
  saveContextDoc: backend.saveContextDoc,
  deleteContextDoc: backend.deleteContextDoc,
  lookupMetadata: backend.lookupMetadata,
  metadataLookup: backend.metadataLookup,
  loopbackStatus: backend.loopbackStatus,
  setLoopback: backend.setLoopback,
  rotateLoopbackToken: backend.rotateLoopbackToken,
  copy: backend.copyText,
  loopbackChanged: () => void loopbackNote.refresh(),
});
const loopbackNote = mountLoopbackStatus(slotAfter("settings", "loopback-status-host"), {
  loopbackStatus: backend.loopbackStatus,
  open: () => settings.open(),
});
viewer.onSelect = (path, passage) => chats.anchor({ type: "select", selection: { sourcePath: path, ...passage } });

// The paper the chats were last given, kept while it is open but gone from
// the library (deleted or moved): the viewer says so once, and its
// conversation stays in the sidebar.
let shownPaper: OpenPaper | null = null;
let goneNoticed = "";

function dispatchLibrary(event: LibraryEvent): void {
  library = reduceLibrary(library, event);
  libraryView.render(library);
  header.render(library.vault);
  intake.setVault(Boolean(library.vault?.path));
  let paper = openPaperOf(library);
  if (!paper && shownPaper && library.status === "ready" && library.selected === shownPaper.ref) {
    paper = shownPaper;
    if (goneNoticed !== paper.ref && viewer.openPath === paper.pdfPath) {
      goneNoticed = paper.ref;
      viewer.showMissing(
        paper.pdfPath,
        `“${paper.title}” is no longer in the vault (${paper.pdfPath} was moved or deleted). Its conversation stays here and under Conversations.`,
      );
    }
  } else if (paper) goneNoticed = "";
  shownPaper = paper;
  sidebar.setPaper(paper);
  quick.setPaper(paper);
  relations.setPaper(paper?.ref ?? null, paper?.title ?? "");
  if (paper && viewer.openPath === paper.pdfPath) viewer.setTitle(paper.title, paper.pdfPath);
  editDetails.hidden = paper === null;
}

// openPaperOf is the paper open in the viewer, as the chats know it.
function openPaperOf(state: LibraryState): OpenPaper | null {
  const p = state.papers.find((x) => x.ref === state.selected);
  return p ? { ref: p.ref, pdfPath: p.pdfPath, title: p.title || p.ref } : null;
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
    dispatchLibrary({ type: "failed", seq, error: backend.errorText(err) });
  }
}

function scheduleReload(): void {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => {
    void loadLibrary();
    relations.reload();
  }, ReloadDebounceMs);
}

async function loadVault(): Promise<void> {
  try {
    const vault = await backend.vault();
    dispatchLibrary({ type: "vault", vault });
    if (vault.indexing) dispatchProgress({ type: "progress", done: 0, total: 0, current: "", at: Date.now() });
  } catch (err) {
    const notVault = backend.failure(err).code === "not-vault";
    dispatchLibrary({ type: "vault-failed", error: backend.errorText(err), notVault });
    if (notVault) {
      const pending = await backend.pendingFolder().catch(() => null);
      if (pending) intake.showFolder(pending);
    }
  }
}

// --- actions ---------------------------------------------------------------

function openPaper(paper: PaperSummary): void {
  openCitation(formatCitation({ path: paper.pdfPath, page: 1 }), paper.title);
}

/** openRelated opens a library paper from the relations panel, by ref or else by its PDF's path. */
function openRelated(ref: string, path: string): void {
  const paper = library.papers.find((p) => p.ref === ref);
  if (paper?.pdfPath) openPaper(paper);
  else if (path) openCitation(formatCitation({ path, page: 1 }));
  else console.warn("not a paper Agentero can open:", ref);
}

function openHit(hit: SearchHit): void {
  const c = parseCitation(hit.citationUri);
  if (c?.kind !== "vault") {
    openCitation(hit.citationUri, hit.title);
    return;
  }
  // The hit's quote is the snippet's words as the page has them: the locator marks exactly those.
  openCitation(formatCitation({ path: c.path, page: c.page, quote: hit.quote || c.quote }), hit.title);
}

/**
 * openCitation follows a citation URI: a vault PDF opens in the viewer (at
 * its page, with its figure's region outlined or its quote marked),
 * doi.org / arxiv.org in the browser.
 */
function openCitation(uri: string, title = ""): void {
  const c = parseCitation(uri);
  if (c === null) {
    console.warn("not a citation Agentero can open:", uri);
    return;
  }
  if (c.kind === "external") {
    backend.openExternal(c.url).catch((err) => header.alert(`Couldn’t open ${c.url}: ${backend.errorText(err)}`));
    return;
  }
  const paper = library.papers.find((p) => p.pdfPath === c.path);
  dispatchLibrary({ type: "select", ref: paper?.ref ?? null });
  void viewer.open(c.path, { page: c.page, locate: c.quote ? uri : "", region: c.region, title: title || paper?.title || c.path });
}

/**
 * openSource follows a source under an answer: an external DOI / arXiv page
 * opens in the browser; a vault file is checked first, so one that no
 * longer exists says so instead of failing; otherwise the PDF opens at the
 * page with the quote highlighted. It resolves to whether the source exists.
 */
async function openSource(link: SourceLink): Promise<boolean> {
  if (link.citation.kind === "external") {
    openCitation(link.target);
    return true;
  }
  let exists = true;
  try {
    exists = await backend.sourceExists(link.uri);
  } catch {
    // Unknown: try to open it; the viewer reports what goes wrong.
  }
  if (!exists) {
    viewer.showMissing(link.citation.path);
    return false;
  }
  openCitation(link.target);
  return true;
}

async function chooseVault(): Promise<void> {
  try {
    const folder = await backend.chooseFolder();
    if (!folder) return;
    if (!folder.found.vault) {
      intake.showFolder(folder); // not opened: nothing is written until the user chooses
      return;
    }
    await vaultSwitched();
  } catch (err) {
    dispatchLibrary({ type: "failed", seq: librarySeq, error: `Couldn’t open that folder: ${backend.errorText(err)}` });
  }
}

/** switchVault runs a vault switch (a dialog, a recent vault, a new one) and shows the vault it opened. */
async function switchVault(run: () => Promise<string>): Promise<void> {
  try {
    const path = await run();
    if (!path) return;
    await vaultSwitched();
  } catch (err) {
    dispatchLibrary({ type: "failed", seq: librarySeq, error: `Couldn’t open that folder: ${backend.errorText(err)}` });
  }
}

/** vaultSwitched shows the vault the backend opened instead of the last one. */
async function vaultSwitched(): Promise<void> {
  viewer.close();
  search.clear();
  chats.reset();
  await loadVault();
  await loadLibrary();
}

async function reindex(): Promise<void> {
  dispatchProgress({ type: "started", at: Date.now() });
  try {
    await backend.reindex();
  } catch (err) {
    dispatchProgress({ type: "done", papers: 0, pages: 0, errors: 0, seconds: 0, extracted: 0, removed: 0 });
    dispatchLibrary({ type: "failed", seq: librarySeq, error: `Reindex failed: ${backend.errorText(err)}` });
  }
}

// --- keyboard --------------------------------------------------------------

document.addEventListener("keydown", (e) => {
  const mod = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
  const key = e.key.toLowerCase();
  if (mod && key === "f") {
    e.preventDefault();
    search.focus();
    return;
  }
  if (mod && key === "k") {
    e.preventDefault();
    quick.toggle();
    return;
  }
  if (mod && key === "i") {
    e.preventDefault();
    dock.select("paper");
    sidebar.focus();
    return;
  }
  if (mod && key === ",") {
    e.preventDefault();
    settings.open();
    return;
  }
  const modShift = (e.ctrlKey || e.metaKey) && !e.altKey && e.shiftKey;
  if (modShift && key === "a") {
    e.preventDefault();
    if (document.querySelector("dialog[open]")) return;
    // Quick Chat's thread when it is open or no paper is; else the paper's.
    if (quick.isOpen() || sidebar.conversationId() === null) quick.showAgentView();
    else sidebar.showAgentView();
    return;
  }
  if (modShift && key === "e") {
    e.preventDefault();
    if (!document.querySelector("dialog[open]")) editOpenPaper();
    return;
  }
  if (modShift && key === "h") {
    e.preventDefault();
    dock.select("conversations");
    conversations.focus();
    return;
  }
  if (modShift && key === "o") {
    e.preventDefault();
    if (!document.querySelector("dialog[open]")) viewer.toggleOutline();
    return;
  }
  if (modShift && key === "l") {
    e.preventDefault();
    relations.focus();
    return;
  }
  // Dialogs handle their own keys (Esc closes them).
  if (e.target instanceof Element && e.target.closest("dialog")) return;
  if (e.key === "Escape" && quick.isOpen()) {
    e.preventDefault();
    quick.close();
    return;
  }
  if (viewer.handleKey(e)) e.preventDefault();
});

// --- start -----------------------------------------------------------------

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
  chats.connect();
  backend.on(IndexProgress, (p) => dispatchProgress({ type: "progress", ...p, at: Date.now() }));
  backend.on(IndexDone, (d) => {
    dispatchProgress({ type: "done", ...d, at: Date.now() });
    void loadLibrary();
    search.refresh();
  });
  backend.on(LibraryChanged, scheduleReload);
  const turnEnded = () => {
    if (dock.selected() === "conversations") conversations.refresh();
  };
  backend.on(AgentCompleted, turnEnded);
  backend.on(AgentError, turnEnded);
  backend.on(WatchStatus, (w) => dispatchLibrary({ type: "watch", mode: w.mode, notice: w.notice }));
  backend.on(IntakeProgress, (p) => intake.progress(p));
  takeDrops(intake);
  void loadVault()
    .then(loadLibrary)
    .then(() =>
      startLinks({
        takeLink: backend.takeLink,
        onLinkFollowed: backend.onLinkFollowed,
        onVaultOpened: backend.onVaultOpened,
        vaultSwitched,
        open: (path, page, quote, title, region) => openCitation(formatCitation({ path, page, quote, region }), title),
        alert: (text) => header.alert(text),
        confirm: (text) => window.confirm(text),
        openLinkVault: backend.openLinkVault,
      }),
    );
  // Quick Chat's picker names its conversations by their titles.
  backend.conversations("").then(
    (list) => list.forEach((c) => conversationTitles.set(c.id, c.title)),
    () => {},
  );
}

start();
