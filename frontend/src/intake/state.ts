// What the "papers in" UI says: the progress line of an add or import, the
// summary at its end, and what a folder that is not a vault yet holds.
// Pure functions of the backend's data, so they are tested without a window.

import type { FolderFound, IntakeItem, IntakeList, IntakeReport, LinkedBase, Move } from "../lib/backend";

export type IntakeKind = "add" | "zotero" | "bibliography" | "arrange";

const verbs: Record<IntakeKind, string> = {
  add: "Adding papers",
  zotero: "Importing from Zotero",
  bibliography: "Importing the bibliography",
  arrange: "Arranging the folder",
};

/** progressLine is the status line while an add or import runs. */
export function progressLine(kind: IntakeKind, p: { done: number; total: number; current: string } | null): string {
  if (!p || p.total === 0) return `${verbs[kind]}…`;
  if (p.done >= p.total) return `${verbs[kind]}: indexing what changed…`;
  const name = p.current.split("/").pop() ?? p.current;
  return `${verbs[kind]} ${p.done + 1} of ${p.total} — ${name}`;
}

function count(n: number, one: string, many = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** headline sums a report up in one sentence. */
export function headline(r: IntakeReport): string {
  const parts = [
    `${count(r.added.length, "paper")} added`,
    r.updated.length ? `${r.updated.length} updated` : "",
    r.unchanged.length ? `${r.unchanged.length} unchanged` : "",
    r.skipped.length ? `${r.skipped.length} skipped` : "",
    r.withoutPdf.length ? `${r.withoutPdf.length} without a PDF` : "",
    r.errors.length ? `${count(r.errors.length, "error")}` : "",
    r.gone.length ? `${r.gone.length} no longer in the source (kept in the vault)` : "",
  ].filter(Boolean);
  return parts.join(", ") + ".";
}

export interface SummarySection {
  id: IntakeList;
  title: string;
  rows: { label: string; detail: string }[];
}

const sectionTitles: [IntakeList, string][] = [
  ["added", "Added"],
  ["updated", "Updated"],
  ["skipped", "Skipped"],
  ["withoutPdf", "Without a PDF"],
  ["errors", "Could not be added"],
  ["gone", "No longer in the source, kept in the vault"],
  ["unchanged", "Unchanged"],
];

/** itemLabel names an entry: its title, else its key, else its file's name. */
export function itemLabel(i: IntakeItem): string {
  if (i.title) return i.key ? `${i.title} (${i.key})` : i.title;
  if (i.key) return i.key;
  return i.file.split("/").pop() || i.file || i.ref;
}

/** sections lists the report's non-empty lists, in the order a user reads them. */
export function sections(r: IntakeReport): SummarySection[] {
  return sectionTitles
    .filter(([id]) => r[id].length > 0)
    .map(([id, title]) => ({
      id,
      title: `${title} (${r[id].length})`,
      rows: r[id].map((i) => ({
        label: itemLabel(i),
        detail: [i.why || (i.changed.length ? `${i.ref}: ${i.changed.join(", ")} changed` : i.ref), i.note].filter(Boolean).join(" — "),
      })),
    }));
}

/** foundText says what a folder that is not a vault yet holds. */
export function foundText(f: FolderFound): string {
  const n = f.topPdfs.length + f.nestedPdfs.length;
  if (n === 0) return "This folder has no PDFs and no papers/ folder: it is not a vault yet.";
  const where =
    f.nestedPdfs.length === 0
      ? ""
      : f.topPdfs.length === 0
        ? ", all in subfolders"
        : ` (${f.topPdfs.length} at the top, ${f.nestedPdfs.length} in subfolders)`;
  return `This folder holds ${count(n, "PDF")}${where} but no papers/ folder: it is not a vault yet.`;
}

/** moveLine is one line of the arrangement preview. */
export function moveLine(m: Move): string {
  return `${m.from} → ${m.to}`;
}

/**
 * linkedBaseText explains why a Zotero import left linked PDFs out for want
 * of Zotero's Linked Attachment Base Directory, and what choosing it does.
 */
export function linkedBaseText(b: LinkedBase): string {
  const pdfs = b.missing === 1 ? "1 PDF is" : `${b.missing} PDFs are`;
  const where = b.baseDir
    ? `${pdfs} linked relative to Zotero’s Linked Attachment Base Directory, and Agentero looked for ${b.missing === 1 ? "it" : "them"} in ${b.baseDir}, where ${b.missing === 1 ? "it is" : "they are"} not.`
    : `${pdfs} linked relative to Zotero’s Linked Attachment Base Directory, and Agentero could not find which folder that is.`;
  return `${where} Choose the folder Zotero names under Settings → Advanced → Files and Folders to import ${b.missing === 1 ? "it" : "them"}; the papers already imported stay as they are.`;
}
