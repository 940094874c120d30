// The only module that talks to the Go backend. Everything else imports the
// functions and shapes below, never the generated Wails bindings, so the
// bindings can be regenerated without touching the UI.

import * as App from "../../wailsjs/go/main/App";
import { EventsOn } from "../../wailsjs/runtime/runtime";
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

/** vaultFileUrl is the asset-server URL of a vault-relative file. */
export function vaultFileUrl(path: string): string {
  return "/vault/" + path.split("/").map(encodeURIComponent).join("/");
}

/** available reports whether the Wails bridge is present (false in a plain browser). */
export function available(): boolean {
  const w = window as unknown as { go?: { main?: { App?: unknown } }; runtime?: unknown };
  return Boolean(w.go?.main?.App && w.runtime);
}
