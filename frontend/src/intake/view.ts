// Papers in: "Add papers…", "Import from Zotero…", "Import BibTeX / CSL…"
// above the library, PDFs dropped on the window, a status line while a run
// goes on, the summary at its end (added, updated, unchanged, skipped, each
// with why), and the dialog for a folder that is not a vault yet: what it
// holds, a preview of the moves that would arrange it, and nothing written
// before the user chooses. The first import of all asks whether the papers
// may be looked up online (consent.ts).

import { errorText, type AppSettings, type Folder, type IntakeReport, type Move } from "../lib/backend";
import { h } from "../lib/dom";
import "./intake.css";
import { createConsent } from "./consent";
import { foundText, headline, linkedBaseText, moveLine, progressLine, sections, type IntakeKind } from "./state";

export interface IntakeDeps {
  addPapers(): Promise<IntakeReport | null>;
  addPaths(paths: string[]): Promise<IntakeReport | null>;
  importZotero(): Promise<IntakeReport | null>;
  importBibliography(): Promise<IntakeReport | null>;
  /** importZoteroWithBase asks for Zotero's base directory and imports dataDir again with it. */
  importZoteroWithBase(dataDir: string): Promise<IntakeReport | null>;
  planArrangement(path: string): Promise<Move[]>;
  applyArrangement(path: string, moves: Move[], copy: boolean): Promise<IntakeReport | null>;
  openFolder(path: string): Promise<void>;
  /** opened is called when a folder was opened as a vault. */
  opened(): void;
  /** settings and saveSettings keep the answer to the first import's question (look up online or not). */
  settings(): Promise<AppSettings>;
  saveSettings(s: AppSettings): Promise<void>;
}

export interface IntakeView {
  /** setVault enables adding and importing while a vault is open. */
  setVault(open: boolean): void;
  /** progress shows an intake:progress event. */
  progress(p: { done: number; total: number; current: string }): void;
  /** addPaths adds dropped files (PDFs, or folders of them). */
  addPaths(paths: string[]): void;
  /** showFolder asks what to make of a folder that is not a vault yet. */
  showFolder(folder: Folder): void;
}

