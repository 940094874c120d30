// Editing an agent's command line in a form: arguments as one line with
// shell-like quoting, environment as KEY=VALUE lines.

import type { AgentConfig } from "../lib/backend";

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
