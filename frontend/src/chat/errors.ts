// What went wrong with a turn, in words a researcher can act on. The
// backend sends a code with every failure (agent:error's code, a rejected
// call's events.Error); the words are chosen by the code, never by the
// message, which is shown below them as the details.

import type { ErrorCode } from "../lib/events";

export interface TurnProblem {
  kind: ErrorCode;
  /** One line: what happened. */
  title: string;
  /** What to do about it. */
  hint: string;
}

const problems: Record<ErrorCode, { title: string; hint: string }> = {
  timeout: {
    title: "The agent timed out",
    hint: "It was stopped so it cannot hang the app. Retry, or ask a narrower question.",
  },
  "not-configured": {
    title: "The agent isn’t set up",
    hint: "Check its command in Settings → Agents and use Test connection.",
  },
  crashed: {
    title: "The agent crashed",
    hint: "Your conversation is kept; the next turn starts a fresh session.",
  },
  refused: {
    title: "The agent refused the session",
    hint: "Retry; if it keeps refusing, test the agent in Settings → Agents.",
  },
  "auth-required": {
    title: "The agent needs you to log in",
    hint: "The details say how; then retry.",
  },
  unverified: {
    title: "The agent did not pass its check",
    hint: "Fix it and test again, or save it anyway.",
  },
  busy: {
    title: "This conversation is still answering",
    hint: "Wait for the answer or cancel it.",
  },
  "no-vault": {
    title: "No vault is open",
    hint: "Open a folder of papers first.",
  },
  "not-vault": {
    title: "That folder is not a vault yet",
    hint: "Open it again to arrange its PDFs into papers/, or to use it as it is.",
  },
  "not-found": {
    title: "Something the turn needs is gone",
    hint: "The paper, file or conversation may have been moved or deleted; the library updates when the index catches up.",
  },
  invalid: {
    title: "The question could not be sent",
    hint: "Check what you typed or pointed at; the details are below.",
  },
  cancelled: {
    title: "The turn was cancelled",
    hint: "Retry to ask again.",
  },
  internal: {
    title: "The turn failed",
    hint: "Retry; the details are below.",
  },
};

/** describeError says what a failure with this code means (events.ts errorCode reads an unknown one as internal). */
export function describeError(code: ErrorCode): TurnProblem {
  return { kind: code, ...problems[code] };
}
