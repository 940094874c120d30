// Which agent answers the next turn of a surface (the sidebar or Quick
// Chat). The last pick is remembered per surface; picking the default
// agent remembers nothing, so the surface follows the default when it
// changes in Settings. A remembered agent that was removed falls back to
// the default, and the surface says so.

import type { AgentList } from "../lib/backend";

export const BuiltinAgent = "builtin";

export interface AgentOption {
  /** The agent's name, passed to Ask; "" asks the backend's default. */
  name: string;
  label: string;
  isDefault: boolean;
}

export interface AgentChoice {
  /** The agent to ask. */
  name: string;
  /** The remembered agent that no longer exists, "" when there is none. */
  missing: string;
}

/** agentLabel is how an agent is named in the UI. */
export function agentLabel(name: string): string {
  return name === BuiltinAgent ? "Built-in agent" : name;
}

/** agentOptions lists the agents for a select, the default marked; an empty list asks the backend's default. */
export function agentOptions(list: AgentList): AgentOption[] {
  if (list.agents.length === 0) return [{ name: "", label: "Default agent", isDefault: true }];
  return list.agents.map((a) => {
    const isDefault = a.name === list.default;
    return { name: a.name, label: `${agentLabel(a.name)}${isDefault ? " (default)" : ""}`, isDefault };
  });
}

/** defaultAgent is the list's default, or "" (the backend's default) when the list does not hold it. */
export function defaultAgent(list: AgentList): string {
  return list.agents.some((a) => a.name === list.default) ? list.default : "";
}

/** chooseAgent picks the remembered agent when it still exists, else the default. */
export function chooseAgent(list: AgentList, remembered: string | null): AgentChoice {
  const fallback = defaultAgent(list);
  if (!remembered) return { name: fallback, missing: "" };
  if (list.agents.some((a) => a.name === remembered)) return { name: remembered, missing: "" };
  // An empty list means it could not be read: the agent may well exist.
  if (list.agents.length === 0) return { name: remembered, missing: "" };
  return { name: fallback, missing: remembered };
}

/** rememberPick is what to remember after the user picked an agent: nothing for the default (follow it). */
export function rememberPick(list: AgentList, picked: string): string | null {
  return picked === "" || picked === list.default ? null : picked;
}

/** fallbackNotice says that the remembered agent is gone and which one answers instead. */
export function fallbackNotice(missing: string, list: AgentList): string {
  const now = defaultAgent(list);
  const who = now === BuiltinAgent ? "the built-in agent" : now ? now : "the default agent";
  return `“${agentLabel(missing)}” is no longer set up, so ${who} (the default) answers instead.`;
}

/** agentStorageKey is where a surface remembers its last pick. */
export function agentStorageKey(surface: "sidebar" | "quickChat"): string {
  return `agentero.agent.${surface}`;
}
