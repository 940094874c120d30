import { describe, expect, it } from "vitest";
import type { CompactionResult } from "../lib/backend";
import { builtinCommand, slashQuery, typedInFull } from "./composer";
import { compactedText } from "./slash";

const cmds = [
  { name: "compact", description: "", builtin: true },
  { name: "clear", description: "", builtin: true },
  { name: "review", description: "the agent's", builtin: false },
];

describe("slash commands", () => {
  it("lists commands only while the first word is a /name", () => {
    expect(slashQuery("/", 1)).toBe("");
    expect(slashQuery("/com", 4)).toBe("com");
    expect(slashQuery("/compact now", 12)).toBeNull();
    expect(slashQuery("what is /x", 10)).toBeNull();
  });
  it("runs only Agentero's own commands itself; the agent's go to the agent", () => {
    expect(builtinCommand("/compact", cmds)).toBe("compact");
    expect(builtinCommand("  /clear  ", cmds)).toBe("clear");
    expect(builtinCommand("/review this", cmds)).toBe("");
    expect(builtinCommand("/review", cmds)).toBe("");
    expect(builtinCommand("/compact please", cmds)).toBe("");
  });
  it("a command typed in full runs on Enter; a partial name or one that takes an argument completes", () => {
    const listed = [...cmds, { name: "search", description: "", hint: "query", builtin: false }];
    expect(typedInFull("/compact", listed)).toBe(true);
    expect(typedInFull("/review", listed)).toBe(true);
    expect(typedInFull("/comp", listed)).toBe(false);
    expect(typedInFull("/search", listed)).toBe(false);
    expect(typedInFull("/compact now", listed)).toBe(false);
  });
  it("says what /compact kept", () => {
    const r = { tiers: ["prune", "summarize"], whole: [5], pruned: [], summarized: [1, 2, 3, 4], tokensAfter: 1200, window: 4000 } as unknown as CompactionResult;
    expect(compactedText(r)).toBe(
      "Compacted (prune, summarize): kept turns 5 whole, 1–4 in the summary; about 1,200 of 4,000 tokens. The next turn starts a new session handed this; the transcript is unchanged.",
    );
  });
});
