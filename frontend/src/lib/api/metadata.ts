import * as App from "../../../wailsjs/go/main/App";
import type { index, metadata as metadataModels, workspace } from "../../../wailsjs/go/models";
import { type Data, type Wire, asGo } from "../wire";
import { type PaperSummary, type SearchHit } from "./library";

// --- metadata (backend/metadata) ----------------------------------------------

export type MetadataDetails = Data<metadataModels.Details>;
export type MetadataValues = Data<metadataModels.Values>;

/** paperMetadata reads a paper's metadata.json for the editor. */
export async function paperMetadata(ref: string): Promise<MetadataDetails> {
  const d: Wire<metadataModels.Details> = await App.PaperMetadata(ref);
  const v = d.values;
  return {
    ...d,
    edited: d.edited ?? [],
    source: d.source ?? {},
    values: { ...v, authors: v.authors ?? [], tags: v.tags ?? [] },
  };
}

export type OnlineReport = Data<workspace.OnlineReport>;

function normalReport(r: Wire<workspace.OnlineReport>): OnlineReport {
  return { ...r, reports: (r.reports ?? []).map((x) => ({ ...x, wrote: x.wrote ?? [] })) };
}

/** lookupMetadata looks the vault's papers up online now (Settings must allow it). */
export async function lookupMetadata(again: boolean): Promise<OnlineReport> {
  return normalReport(await App.LookupMetadata(again));
}

/** metadataLookup is the last (or running) online lookup. */
export async function metadataLookup(): Promise<OnlineReport> {
  return normalReport(await App.MetadataLookup());
}

/** saveMetadata writes the changed fields (metadata.json keys) as the user's; it resolves to the reindexed paper. */
export async function saveMetadata(ref: string, values: MetadataValues, fields: string[]): Promise<PaperSummary> {
  const p: Wire<index.Paper> = await App.SaveMetadata(ref, asGo<metadataModels.Values>(values), fields);
  return { ...p, authors: p.authors ?? [], tags: p.tags ?? [] };
}

export async function search(query: string, limit: number): Promise<SearchHit[]> {
  return (await App.Search(query, limit)) ?? [];
}

/** sections lists the sections of the paper whose PDF is path (vault-relative): its outline, or the headings found on its pages. */
export async function sections(path: string): Promise<Data<index.Section>[]> {
  return (await App.Sections(path)) ?? [];
}

/** figures lists the figures and tables of the paper whose PDF is path, found by their captions. */
export async function figures(path: string): Promise<Data<index.Figure>[]> {
  return (await App.Figures(path)) ?? [];
}

/**
 * QuoteLocation is where the backend's locator found a citation's quote
 * (App.Locate): rectangles in PDF points from the top-left corner of the
 * page as shown, on page (the cited one, or foundPage when the quote is on
 * another page), with the part that runs onto the next page in next.
 */
export type QuoteLocation = Omit<Data<workspace.Location>, "next"> & { next: Data<workspace.PageRects> | null };

/** locate asks the backend where a citation URI's quote is; the viewer draws what it says and matches nothing itself. */
export async function locate(uri: string): Promise<QuoteLocation> {
  const l: Wire<workspace.Location> = await App.Locate(uri);
  const next = l.next ? { page: l.next.page, rects: rectsOf(l.next.rects) } : null;
  return { ...l, rects: rectsOf(l.rects), next, text: l.text ?? "", why: l.why ?? "" };
}

// rectsOf keeps the well-formed rectangles ([x0, y0, x1, y1]) of a list Go may send as null.
function rectsOf(rects: (number[] | null)[] | null): number[][] {
  return (rects ?? []).filter((r): r is number[] => Array.isArray(r) && r.length === 4 && r.every(Number.isFinite));
}

export async function reindex(): Promise<void> {
  await App.Reindex();
}

/** chooseVault opens a folder dialog; it resolves to the new path, or "" when cancelled. */
export async function chooseVault(): Promise<string> {
  return (await App.ChooseVault()) ?? "";
}
