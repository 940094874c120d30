// What went wrong with a turn, in words a researcher can act on. The backend
// sends the error text (agent:error); these are the cases it distinguishes.

export type ErrorKind = "crashed" | "timeout" | "not-configured" | "refused" | "busy" | "no-vault" | "other";

export interface TurnProblem {
  kind: ErrorKind;
  /** One line: what happened. */
  title: string;
  /** What to do about it. */
  hint: string;
}

const rules: { kind: ErrorKind; test: RegExp; title: string; hint: string }[] = [
  {
    kind: "timeout",
    test: /did not answer within|deadline exceeded|timed? ?out/i,
    title: "The agent timed out",
    hint: "It was stopped so it cannot hang the app. Retry, or ask a narrower question.",
  },
  {
    kind: "not-configured",
    test: /no agent named|start agent|executable file not found|no such file or directory|permission denied|not configured/i,
    title: "The agent isn’t set up",
    hint: "Check its command in Settings → Agents and use Test connection.",
  },
  {
    kind: "crashed",
    test: /agent stopped|agent exited|exit status|signal: |broken pipe|connection (reset|closed)|initialize agent/i,
    title: "The agent crashed",
    hint: "Your conversation is kept; the next turn starts a fresh session.",
  },
  {
    kind: "refused",
    test: /refused a new session|refused/i,
    title: "The agent refused the session",
    hint: "Retry; if it keeps refusing, test the agent in Settings → Agents.",
  },
  {
    kind: "busy",
    test: /still answering/i,
    title: "This conversation is still answering",
    hint: "Wait for the answer or cancel it.",
  },
  {
    kind: "no-vault",
    test: /no vault is open/i,
    title: "No vault is open",
    hint: "Open a folder of papers first.",
  },
];

/** describeError classifies an agent:error text. */
export function describeError(error: string): TurnProblem {
  for (const r of rules) {
    if (r.test.test(error)) return { kind: r.kind, title: r.title, hint: r.hint };
  }
  return { kind: "other", title: "The turn failed", hint: "Retry; the details are below." };
}
