// @-mentions in the question box. Typing "@" starts a mention; the words
// after it (up to the caret) are the completion query. Choosing a completion
// removes the "@query" text and adds a chip: the chips, not the text, are
// what the turn sends. A mention typed out in full ("@papers/raft" or
// '@"notes/my notes"') and never turned into a chip is found by
// literalMentions so it can still be resolved before sending.

import type { Mention, MentionKind } from "../lib/backend";

/** A mention being typed: text[start] is "@", query is what follows it up to the caret. */
export interface MentionToken {
  start: number;
  /** Exclusive: the end of the token (the caret, or the end of the word the caret is in). */
  end: number;
  query: string;
}

// Characters that end a mention query.
const stop = /[\s"'`,;()[\]{}<>]/;

/**
 * mentionAt returns the mention the caret is in, or null. An "@" counts only
 * at the start of the text or after whitespace or an opening bracket, so
 * e-mail addresses and "a@b" do not open completion.
 */
export function mentionAt(text: string, caret: number): MentionToken | null {
  const pos = Math.max(0, Math.min(caret, text.length));
  let i = pos - 1;
  while (i >= 0 && text[i] !== "@" && !stop.test(text[i])) i--;
  if (i < 0 || text[i] !== "@") return null;
  if (i > 0 && !/[\s([{]/.test(text[i - 1])) return null;
  let end = pos;
  while (end < text.length && !stop.test(text[end]) && text[end] !== "@") end++;
  return { start: i, end, query: text.slice(i + 1, pos) };
}

/** removeToken cuts a mention token out of the text, leaving one space where it was; it returns the new text and caret. */
export function removeToken(text: string, token: MentionToken): { text: string; caret: number } {
  const before = text.slice(0, token.start);
  let after = text.slice(token.end);
  if (/\s$/.test(before) || before === "") after = after.replace(/^[ \t]+/, "");
  return { text: before + after, caret: before.length };
}

/** A mention typed out in the text: "@path" or '@"path with spaces"'. */
export interface LiteralMention {
  start: number;
  end: number;
  path: string;
}

/** literalMentions finds every typed-out mention in the text, in order. */
export function literalMentions(text: string): LiteralMention[] {
  const out: LiteralMention[] = [];
  const re = /(^|[\s([{])@(?:"([^"\n]+)"|([^\s"'`,;()[\]{}<>@]+))/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const start = m.index + m[1].length;
    const path = (m[2] ?? m[3]).trim().replace(/[.:!?]+$/, "").replace(/\/+$/, "");
    if (path) out.push({ start, end: m.index + m[0].length, path });
  }
  return out;
}

/** stripMentions removes typed-out mentions that became chips, tidying the spaces they leave. */
export function stripMentions(text: string, found: LiteralMention[]): string {
  let out = "";
  let at = 0;
  for (const m of found) {
    out += text.slice(at, m.start);
    at = m.end;
  }
  out += text.slice(at);
  return out.replace(/[ \t]{2,}/g, " ").trim();
}

/** addMention appends a mention unless the same kind and path is already there. */
export function addMention(list: Mention[], m: Mention): Mention[] {
  const path = m.path.replace(/\/+$/, "");
  if (list.some((x) => x.kind === m.kind && x.path === path)) return list;
  return [...list, { kind: m.kind, path }];
}

export function removeMention(list: Mention[], m: Mention): Mention[] {
  return list.filter((x) => !(x.kind === m.kind && x.path === m.path));
}

const kindWords: Record<MentionKind, string> = { paper: "Paper", directory: "Folder", file: "File", vault: "Vault" };

/** VaultMention is @vault: the whole vault, for that turn. */
export const VaultMention: Mention = { kind: "vault", path: "" };

/** vaultOffered: "@vault" is offered while what is typed after "@" could still become "vault". */
export function vaultOffered(query: string): boolean {
  return "vault".startsWith(query.trim().toLowerCase());
}

/** mentionLabel is a chip's text: the paper's title when known, else the last part of the path. */
export function mentionLabel(m: Mention, title = ""): string {
  if (m.kind === "vault") return "Whole vault (this turn)";
  if (title) return title;
  const parts = m.path.split("/");
  return m.kind === "directory" ? `${parts[parts.length - 1]}/` : parts[parts.length - 1];
}

export function kindWord(kind: MentionKind): string {
  return kindWords[kind] ?? kind;
}
