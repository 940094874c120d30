import * as App from "../../../wailsjs/go/main/App";
import type { index, library as libraryModels } from "../../../wailsjs/go/models";
import { type Data, type Wire } from "../wire";

// --- vault, library, search -------------------------------------------------------

export type VaultState = Data<libraryModels.State>;
export type PaperSummary = Data<index.Paper>;
/** SearchHit is a page that matched; its snippet wraps matched terms in "\u0002" … "\u0003". */
export type SearchHit = Data<index.Hit>;

export async function vault(): Promise<VaultState> {
  return App.Vault();
}

export async function library(): Promise<PaperSummary[]> {
  const papers: Wire<index.Paper>[] = (await App.Library()) ?? [];
  return papers.map((p) => ({ ...p, authors: p.authors ?? [], tags: p.tags ?? [] }));
}
