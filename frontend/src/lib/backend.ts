// The only module that talks to the Go backend. Everything else imports the
// functions and shapes below, never the generated Wails bindings, so the
// bindings can be regenerated without touching the UI.

import * as App from "../../wailsjs/go/main/App";
import { ClipboardSetText, EventsOn } from "../../wailsjs/runtime/runtime";
import type { EventName, EventPayloads, GrantSource, WatchMode } from "./events";

export interface VaultState {
  path: string;
  name: string;
  watchMode: WatchMode;
  watchNotice: string;
  indexing: boolean;
}

export type PaperStatus = "ok" | "no-text" | "partial" | "error" | "pending";

export interface PaperSummary {
  ref: string;
  title: string;
  authors: string[];
  /** 0 when the year is unknown. */
  year: number;
  /** Vault-relative, e.g. "papers/raft/paper.pdf". */
  pdfPath: string;
  pages: number;
  noTextPages: number;
  status: PaperStatus;
  error: string;
}

export interface SearchHit {
  ref: string;
  title: string;
  page: number;
  pageLabel: string;
  /** Matched terms are wrapped in "\u0002" … "\u0003". */
  snippet: string;
  citationUri: string;
}

export async function vault(): Promise<VaultState> {
  return (await App.Vault()) as VaultState;
}

export async function library(): Promise<PaperSummary[]> {
  const papers = ((await App.Library()) ?? []) as PaperSummary[];
  // Go encodes a nil slice as null.
  return papers.map((p) => ({ ...p, authors: p.authors ?? [] }));
}

export async function search(query: string, limit: number): Promise<SearchHit[]> {
  return ((await App.Search(query, limit)) ?? []) as SearchHit[];
}

export async function reindex(): Promise<void> {
  await App.Reindex();
}

/** chooseVault opens a folder dialog; it resolves to the new path, or "" when cancelled. */
export async function chooseVault(): Promise<string> {
  return (await App.ChooseVault()) ?? "";
}

/** on subscribes to a backend event and returns the unsubscribe function. */
export function on<K extends EventName>(name: K, callback: (payload: EventPayloads[K]) => void): () => void {
  return EventsOn(name, (payload: EventPayloads[K]) => callback(payload ?? ({} as EventPayloads[K])));
}

/** openExternal opens a doi.org / arxiv.org URL in the system browser (the backend refuses anything else). */
export async function openExternal(url: string): Promise<void> {
  await App.OpenExternal(url);
}

// --- chat ---------------------------------------------------------------------

/** A passage the user selected: in a paper's PDF (with its 1-based page) or in a file. */
export interface Selection {
  sourcePath: string;
  page?: number;
  text: string;
  /** [x, y, width, height] in PDF points from the page's top-left corner. */
  rects?: number[][];
}

export type MentionKind = "paper" | "directory" | "file";

export interface Mention {
  kind: MentionKind;
  path: string;
}

/** ContextRequest is what the user points at in one turn (SPEC §3). */
export interface ContextRequest {
  surface: "sidebar" | "quickChat";
  currentPaper?: string;
  selections: Selection[];
  mentions: Mention[];
  remote: boolean;
}

export interface EvidenceCard {
  kind: string;
  ref: string;
  title: string;
  page?: number;
  quote?: string;
  cut: boolean;
  citationUri: string;
}

export interface ContextPlan {
  surface: string;
  mode: "mcp" | "prompt-only";
  fingerprint: string;
  tools: string[];
  allowed: GrantSource[];
  evidence: EvidenceCard[];
  refused: { kind: string; path: string; reason: string }[];
}

export interface Completion {
  kind: MentionKind;
  path: string;
  title: string;
}

export interface StoredMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  sources: string[];
  error: string;
  /** The agent the question went to, or that answered; absent in older conversations. */
  agent?: string;
  /** The agent's last plan of the turn (answers only). */
  plan?: { content: string; priority?: string; status?: string }[];
}

export interface Conversation {
  id: string;
  agent: string;
  messages: StoredMessage[];
}

