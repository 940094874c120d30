// The only module that calls the Go backend. Its types come from the
// generated Wails bindings (wailsjs/go/models.ts, `make bindings`); this
// module never redeclares one, it only derives the shapes the UI reads from
// them: plain data (Data), with Go's nil slices replaced by empty ones where
// a call's answer is normalised below.

import * as App from "../../wailsjs/go/main/App";
import type { acp, citation, compact, docs, events, grant, index, intake, library as libraryModels, main, metadata as metadataModels, plan, refs, settings as settingsModels, workspace } from "../../wailsjs/go/models";
import { ClipboardSetText, EventsOn, OnFileDrop } from "../../wailsjs/runtime/runtime";
import { errorCode, VaultOpened, type ErrorCode, type EventName, type EventPayloads } from "./events";
import { readable } from "./sentence";
import type { Data, Wire } from "./wire";

export type { Data, Wire } from "./wire";

// asGo hands plain data to a bound method, whose generated signature names the class.
function asGo<T>(value: Data<T>): T {
  return value as T;
}

// --- errors ---------------------------------------------------------------------

/** Failure is what a failed call or turn is: a code the UI switches on and the message shown with it. */
export type Failure = Data<events.Error> & { code: ErrorCode };

/**
 * failure turns whatever a rejected call gives into a Failure: the backend's
 * events.Error ({code, message}), or an Error or string (an older backend,
 * the Wails runtime, or the UI's own checks), which carry no code.
 */
export function failure(err: unknown): Failure {
  if (typeof err === "object" && err !== null && "code" in err && "message" in err && typeof err.message === "string") {
    return { code: errorCode(err.code), message: readable(err.message) };
  }
  if (err instanceof Error) return { code: "internal", message: readable(err.message) };
  if (typeof err === "object" && err !== null) return { code: "internal", message: readable(JSON.stringify(err)) };
  return { code: "internal", message: err == null ? "The call failed." : readable(String(err)) };
}

/** errorText is the message of a rejected call, for a line of text. */
export function errorText(err: unknown): string {
  return failure(err).message;
}

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

// --- vaults, agentero:// links, exports (issue 15) ------------------------------

export type RecentVault = Data<workspace.RecentVault>;
export type LinkResult = Data<main.LinkResult>;
export type ExportRequest = Data<main.ExportRequest>;

/** recentVaults lists the vaults opened before, newest first, the open one marked. */
export async function recentVaults(): Promise<RecentVault[]> {
  return (await App.RecentVaults()) ?? [];
}
/** openVault switches to the vault at path. */
export const openVault = (path: string): Promise<void> => App.OpenVault(path);
/** forgetVault removes a vault from the recent ones. */
export const forgetVault = (path: string): Promise<void> => App.ForgetVault(path);
/** newVault asks for an empty folder and makes it a vault; "" when cancelled. */
export async function newVault(): Promise<string> {
  return (await App.NewVault()) ?? "";
}
/** exampleVault is where "Open the example vault" copies the example to; "" when none ships with the app. */
export async function exampleVault(): Promise<string> {
  return (await App.ExampleVault()) ?? "";
}
/** openExampleVault copies the example vault into the home folder (once) and opens it; it resolves to its path. */
export const openExampleVault = (): Promise<string> => App.OpenExampleVault();
/** takeLink is the agentero:// link the app was launched with, followed; null when none. */
export async function takeLink(): Promise<LinkResult | null> {
  return (await App.TakeLink()) ?? null;
}
/** followLink follows an agentero:// link as a later launch would hand it over. */
export const followLink = (link: string): Promise<LinkResult> => App.FollowLink(link);
/** openLinkVault follows a link whose vault is none of the user's vaults, once the user agreed to open it. */
export const openLinkVault = (link: string): Promise<LinkResult> => App.OpenLinkVault(link);
/** onLinkFollowed hears the links later launches hand to this window (app_links.go's LinkFollowed). */
export function onLinkFollowed(callback: (r: LinkResult) => void): () => void {
  return EventsOn("link:followed", (r: LinkResult | null) => r && callback(r));
}
/** onVaultOpened hears a vault a later launch (--vault DIR) opened, or why it could not. */
export function onVaultOpened(callback: (e: EventPayloads[typeof VaultOpened]) => void): () => void {
  return EventsOn(VaultOpened, (e: EventPayloads[typeof VaultOpened] | null) => e && callback(e));
}
/** exportText is an answer or conversation as Markdown, or its cited papers as BibTeX or CSL-JSON. */
export const exportText = (req: ExportRequest): Promise<string> => App.ExportText(asGo<main.ExportRequest>(req));
/** saveExport asks where to save the export and writes it; "" when cancelled. */
export async function saveExport(req: ExportRequest): Promise<string> {
  return (await App.SaveExport(asGo<main.ExportRequest>(req))) ?? "";
}

