import { describe, expect, it } from "vitest";
import type { CompactionResult } from "../lib/backend";
import { compactionLine, compactionParts, historyHeadline, turnDetail, turnRanges, toolStatusWord } from "./summary";

function result(over: Partial<CompactionResult>): CompactionResult {
  return {
    tiers: [],
    whole: [],
    pruned: [],
    summarized: [],
    snipped: 0,
    tailGuard: 0,
    reserve: 0,
    tokensBefore: 0,
    tokensAfter: 0,
    window: 200_000,
    limit: 100_000,
    notes: [],
    summary: "",
    summarizedN: 0,
    text: "",
    ...over,
  };
}

describe("turnRanges", () => {
  const cases: [number[], string][] = [
    [[], ""],
    [[3], "3"],
    [[1, 2, 3, 5], "1–3, 5"],
    [[7, 1, 2, 2], "1–2, 7"],
    [[1, 3, 5], "1, 3, 5"],
  ];
  for (const [turns, want] of cases) {
    it(`${JSON.stringify(turns)} → ${want || '""'}`, () => expect(turnRanges(turns)).toBe(want));
  }
});

describe("compaction summary", () => {
  it("a short conversation is sent whole", () => {
    const h = result({ whole: [1, 2], tokensBefore: 83, tokensAfter: 83, window: 32_000, limit: 16_000 });
    expect(compactionLine(h)).toBe(
      "Tiers applied: none (sent whole) · Turns: 2 whole, 0 pruned, 0 summarized · Tokens: about 83 → 83 of a 32,000-token window (the history may use 16,000)",
    );
    expect(historyHeadline(h)).toBe("2 turns, sent whole");
    expect(turnDetail(h)).toBe("Whole: turns 1–2");
  });

  it("a long one names the tiers, the turns in each state and the tokens saved", () => {
    const h = result({
      tiers: ["snip", "prune", "summarize"],
      snipped: 3,
      summarized: [1, 2, 3, 4],
      pruned: [5, 6],
      whole: [7, 8, 9, 10],
      tokensBefore: 190_512,
      tokensAfter: 61_003,
    });
    expect(compactionParts(h)).toEqual([
      { label: "Tiers applied", value: "snip (3 tool results), prune, summarize" },
      { label: "Turns", value: "4 whole, 2 pruned, 4 summarized" },
      { label: "Tokens", value: "about 190,512 → 61,003 of a 200,000-token window (the history may use 100,000)" },
    ]);
    expect(historyHeadline(h)).toBe("10 turns, compacted");
    expect(turnDetail(h)).toBe("Whole: turns 7–10 · Pruned to placeholders: turns 5–6 · Summarized: turns 1–4");
  });

  it("one snipped tool result and one turn are singular", () => {
    const h = result({ tiers: ["snip"], snipped: 1, whole: [1], tokensBefore: 140_000, tokensAfter: 90_000 });
    expect(compactionParts(h)[0].value).toBe("snip (1 tool result)");
    expect(historyHeadline(h)).toBe("1 turn, compacted");
    expect(turnDetail(h)).toBe("Whole: turn 1");
  });

  it("no turns: nothing to hand over", () => {
    const h = result({});
    expect(compactionLine(h)).toBe("No turns yet: there is no history to hand over.");
    expect(historyHeadline(h)).toBe("No turns yet");
    expect(turnDetail(h)).toBe("");
  });

  it("an unknown window is left out rather than shown as zero", () => {
    const h = result({ whole: [1], tokensBefore: 10, tokensAfter: 10, window: 0, limit: 0 });
    expect(compactionParts(h)[2].value).toBe("about 10 → 10");
  });
});

describe("a tool call of the last turn", () => {
  const options = [
    { id: "allow", kind: "allow_once" },
    { id: "reject", kind: "reject_once" },
  ];
  it("whose edit was rejected is not pending", () => {
    const rejected = [{ toolCallId: "t1", outcome: "selected", optionId: "reject", options }];
    expect(toolStatusWord({ toolCallId: "t1", status: "pending" }, rejected, true)).toBe("rejected by you (not run)");
    expect(toolStatusWord({ toolCallId: "t2", status: "completed" }, rejected, true)).toBe("completed");
  });
  it("allowed keeps the agent's status; unfinished when the turn ended is stopped", () => {
    const allowed = [{ toolCallId: "t1", outcome: "selected", optionId: "allow", options }];
    expect(toolStatusWord({ toolCallId: "t1", status: "completed" }, allowed, true)).toBe("completed");
    expect(toolStatusWord({ toolCallId: "t1", status: "in_progress" }, allowed, false)).toBe("in_progress");
    expect(toolStatusWord({ toolCallId: "t1", status: "pending" }, [], true)).toBe("stopped when the turn ended");
    expect(toolStatusWord({ toolCallId: "t1", status: "pending" }, [{ ...allowed[0], outcome: "cancelled" }], true)).toBe("not run (cancelled before you answered)");
  });
});
