import * as App from "../../../wailsjs/go/main/App";
import type { intake, workspace } from "../../../wailsjs/go/models";
import { OnFileDrop } from "../../../wailsjs/runtime/runtime";
import { type Data, type Wire, asGo } from "../wire";

// --- papers in: add, import, arrange a folder ------------------------------------

/** IntakeItem is one file or entry of an add or import: its ref in the vault, or why it was skipped. */
export type IntakeItem = Required<Data<intake.Item>>;
/** IntakeReport is what an add or import did, every entry in one list. */
export type IntakeReport = { [K in keyof Omit<Data<intake.Report>, "convertValues" | "linkedBase">]: IntakeItem[] } & {
  /** linkedBase: a Zotero import left out PDFs linked relative to a base directory it could not find; null otherwise. */
  linkedBase: LinkedBase | null;
};
/** IntakeList names the report's lists of entries. */
export type IntakeList = Exclude<keyof IntakeReport, "linkedBase">;
/** LinkedBase is the Zotero data folder imported, the base directory used ("" = none found) and how many linked PDFs were not found. */
export type LinkedBase = Data<intake.LinkedBase>;
/** FolderFound is what a folder that is not a vault yet holds. */
export type FolderFound = Required<Data<intake.Found>>;
/** Folder is a folder chosen as a vault; found.vault is false when it is not one yet (it was not opened). */
export type Folder = Omit<Data<workspace.Folder>, "found"> & { found: FolderFound };
/** Move is one step of an arrangement preview: a loose PDF and the paper folder it goes to. */
export type Move = Data<intake.Move>;

function intakeReport(r: Wire<intake.Report> | null): IntakeReport | null {
  if (!r) return null;
  const items = (list: Wire<intake.Item>[] | null | undefined): IntakeItem[] =>
    (list ?? []).map((i) => ({
      file: i.file ?? "",
      key: i.key ?? "",
      title: i.title ?? "",
      ref: i.ref ?? "",
      why: i.why ?? "",
      changed: i.changed ?? [],
      note: i.note ?? "",
    }));
  return {
    added: items(r.added),
    updated: items(r.updated),
    unchanged: items(r.unchanged),
    skipped: items(r.skipped),
    withoutPdf: items(r.withoutPdf),
    errors: items(r.errors),
    gone: items(r.gone),
    linkedBase: r.linkedBase ? { dataDir: r.linkedBase.dataDir, baseDir: r.linkedBase.baseDir ?? "", missing: r.linkedBase.missing } : null,
  };
}

function folder(f: Wire<workspace.Folder> | null): Folder | null {
  if (!f) return null;
  const found: Partial<Wire<intake.Found>> = f.found ?? {};
  return {
    path: f.path,
    found: { vault: Boolean(found.vault), papers: found.papers ?? 0, topPdfs: found.topPdfs ?? [], nestedPdfs: found.nestedPdfs ?? [] },
  };
}

/** addPapers is "Add papers…": a file dialog, then the PDFs are added; null when cancelled. */
export async function addPapers(): Promise<IntakeReport | null> {
  return intakeReport(await App.AddPapers());
}

/** addPaths adds dropped PDFs (or folders of them) to the open vault. */
export async function addPaths(paths: string[]): Promise<IntakeReport | null> {
  return intakeReport(await App.AddPaths(paths));
}

/** importZotero asks for Zotero's data folder and imports it (read only); null when cancelled. */
export async function importZotero(): Promise<IntakeReport | null> {
  return intakeReport(await App.ImportZotero());
}

/** importZoteroWithBase asks for Zotero's Linked Attachment Base Directory and imports dataDir again with it; null when cancelled. */
export async function importZoteroWithBase(dataDir: string): Promise<IntakeReport | null> {
  return intakeReport(await App.ImportZoteroWithBase(dataDir));
}

/** importBibliography asks for a .bib or CSL-JSON file and imports it; null when cancelled. */
export async function importBibliography(): Promise<IntakeReport | null> {
  return intakeReport(await App.ImportBibliography());
}

/** chooseFolder is "Open vault…": a vault opens; a folder that is not one yet comes back unopened, with what it holds; null when cancelled. */
export async function chooseFolder(): Promise<Folder | null> {
  return folder(await App.ChooseFolder());
}

/** pendingFolder is the folder asked for at start that is not a vault yet, or null. */
export async function pendingFolder(): Promise<Folder | null> {
  return folder(await App.PendingFolder());
}

/** openFolder opens a folder as a vault as it is, once the user said so. */
export async function openFolder(path: string): Promise<void> {
  await App.OpenFolder(path);
}

/** planArrangement previews how a folder's loose PDFs would go into papers/<slug>/; nothing is written. */
export async function planArrangement(path: string): Promise<Move[]> {
  const moves: Wire<intake.Move>[] = (await App.PlanArrangement(path)) ?? [];
  return moves.map((m) => ({ ...m, authors: m.authors ?? [] }));
}

/** applyArrangement performs exactly the previewed moves (copies when copy) and opens the folder as a vault. */
export async function applyArrangement(path: string, moves: Move[], copy: boolean): Promise<IntakeReport | null> {
  return intakeReport(await App.ApplyArrangement(path, asGo<intake.Move[]>(moves), copy));
}

/**
 * onFileDrop calls back with the paths of files dropped on the window
 * (Wails' native drop, anywhere on it). The page takes every drag itself:
 * WebKitGTK loads a file dropped on a page that did not, and the PDF would
 * replace the app (Wails' own listeners take only drags typed "Files",
 * which WebKitGTK's file drags are not). The one drag it leaves to the
 * page is text (a quote selected in the PDF) dragged into a text field.
 */
export function onFileDrop(callback: (paths: string[]) => void): void {
  for (const type of ["dragover", "drop"]) {
    window.addEventListener(type, (e) => {
      if (!textIntoField(e as DragEvent)) e.preventDefault();
    });
  }
  OnFileDrop((_x, _y, paths) => callback(paths ?? []), false);
}

/** textIntoField says whether a drag carries text only, no files or links, over a field that takes text. */
export function textIntoField(e: DragEvent): boolean {
  const types = Array.from(e.dataTransfer?.types ?? []);
  if (types.length === 0 || types.some((t) => t === "Files" || t === "text/uri-list")) return false;
  const el = e.target;
  return el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && el.type === "text") || (el instanceof HTMLElement && el.isContentEditable);
}