/** on subscribes to a backend event and returns the unsubscribe function. */
export function on<K extends EventName>(name: K, callback: (payload: EventPayloads[K]) => void): () => void {
  return EventsOn(name, (payload: EventPayloads[K] | null) => callback(payload ?? ({} as EventPayloads[K])));
}

/**
 * openExternal opens an https link in the system browser. It rejects (code
 * "invalid", with the reason) a link the backend will not open, and when the
 * browser cannot be started: callers show the message.
 */
export async function openExternal(url: string): Promise<void> {
  await App.OpenExternal(url);
}

// --- chat ---------------------------------------------------------------------

/** MentionKind is what an @-mention names (Go's plan.Mention kinds). */
export type MentionKind = "paper" | "directory" | "file" | "vault";

/** Selection is a passage the user selected: in a paper's PDF (with its 1-based page) or in a file; rects are [x, y, width, height] in PDF points. */
export type Selection = Data<plan.Selection>;
export type Mention = Data<plan.Mention> & { kind: MentionKind };
/** ContextRequest is what the user points at in one turn (SPEC §3). */
export type ContextRequest = Omit<Data<plan.Request>, "surface" | "mentions"> & { surface: "sidebar" | "quickChat"; mentions: Mention[] };
export type EvidenceCard = Data<plan.Card>;
/** ContextPlan is what a turn may read (SPEC §3); refused is always a list here. */
export type ContextPlan = Required<Data<plan.Plan>>;
export type Completion = Required<Data<index.Completion>> & { kind: MentionKind };

/** CitationCheck is the claim check of one citation an answer writes (SPEC §6), in the order the answer writes them. */
export type CitationCheck = Data<citation.Check>;

/** StoredMessage is a stored message with every list and optional field filled in. */
export type StoredMessage = Required<Data<acp.Message>>;
/** Conversation is a stored conversation as the thread reads it: everything Go stored, lists never null. */
export type Conversation = Omit<Data<acp.Conversation>, "messages"> & { messages: StoredMessage[] };

export type AgentConfig = Data<acp.Agent>;
export type AgentList = Data<acp.Agents>;
export type AgentCapabilities = Data<acp.Capabilities>;
/** AgentReport is what Test connection found: agentInfo, capabilities and login methods. */
export type AgentReport = Data<acp.Report>;
/** AgentPreset is a known agent Settings offers, with whether its command is on PATH. */
export type AgentPreset = Data<acp.Preset>;

/** ask starts a turn; it resolves at once and the answer streams as agent:* events. */
export async function ask(conversationId: string, agent: string, request: ContextRequest, question: string): Promise<void> {
  await App.Ask(asGo<workspace.AskRequest>({ conversationId, agent, request, question }));
}

export async function cancelTurn(conversationId: string): Promise<void> {
  await App.CancelTurn(conversationId);
}

/**
 * answerPermission answers a permission request of a running turn with one of
 * the agent's options; the decision comes back as an agent:permission event.
 */
