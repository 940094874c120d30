// Editing an agent's command line in a form: arguments as one line with
// shell-like quoting, environment as KEY=VALUE lines.

import type { AgentConfig, AgentReport } from "../lib/backend";

/** parseArgs splits a line into arguments: spaces separate, "…" and '…' group, \ escapes. */
export function parseArgs(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let any = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      any = true;
    } else if (ch === "\\" && i + 1 < line.length) {
      cur += line[++i];
      any = true;
    } else if (/\s/.test(ch)) {
      if (any || cur) out.push(cur);
      cur = "";
      any = false;
    } else {
      cur += ch;
    }
  }
  if (any || cur) out.push(cur);
  return out;
}

/** formatArgs writes arguments back so that parseArgs reads them the same. */
export function formatArgs(args: string[]): string {
  return args.map((a) => (a !== "" && /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'"'"'`)}'`)).join(" ");
}

/** parseEnv reads KEY=VALUE lines; blank lines and # comments are skipped. It throws on a malformed line. */
export function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const eq = line.indexOf("=");
    const key = eq < 0 ? "" : line.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`Line ${i + 1} of the environment is not KEY=VALUE.`);
    env[key] = line.slice(eq + 1);
  });
  return env;
}

export function formatEnv(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join("\n");
}

/** agentProblem says what is wrong with a form before it is saved, or "". */
export function agentProblem(a: AgentConfig, others: AgentConfig[], editing: string): string {
  if (!a.name.trim()) return "Give the agent a name.";
  if (a.name.trim() === "builtin") return "“builtin” is the name of the built-in agent.";
  if (a.name.trim() !== editing && others.some((o) => o.name === a.name.trim())) return `There is already an agent named “${a.name.trim()}”.`;
  if (!a.command.trim()) return "Give the command that starts the agent (for example npx, or a full path).";
  return "";
}

/**
 * StepSeconds is how long an agent has for each step of a start or of Test
 * connection (initialize, then session/new): Go's acp.DefaultStartTimeout.
 */
export const StepSeconds = 30;

/** TestSeconds is the most a Test connection or Save's check can take: two steps. */
export const TestSeconds = 2 * StepSeconds;

/** Ability is something Test connection found an agent can or cannot do. */
export interface Ability {
  label: string;
  can: boolean;
  /** Why it matters, for a tooltip. */
  why: string;
}

/** abilities lists what Agentero needs to know of an agent's capabilities. */
export function abilities(c: AgentReport["capabilities"]): Ability[] {
  return [
    { label: "MCP over stdio", can: c.mcpStdio, why: "How it reads your vault: the agentero-context server of each turn." },
    { label: "resume", can: c.resume, why: "A conversation continues in the agent's own session." },
    { label: "load", can: c.loadSession, why: "A conversation is reloaded into the agent's session when it cannot resume." },
  ];
}

/** agentWho names the agent a test reached: "Claude Code 0.5.1" (its title, else its name). */
export function agentWho(r: Pick<AgentReport, "name" | "title" | "version">): string {
  const name = r.title || r.name || "The agent (it gave no name)";
  return r.version ? `${name} ${r.version}` : name;
}

/** loginText says how to use one of an agent's login methods. */
export function loginText(m: AgentReport["authMethods"][number]): string {
  const vars = m.vars ?? [];
  switch (m.kind) {
    case "env_var":
      return vars.length ? `${m.name}: set ${vars.join(", ")} in the agent’s environment` : `${m.name}: set its variables in the agent’s environment`;
    case "terminal":
      return m.command ? `${m.name}: run ${m.command} in a terminal` : `${m.name}: in a terminal`;
    default:
      return m.description ? `${m.name}: ${m.description}` : m.name;
  }
}
