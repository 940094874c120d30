import * as App from "../../../wailsjs/go/main/App";
import type { acp, agentconf, conversation as conversationModels, citation, index, main, plan, workspace } from "../../../wailsjs/go/models";
import { type Data, type Wire, asGo } from "../wire";

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
export type StoredMessage = Required<Data<conversationModels.Message>>;
/** Conversation is a stored conversation as the thread reads it: everything Go stored, lists never null. */
export type Conversation = Omit<Data<conversationModels.Conversation>, "messages"> & { messages: StoredMessage[] };

export type AgentConfig = Data<agentconf.Agent>;
export type AgentList = Data<agentconf.Agents>;
export type AgentCapabilities = Data<acp.Capabilities>;
/** AgentReport is what Test connection found: agentInfo, capabilities and login methods. */
export type AgentReport = Data<acp.Report>;
/** AgentPreset is a known agent Settings offers, with whether its command is on PATH. */
export type AgentPreset = Data<agentconf.Preset>;

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
  const c: Wire<conversationModels.Conversation> = await App.Conversation(id);
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
  const a: Wire<agentconf.Agents> = await App.Agents();
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

/**
 * addAgent adds a new agent to agents.json, keeping what the file holds. A
 * relative command, one not found and a name taken reject with code
 * "invalid" and a sentence saying so. Unless force, the agent is checked
 * first (cancelTestAgent(checkId) stops the check); one that fails rejects
 * with code "unverified", and force adds it anyway.
 */
export async function addAgent(agent: AgentConfig, makeDefault: boolean, force = false, checkId = "settings"): Promise<void> {
  await App.AddAgent(asGo<main.AddAgentRequest>({ agent, makeDefault, force, checkId }));
}

export async function setDefaultAgent(name: string): Promise<void> {
  await App.SetDefaultAgent(name);
}

export async function deleteAgent(name: string): Promise<void> {
  await App.DeleteAgent(name);
}

/** testAgent is Test connection: start, initialize, session/new, stop; testId names the run for cancelTestAgent. */
export async function testAgent(agent: AgentConfig, testId = "settings"): Promise<AgentReport> {
  const r: Wire<acp.Report> = await App.TestAgent(testId, asGo<agentconf.Agent>(agent));
  return { ...r, authMethods: (r.authMethods ?? []).map((m) => ({ ...m, vars: m.vars ?? [] })) };
}

/** cancelTestAgent stops the test (or Save's check) running under testId. */
export async function cancelTestAgent(testId = "settings"): Promise<void> {
  await App.CancelTestAgent(testId);
}

/** agentPresets lists the agents Settings offers. */
export async function agentPresets(): Promise<AgentPreset[]> {
  const list: Wire<agentconf.Preset>[] = (await App.AgentPresets()) ?? [];
  return list.map((p) => ({ ...p, args: p.args ?? [] }));
}