export async function answerPermission(conversationId: string, requestId: string, optionId: string): Promise<void> {
  await App.AnswerPermission(conversationId, requestId, optionId);
}

/** conversation reads a stored conversation (an empty one when it is new), keeping every field Go stored. */
export async function conversation(id: string): Promise<Conversation> {
  const c: Wire<acp.Conversation> = await App.Conversation(id);
  const messages = (c.messages ?? []).map(
    (m): StoredMessage => ({
      ...m,
      sources: m.sources ?? [],
      consulted: m.consulted ?? [],
      checks: m.checks ?? [],
      error: m.error ?? "",
      errorCode: m.errorCode ?? "",
      agent: m.agent ?? "",
      stopReason: m.stopReason ?? "",
      sandbox: m.sandbox ?? "",
      sandboxWhy: m.sandboxWhy ?? "",
      plan: m.plan ?? [],
      tools: (m.tools ?? []).map((t) => ({ ...t, content: t.content ?? [], locations: t.locations ?? [] })),
      permissions: (m.permissions ?? []).map((p) => ({ ...p, locations: p.locations ?? [], options: p.options ?? [] })),
    }),
  );
  return { ...c, title: c.title ?? "", paper: c.paper ?? "", messages };
}

/** previewPlan shows what a turn with this request could read, before it is sent. */
export async function previewPlan(request: ContextRequest): Promise<ContextPlan> {
  const p: Wire<plan.Plan> = await App.PreviewPlan(asGo<plan.Request>(request));
  return {
    ...p,
    tools: p.tools ?? [],
    allowed: p.allowed ?? [],
    evidence: p.evidence ?? [],
    refused: p.refused ?? [],
  };
}

/** complete lists @-mention candidates: papers, directories and files. */
export async function complete(query: string, limit: number): Promise<Completion[]> {
  const list: Data<index.Completion>[] = (await App.Complete(query, limit)) ?? [];
  return list.flatMap((c) => (isMentionKind(c.kind) ? [{ ...c, kind: c.kind, title: c.title ?? "" }] : []));
}

function isMentionKind(kind: string): kind is MentionKind {
  return kind === "paper" || kind === "directory" || kind === "file";
}

/** sourceExists reports whether a citation URI still opens. */
export async function sourceExists(uri: string): Promise<boolean> {
  return App.SourceExists(uri);
}

export async function agents(): Promise<AgentList> {
  const a: Wire<acp.Agents> = await App.Agents();
  return { ...a, agents: (a.agents ?? []).map((ag) => ({ ...ag, args: ag.args ?? [], env: ag.env ?? {}, paths: ag.paths ?? [] })) };
}

/**
 * saveAgent saves an agent (its command as an absolute path). Unless force, it
 * is checked first (cancelTestAgent(checkId) stops the check); one that fails
 * rejects with code "unverified", and force saves it anyway.
 */
export async function saveAgent(agent: AgentConfig, makeDefault: boolean, force = false, checkId = "settings"): Promise<void> {
  await App.SaveAgent(asGo<workspace.SaveAgentRequest>({ agent, makeDefault, force, checkId }));
}

export async function setDefaultAgent(name: string): Promise<void> {
  await App.SetDefaultAgent(name);
}

export async function deleteAgent(name: string): Promise<void> {
  await App.DeleteAgent(name);
}

/** testAgent is Test connection: start, initialize, session/new, stop; testId names the run for cancelTestAgent. */
export async function testAgent(agent: AgentConfig, testId = "settings"): Promise<AgentReport> {
  const r: Wire<acp.Report> = await App.TestAgent(testId, asGo<acp.Agent>(agent));
  return { ...r, authMethods: (r.authMethods ?? []).map((m) => ({ ...m, vars: m.vars ?? [] })) };
}

/** cancelTestAgent stops the test (or Save's check) running under testId. */
export async function cancelTestAgent(testId = "settings"): Promise<void> {
  await App.CancelTestAgent(testId);
}

