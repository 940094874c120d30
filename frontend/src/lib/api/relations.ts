import * as App from "../../../wailsjs/go/main/App";
import type { acp, conversation, compact, refs, workspace } from "../../../wailsjs/go/models";
import { ClipboardSetText } from "../../../wailsjs/runtime/runtime";
import { type Data, type Wire } from "../wire";

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
export type SentPrompt = Data<conversation.SentPrompt>;

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
