import * as App from "../../../wailsjs/go/main/App";
import type { docs, workspace } from "../../../wailsjs/go/models";
import { type Data, type Wire } from "../wire";

// --- context documents -----------------------------------------------------------

/**
 * ContextDoc is a Markdown file under the vault's .agentero/context/ (SPEC
 * §8.2): id is its slash path in that folder, bytes its body's size, preload
 * and forbidden whether the root rules' preloadPaths or forbiddenLoad name it.
 */
export type ContextDoc = Required<Data<docs.Doc>>;
/** ContextDocProblem is a file in the context folder that could not be used (path is vault-relative), with why. */
export type ContextDocProblem = Data<docs.Problem>;
export type ContextDocList = { docs: ContextDoc[]; problems: ContextDocProblem[] };

/** contextDocs lists the open vault's context documents and the files that could not be used. */
export async function contextDocs(): Promise<ContextDocList> {
  const l: Wire<workspace.ContextDocs> | null = await App.ListContextDocs();
  return {
    docs: (l?.docs ?? []).map((d) => ({ ...d, preload: Boolean(d.preload), forbidden: Boolean(d.forbidden), noFrontMatter: Boolean(d.noFrontMatter) })),
    problems: l?.problems ?? [],
  };
}

/** contextDocSource is a document's whole file, front matter included. */
export async function contextDocSource(id: string): Promise<string> {
  return (await App.ContextDocSource(id)) ?? "";
}

/** saveContextDoc stores a document; it rejects a bad id or front matter (nothing is written then). */
export async function saveContextDoc(id: string, content: string): Promise<void> {
  await App.SaveContextDoc(id, content);
}

export async function deleteContextDoc(id: string): Promise<void> {
  await App.DeleteContextDoc(id);
}