export interface AgentConfig {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface AgentList {
  default: string;
  agents: AgentConfig[];
}

export interface AgentCapabilities {
  loadSession: boolean;
  resume: boolean;
  close: boolean;
}

/** ask starts a turn; it resolves at once and the answer streams as agent:* events. */
export async function ask(conversationId: string, agent: string, request: ContextRequest, question: string): Promise<void> {
  await App.Ask({ conversationId, agent, request, question } as Parameters<typeof App.Ask>[0]);
}

export async function cancelTurn(conversationId: string): Promise<void> {
  await App.CancelTurn(conversationId);
}

export async function conversation(id: string): Promise<Conversation> {
  const c = await App.Conversation(id);
  return {
    id: c?.id ?? id,
    agent: c?.agent ?? "",
    messages: (c?.messages ?? []).map((m) => ({
      id: m.id,
      role: m.role === "user" ? "user" : "assistant",
      content: m.content ?? "",
      sources: m.sources ?? [],
      error: m.error ?? "",
    })),
  };
}

/** previewPlan shows what a turn with this request could read, before it is sent. */
export async function previewPlan(request: ContextRequest): Promise<ContextPlan> {
  const p = await App.PreviewPlan(request as Parameters<typeof App.PreviewPlan>[0]);
  return {
    surface: p.surface,
    mode: p.mode === "mcp" ? "mcp" : "prompt-only",
    fingerprint: p.fingerprint,
    tools: p.tools ?? [],
    allowed: (p.allowed ?? []) as GrantSource[],
    evidence: (p.evidence ?? []) as EvidenceCard[],
    refused: p.refused ?? [],
  };
}

/** complete lists @-mention candidates: papers, directories and files. */
export async function complete(query: string, limit: number): Promise<Completion[]> {
  return ((await App.Complete(query, limit)) ?? []).map((c) => ({
    kind: c.kind as MentionKind,
    path: c.path,
    title: c.title ?? "",
  }));
}

/** sourceExists reports whether a citation URI still opens. */
export async function sourceExists(uri: string): Promise<boolean> {
  return App.SourceExists(uri);
}

export async function agents(): Promise<AgentList> {
  const a = await App.Agents();
  return {
    default: a.default,
    agents: (a.agents ?? []).map((ag) => ({ name: ag.name, command: ag.command, args: ag.args ?? [], env: ag.env ?? {} })),
  };
}

export async function saveAgent(agent: AgentConfig, makeDefault: boolean): Promise<void> {
  await App.SaveAgent(agent as Parameters<typeof App.SaveAgent>[0], makeDefault);
}

export async function setDefaultAgent(name: string): Promise<void> {
  await App.SetDefaultAgent(name);
}

export async function deleteAgent(name: string): Promise<void> {
  await App.DeleteAgent(name);
}

/** testAgent starts the agent, initializes it and reports its capabilities. */
export async function testAgent(agent: AgentConfig): Promise<AgentCapabilities> {
  return App.TestAgent(agent as Parameters<typeof App.TestAgent>[0]);
}

// --- settings -------------------------------------------------------------------

/** ReadingBudget caps what the agentero-context tools return in a turn (SPEC §3, the plan's budget). */
export interface ReadingBudget {
  /** Cards per context_search call. */
  searchCards: number;
  /** Of those, at most this many from one paper or file. */
  cardsPerPaper: number;
  /** A search snippet or an excerpt around a quote. */
  excerptChars: number;
  /** One page, section, file or full read. */
  fullChars: number;
  /** Names in one directory listing. */
  dirEntries: number;
  /** Everything the tools return in one turn. */
  turnChars: number;
}

export interface AppSettings {
  budget: ReadingBudget;
}

function appSettings(s: { budget?: Partial<ReadingBudget> } | null | undefined): AppSettings {
  const b = s?.budget ?? {};
  return {
    budget: {
      searchCards: b.searchCards ?? 0,
      cardsPerPaper: b.cardsPerPaper ?? 0,
      excerptChars: b.excerptChars ?? 0,
      fullChars: b.fullChars ?? 0,
      dirEntries: b.dirEntries ?? 0,
      turnChars: b.turnChars ?? 0,
    },
  };
}

/** settings reads the user's settings (the tools' reading budget). */
export async function settings(): Promise<AppSettings> {
  return appSettings(await App.Settings());
}

/** defaultSettings is what a fresh install uses. */
export async function defaultSettings(): Promise<AppSettings> {
  return appSettings(await App.DefaultSettings());
}

/** saveSettings stores the settings; it rejects a budget value that is not positive or over its limit. */
export async function saveSettings(s: AppSettings): Promise<void> {
  await App.SaveSettings(s as Parameters<typeof App.SaveSettings>[0]);
}

// --- context documents -----------------------------------------------------------

export type ContextTrigger = "always_on" | "model_decision" | "manual";
export type ContextPriority = "critical" | "high" | "normal" | "low";

/** ContextDoc is a Markdown file under the vault's .agentero/context/ (SPEC §8.2). */
export interface ContextDoc {
  /** Slash path relative to the context folder, e.g. "citing.md". */
  id: string;
  description: string;
  trigger: ContextTrigger;
  priority: ContextPriority;
  /** Body bytes, front matter excluded. */
  bytes: number;
  /** Named by the root rules' preloadPaths. */
  preload: boolean;
  /** Named by the root rules' forbiddenLoad (it wins). */
  forbidden: boolean;
}

/** ContextDocProblem is a file in the context folder that could not be used, with why. */
export interface ContextDocProblem {
  /** Vault-relative. */
  path: string;
  problem: string;
}

export interface ContextDocList {
  docs: ContextDoc[];
  problems: ContextDocProblem[];
}

/** contextDocs lists the open vault's context documents and the files that could not be used. */
export async function contextDocs(): Promise<ContextDocList> {
  const l = await App.ListContextDocs();
  return {
    docs: (l?.docs ?? []).map((d) => ({
      id: d.id,
      description: d.description ?? "",
      trigger: (d.trigger ?? "manual") as ContextTrigger,
      priority: (d.priority ?? "normal") as ContextPriority,
      bytes: d.bytes ?? 0,
      preload: Boolean(d.preload),
      forbidden: Boolean(d.forbidden),
    })),
    problems: (l?.problems ?? []).map((p) => ({ path: p.path ?? "", problem: p.problem ?? "" })),
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

/** RelationKind names a paper's three lists of relations (SPEC §5). */
export type RelationKind = "references" | "citedBy" | "related";

/**
 * RelationCard is one related work. paperPath is the library paper's ref when
 * the work is in the library; citationUri is its PDF's vault path, or
 * https://doi.org/… / https://arxiv.org/abs/… for a work outside it, or "".
 */
export interface RelationCard {
  title: string;
  /** 0 when the year is unknown. */
  year: number;
  doi: string;
  arxivId: string;
  paperPath: string;
  /** doi, arxiv, title; for related papers sharedReferences or text; "" when not matched. */
  matchBy: string;
  citationUri: string;
}

export type Relations = Record<RelationKind, RelationCard[]>;

/** CompactionResult is how a conversation's history is reduced before it is handed to a new session (SPEC §8.3). */
export interface CompactionResult {
  /** snip, prune, summarize: those applied. */
  tiers: string[];
  /** 1-based turn numbers sent whole, as placeholders, or replaced by the summary. */
  whole: number[];
  pruned: number[];
  summarized: number[];
  /** Tool results snipped. */
  snipped: number;
  tokensBefore: number;
  tokensAfter: number;
  window: number;
  /** Tokens the history may use. */
  limit: number;
  notes: string[];
  summary: string;
  /** The history as sent. */
  text: string;
}

/** AgentView is what an agent is given for a conversation: the frozen base context and the history. */
export interface AgentView {
  snapshot: string;
  issues: string[];
  history: CompactionResult;
  /** Where the full transcript is on disk. */
  transcript: string;
}

/** paperRelations lists a paper's references, the library papers citing it and related papers (up to limit of each). */
export async function paperRelations(ref: string, limit: number): Promise<Relations> {
  const r = await App.PaperRelations(ref, limit);
  const cards = (list: RelationCard[] | null | undefined): RelationCard[] =>
    (list ?? []).map((c) => ({
      title: c.title ?? "",
      year: c.year ?? 0,
      doi: c.doi ?? "",
      arxivId: c.arxivId ?? "",
      paperPath: c.paperPath ?? "",
      matchBy: c.matchBy ?? "",
      citationUri: c.citationUri ?? "",
    }));
  return { references: cards(r?.references), citedBy: cards(r?.citedBy), related: cards(r?.related) };
}

/** whatAgentSees shows what the agent of a conversation is given; the transcript itself is never changed. */
export async function whatAgentSees(conversationId: string): Promise<AgentView> {
  const v = await App.WhatAgentSees(conversationId);
  const h = (v?.history ?? {}) as Partial<CompactionResult>;
  return {
    snapshot: v?.snapshot ?? "",
    issues: v?.issues ?? [],
    transcript: v?.transcript ?? "",
    history: {
      tiers: h.tiers ?? [],
      whole: h.whole ?? [],
      pruned: h.pruned ?? [],
      summarized: h.summarized ?? [],
      snipped: h.snipped ?? 0,
      tokensBefore: h.tokensBefore ?? 0,
      tokensAfter: h.tokensAfter ?? 0,
      window: h.window ?? 0,
      limit: h.limit ?? 0,
      notes: h.notes ?? [],
      summary: h.summary ?? "",
      text: h.text ?? "",
    },
  };
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