export function mountIntake(bar: HTMLElement, dialogs: HTMLElement, deps: IntakeDeps): IntakeView {
  const status = h("p", { class: "intake-status", role: "status", "data-testid": "intake-status", hidden: true });
  // Short labels keep the three on one line above the library (its list
  // needs the height); the full name is the accessible name and the tooltip.
  const button = (label: string, name: string, title: string, testid: string, run: () => void) =>
    h("button", { type: "button", class: "quiet", title, "aria-label": name, "data-testid": testid, "data-title": title, onClick: run }, label);
  const buttons = [
    button("Add…", "Add papers…", "Add PDFs to this vault (or drop them on the window)", "add-papers", () => void start("add", deps.addPapers)),
    button("Zotero…", "Import from Zotero…", "Import a Zotero library: its PDFs, metadata and collections (Zotero’s files are only read)", "import-zotero", () =>
      void start("zotero", deps.importZotero),
    ),
    button("BibTeX / CSL…", "Import BibTeX / CSL…", "Import a .bib (BibTeX, BibLaTeX) or CSL-JSON file and the PDFs its entries name", "import-bibliography", () =>
      void start("bibliography", deps.importBibliography),
    ),
  ];
  bar.classList.add("intake-bar");
  bar.append(...buttons, status);

  // --- the summary ---
  const summaryTitle = h("h2", { id: "intake-summary-title" });
  const summaryBody = h("div", { class: "intake-summary-body" });
  const summaryClose = h("button", { type: "button", onClick: () => summary.close() }, "Close");
  const summary = h(
    "dialog",
    { class: "intake-dialog", "aria-labelledby": "intake-summary-title", "data-testid": "intake-summary" },
    summaryTitle,
    summaryBody,
    h("div", { class: "intake-actions" }, summaryClose),
  );

  // --- a folder that is not a vault yet ---
  const folderPath = h("p", { class: "intake-path", "data-testid": "folder-path" });
  const folderFound = h("p", { "data-testid": "folder-found" });
  const folderPlan = h("div", { "data-testid": "folder-plan" });
  const folderError = h("p", { class: "intake-status error", role: "alert", hidden: true });
  const previewButton = h("button", { type: "button", "data-testid": "folder-preview", onClick: () => void preview() }, "Preview arranging into papers/");
  const moveButton = h("button", { type: "button", "data-testid": "folder-move", hidden: true, onClick: () => void apply(false) }, "Move them");
  const copyButton = h(
    "button",
    { type: "button", "data-testid": "folder-copy", hidden: true, title: "Copy the PDFs into papers/ and leave the originals where they are", onClick: () => void apply(true) },
    "Copy them",
  );
  const asIsButton = h(
    "button",
    { type: "button", class: "quiet", "data-testid": "folder-as-is", title: "Open the folder as a vault without moving anything (Agentero keeps its index in .agentero/ there)", onClick: () => void asIs() },
    "Use it as it is",
  );
  const cancelButton = h("button", { type: "button", class: "quiet", "data-testid": "folder-cancel", onClick: () => folderDialog.close() }, "Cancel");
  const folderDialog = h(
    "dialog",
    { class: "intake-dialog", "aria-labelledby": "intake-folder-title", "data-testid": "loose-folder" },
    h("h2", { id: "intake-folder-title" }, "This folder is not a vault yet"),
    folderPath,
    folderFound,
    h("p", { class: "detail" }, "Nothing is written to it until you choose."),
    folderPlan,
    folderError,
    h("div", { class: "intake-actions" }, cancelButton, asIsButton, previewButton, copyButton, moveButton),
  );
  dialogs.append(summary, folderDialog);
  const consent = createConsent(dialogs, deps);

  let vaultOpen = false;
  let running: IntakeKind | null = null;
  let folder: Folder | null = null;
  let moves: Move[] = [];
  // PDFs dropped while a run goes on: added when it ends.
  let queued: string[] = [];

  function render(): void {
    for (const b of buttons) {
      b.disabled = !vaultOpen || running !== null;
      // A disabled button says why.
      b.title = vaultOpen ? (b.dataset.title ?? "") : "Open or make a vault first: papers are brought into an open vault";
    }
  }

  async function start(kind: IntakeKind, run: () => Promise<IntakeReport | null>): Promise<void> {
    if (running) return;
    running = kind;
    render();
    try {
      await consent.ask(); // the first import asks whether to look papers up online
      status.hidden = false;
      status.classList.remove("error", "wrap");
      status.textContent = progressLine(kind, null);
      const report = await run();
      status.hidden = true;
      if (report) showSummary(report);
    } catch (err) {
      status.hidden = false;
      status.classList.add("error");
      status.textContent = `Couldn’t finish: ${errorText(err)}`;
    } finally {
      running = null;
      render();
    }
    if (queued.length > 0) {
      const paths = queued;
      queued = [];
      void start("add", () => deps.addPaths(paths));
    }
  }

  function showSummary(report: IntakeReport): void {
    summaryTitle.textContent = headline(report);
    const base = report.linkedBase;
    const chooseBase = base
      ? h(
          "button",
          {
            type: "button",
            "data-testid": "choose-base",
            onClick: () => {
              summary.close();
              void start("zotero", () => deps.importZoteroWithBase(base.dataDir));
            },
          },
          "Choose base directory…",
        )
      : null;
    summaryBody.replaceChildren(
      ...(base && chooseBase ? [h("div", { class: "intake-base", "data-testid": "linked-base" }, h("p", {}, linkedBaseText(base)), chooseBase)] : []),
      ...sections(report).map((s) =>
        h(
          "details",
          { open: s.id !== "unchanged", "data-section": s.id },
          h("summary", {}, s.title),
          h("ul", {}, ...s.rows.map((r) => h("li", {}, r.label, h("span", { class: "detail" }, r.detail)))),
        ),
      ),
    );
    if (!summary.open) summary.showModal();
    (chooseBase ?? summaryClose).focus();
  }

  async function preview(): Promise<void> {
    if (!folder) return;
    previewButton.disabled = true;
    folderError.hidden = true;
    folderPlan.replaceChildren(h("p", { role: "status" }, "Reading the PDFs’ titles…"));
    try {
      moves = await deps.planArrangement(folder.path);
      folderPlan.replaceChildren(
        h("p", {}, moves.length === 1 ? "This move would be made:" : `These ${moves.length} moves would be made:`),
        h("ol", { "data-testid": "folder-moves" }, ...moves.map((m) => h("li", {}, moveLine(m)))),
      );
      moveButton.hidden = copyButton.hidden = moves.length === 0;
      previewButton.hidden = true;
      moveButton.focus();
    } catch (err) {
      showFolderError(err);
    } finally {
      previewButton.disabled = false;
    }
  }

  async function apply(copy: boolean): Promise<void> {
    if (!folder) return;
    const path = folder.path;
    moveButton.disabled = copyButton.disabled = true;
    try {
      await consent.ask(); // the first import asks whether to look papers up online
      const report = await deps.applyArrangement(path, moves, copy);
      folderDialog.close();
      deps.opened();
      if (report) showSummary(report);
    } catch (err) {
      showFolderError(err);
    } finally {
      moveButton.disabled = copyButton.disabled = false;
    }
  }

  async function asIs(): Promise<void> {
    if (!folder) return;
    try {
      await deps.openFolder(folder.path);
      folderDialog.close();
      deps.opened();
    } catch (err) {
      showFolderError(err);
    }
  }

  function showFolderError(err: unknown): void {
    folderError.textContent = errorText(err);
    folderError.hidden = false;
  }

  render();
  return {
    setVault(open) {
      vaultOpen = open;
      render();
    },
    progress(p) {
      if (!running) return;
      status.hidden = false;
      status.classList.remove("wrap");
      status.textContent = progressLine(running, p);
    },
    addPaths(paths) {
      if (paths.length === 0) return;
      if (!vaultOpen) {
        status.hidden = false;
        status.classList.add("error");
        status.textContent = "Open a vault first, then drop your PDFs on it.";
        return;
      }
      if (running) {
        queued.push(...paths);
        status.hidden = false;
        status.classList.add("wrap"); // a sentence to read whole, not a progress line
        status.textContent = `${progressLine(running, null)} The ${queued.length === 1 ? "PDF" : `${queued.length} items`} you dropped will be added next.`;
        return;
      }
      void start("add", () => deps.addPaths(paths));
    },
    showFolder(f) {
      folder = f;
      moves = [];
      folderPath.textContent = f.path;
      folderFound.textContent = foundText(f.found);
      folderPlan.replaceChildren();
      folderError.hidden = true;
      const pdfs = f.found.topPdfs.length + f.found.nestedPdfs.length;
      previewButton.hidden = pdfs === 0;
      moveButton.hidden = copyButton.hidden = true;
      asIsButton.textContent = pdfs === 0 ? "Make it a vault" : "Use it as it is";
      if (!folderDialog.open) folderDialog.showModal();
      (pdfs === 0 ? asIsButton : previewButton).focus();
    },
  };
}