/** agentPresets lists the agents Settings offers. */
export async function agentPresets(): Promise<AgentPreset[]> {
  const list: Wire<acp.Preset>[] = (await App.AgentPresets()) ?? [];
  return list.map((p) => ({ ...p, args: p.args ?? [] }));
}

// --- settings -------------------------------------------------------------------

/**
 * ReadingBudget caps what the agentero-context tools return in a turn (SPEC
 * §3, the plan's budget): cards per context_search call, of those at most
 * cardsPerPaper from one paper or file, excerptChars for a snippet or an
 * excerpt, fullChars for one page, section, file or full read, dirEntries
 * names in one listing, turnChars for everything in one turn.
 */
export type ReadingBudget = Data<grant.Budget>;
export type AppSettings = Data<settingsModels.Settings>;

/** settings reads the user's settings (the tools' reading budget). */
export async function settings(): Promise<AppSettings> {
  return App.Settings();
}

/** defaultSettings is what a fresh install uses. */
export async function defaultSettings(): Promise<AppSettings> {
  return App.DefaultSettings();
}

/** saveSettings stores the settings; it rejects a budget value that is not positive or over its limit. */
export async function saveSettings(s: AppSettings): Promise<void> {
  await App.SaveSettings(asGo<settingsModels.Settings>(s));
}

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

// --- relations and what the agent sees ----------------------------------------

/**
 * RelationCard is one related work. paperPath is the library paper's ref when
 * the work is in the library; citationUri is its PDF's vault path, or
 * https://doi.org/… / https://arxiv.org/abs/… for a work outside it, or "";
 * matchBy is doi, arxiv, title, sharedReferences or text ("" when not matched).
 */
export type RelationCard = Data<refs.Card>;
/** Relations are a paper's three lists of relations (SPEC §5). */
export type Relations = Data<workspace.Relations>;
export type RelationKind = keyof Relations;

/** CompactionResult is how a conversation's history is reduced before it is handed to a new session (SPEC §8.3). */
export type CompactionResult = Required<Data<compact.Result>>;
/** AgentView is what an agent is given for a conversation: the frozen base context and the history. */
export type AgentView = Omit<Data<workspace.AgentView>, "history"> & { history: CompactionResult };

/** paperRelations lists a paper's references, the library papers citing it and related papers (up to limit of each). */
export async function paperRelations(ref: string, limit: number): Promise<Relations> {
  const r: Wire<workspace.Relations> | null = await App.PaperRelations(ref, limit);
  return { references: r?.references ?? [], citedBy: r?.citedBy ?? [], related: r?.related ?? [] };
}

function compaction(h: Partial<Wire<compact.Result>>): CompactionResult {
  return {
    tiers: h.tiers ?? [],
    whole: h.whole ?? [],
    pruned: h.pruned ?? [],
    summarized: h.summarized ?? [],
    snipped: h.snipped ?? 0,
    tailGuard: h.tailGuard ?? 0,
    tokensBefore: h.tokensBefore ?? 0,
    tokensAfter: h.tokensAfter ?? 0,
    window: h.window ?? 0,
    reserve: h.reserve ?? 0,
    limit: h.limit ?? 0,
    notes: h.notes ?? [],
    summary: h.summary ?? "",
    summarizedN: h.summarizedN ?? 0,
    text: h.text ?? "",
  };
}

/** SentPrompt is what a conversation's last turn actually sent to its agent, part by part. */
export type SentPrompt = Data<acp.SentPrompt>;

