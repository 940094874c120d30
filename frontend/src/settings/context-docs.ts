// Settings → Context documents: the pure parts (the new-document template,
// the file-name check, labels). The backend checks again on save; these
// only catch mistakes before it is asked, with a clearer message.

import type { ContextDoc } from "../lib/backend";

/** The triggers and priorities a document's front matter may name (backend/context/docs). */
export type ContextTrigger = "always_on" | "model_decision" | "manual";
export type ContextPriority = "critical" | "high" | "normal" | "low";

/** The front matter a new document starts with (SPEC §8.2). */
export const contextDocTemplate = "---\ndescription: \ntrigger: manual\npriority: normal\n---\n";

/** The backend's limit on an id's length (backend/context/docs maxID). */
const maxIdLength = 1024;

/** normalizeDocId trims a typed file name and adds ".md" when it has no Markdown extension. */
export function normalizeDocId(raw: string): string {
  const id = raw.trim();
  if (id === "" || /\.(md|markdown)$/i.test(id)) return id;
  return `${id}.md`;
}

/**
 * docIdProblem says what is wrong with a new document's id (already
 * normalized), or "". It follows the backend's rule: a relative slash path
 * inside the context folder, no empty, hidden or .. parts, ending in .md.
 */
export function docIdProblem(id: string, existing: readonly string[]): string {
  if (id === "") return "Give the document a file name, for example citing.md.";
  if (id.length > maxIdLength) return `A file name may be at most ${maxIdLength} characters.`;
  if (id.includes("\\") || id.includes("\0")) return "Use / to separate folders in a file name.";
  if (id.startsWith("/")) return "The file name is relative to the context folder: leave out the leading /.";
  for (const seg of id.split("/")) {
    if (seg === "") return "A file name has no empty folder parts (//, or a / at the end).";
    if (seg === "." || seg === "..") return "A file name stays inside the context folder: no . or .. parts.";
    if (seg.startsWith(".")) return `“${seg}” is hidden: no part of a file name may start with a dot.`;
  }
  if (!/\.(md|markdown)$/i.test(id)) return "A context document is a Markdown file: end its name in .md.";
  if (existing.includes(id)) return `There is already a document named ${id}: select it in the list to edit it.`;
  return "";
}

export const triggerLabels: Record<ContextTrigger, string> = {
  always_on: "always on",
  model_decision: "agent decides",
  manual: "manual",
};

export function triggerLabel(t: string): string {
  return triggerLabels[t as ContextTrigger] ?? t;
}

const priorityOrder: ContextPriority[] = ["critical", "high", "normal", "low"];

/** sortDocs orders documents by trigger (always on first), then priority, then id. */
export function sortDocs(docs: readonly ContextDoc[]): ContextDoc[] {
  const trig = (t: string) => {
    const i = (Object.keys(triggerLabels) as string[]).indexOf(t);
    return i < 0 ? 99 : i;
  };
  const prio = (p: string) => {
    const i = (priorityOrder as string[]).indexOf(p);
    return i < 0 ? 99 : i;
  };
  return [...docs].sort((a, b) => trig(a.trigger) - trig(b.trigger) || prio(a.priority) - prio(b.priority) || a.id.localeCompare(b.id));
}

/** sizeText says how long a document's body is. */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  return `${(bytes / 1000).toFixed(bytes < 10_000 ? 1 : 0)} KB`;
}