/** whatAgentSees shows what the agent of a conversation is given; the transcript itself is never changed. */
export async function whatAgentSees(conversationId: string): Promise<AgentView> {
  const v: Wire<workspace.AgentView> | null = await App.WhatAgentSees(conversationId);
  const last = v?.lastPrompt ?? null;
  return {
    snapshot: v?.snapshot ?? "",
    issues: v?.issues ?? [],
    transcript: v?.transcript ?? "",
    history: compaction(v?.history ?? {}),
    lastPrompt: last ? { ...last, tools: last.tools ?? [], parts: last.parts ?? [] } : (undefined as unknown as SentPrompt),
    lastTools: (v?.lastTools ?? []).map((t) => ({ ...t, content: t.content ?? [], locations: t.locations ?? [] })) as AgentView["lastTools"],
  };
}

/** SlashCommand is a command the chat offers after "/": Agentero's own (builtin) or the agent's. */
export type SlashCommand = Data<acp.Command>;

/** slashCommands lists /compact, /clear and the commands the conversation's agent advertises. */
export async function slashCommands(conversationId: string): Promise<SlashCommand[]> {
  return (await App.SlashCommands(conversationId)) ?? [];
}

/** compactConversation is /compact: the history compacted now for the next session; the result says what was kept. */
export async function compactConversation(conversationId: string): Promise<CompactionResult> {
  return compaction((await App.CompactConversation(conversationId)) ?? {});
}

/** clearConversation is /clear: the next turn starts a new session with an empty history (the transcript keeps it). */
export async function clearConversation(conversationId: string): Promise<void> {
  await App.ClearConversation(conversationId);
}

/** copyText puts text on the clipboard: through the app where it can, else the browser's clipboard. */
export async function copyText(text: string): Promise<void> {
  try {
    if (await ClipboardSetText(text)) return;
  } catch {
    // Not inside the app, or the app's clipboard is unavailable: try the browser's.
  }
  await navigator.clipboard.writeText(text);
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

// --- loopback MCP server (SPEC §9) ---------------------------------------------

/**
 * LoopbackStatus is the whole-vault MCP server for the user's own clients:
 * enabled (the setting), running (serving the open vault at url), the port,
 * the bearer token, the vault served, why it is on but not running (error),
 * and this program's path (command) for the stdio configurations.
 */
export type LoopbackStatus = Data<workspace.LoopbackStatus>;

export async function loopbackStatus(): Promise<LoopbackStatus> {
  return App.LoopbackStatus();
}

/** setLoopback switches the server on or off on a port (0: a free one, then kept); it rejects a port below 1024. */
export async function setLoopback(enabled: boolean, port: number): Promise<LoopbackStatus> {
  return App.SetLoopback(enabled, port);
}

/** rotateLoopbackToken makes a new token: clients with the old one are refused. */
export async function rotateLoopbackToken(): Promise<LoopbackStatus> {
  return App.RotateLoopbackToken();
}

// --- conversations and the window's layout ------------------------------------------

/** ConversationSummary is a stored conversation as the conversations panel lists it. */
export type ConversationSummary = Required<Data<acp.Summary>>;

function summary(s: Wire<acp.Summary>): ConversationSummary {
  return { ...s, paper: s.paper ?? "", match: s.match ?? "" };
}

/** conversations lists the vault's conversations, newest first; a query keeps those whose title or messages hold every word. */
export async function conversations(query = ""): Promise<ConversationSummary[]> {
  const list: Wire<acp.Summary>[] = (await App.Conversations(query)) ?? [];
  return list.map(summary);
}

/** renameConversation titles a conversation ("" = its first question again). */
export async function renameConversation(id: string, title: string): Promise<ConversationSummary> {
  return summary(await App.RenameConversation(id, title));
}

/** deleteConversation removes a conversation and its transcript from disk. */
export async function deleteConversation(id: string): Promise<void> {
  await App.DeleteConversation(id);
}

export type Layout = Data<workspace.Layout>;

export async function layout(): Promise<Layout> {
  const l: Wire<workspace.Layout> = await App.Layout();
  return { sizes: l?.sizes ?? {}, collapsed: l?.collapsed ?? {} };
}

export async function saveLayout(l: Layout): Promise<void> {
  await App.SaveLayout(asGo<workspace.Layout>(l));
}
