import { describe, expect, it } from "vitest";
import { preview, previewText, sessionText, summarize, grantChanged } from "./context";
import { errorCode, type ErrorCode } from "../lib/events";
import { describeError } from "./errors";
import { paperConversationId, quickConversationId } from "./ids";

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/; // grant.ValidRuntimeID

describe("conversation ids", () => {
  it("one per paper, from the ref", () => {
    expect(paperConversationId("papers/bitcoin")).toBe("paper.papers_bitcoin");
    expect(paperConversationId("papers/2024/raft-v2.1")).toBe("paper.papers_2024_raft-v2.1");
  });

  it("odd characters are replaced and a hash keeps refs apart", () => {
    const a = paperConversationId("papers/my paper");
    const b = paperConversationId("papers/my-paper");
    expect(a).not.toBe(b);
    expect(a).toMatch(idPattern);
    expect(a).not.toContain("..");
  });

  it("long refs stay under the limit", () => {
    const id = paperConversationId(`papers/${"x".repeat(300)}`);
    expect(id.length).toBeLessThanOrEqual(120);
    expect(id).toMatch(idPattern);
  });

  it("dot-dot never appears", () => {
    expect(paperConversationId("papers/a..b")).not.toContain("..");
  });

  it("quick chats are numbered", () => {
    expect(quickConversationId(3)).toBe("quick.3");
    expect(quickConversationId(0)).toBe("quick.1");
  });
});

describe("describeError", () => {
  // The words follow the code the backend sends; the message is only shown as the details.
  const cases: [ErrorCode, string][] = [
    ["timeout", "The agent timed out"],
    ["crashed", "The agent crashed"],
    ["not-configured", "The agent isn’t set up"],
    ["refused", "The agent refused the session"],
    ["busy", "This conversation is still answering"],
    ["no-vault", "No vault is open"],
    ["not-found", "Something the turn needs is gone"],
    ["invalid", "The question could not be sent"],
    ["cancelled", "The turn was cancelled"],
    ["internal", "The turn failed"],
  ];
  for (const [code, title] of cases) {
    it(code, () => expect(describeError(code)).toMatchObject({ kind: code, title }));
  }

  it("a missing or unknown code reads as internal, whatever the message says", () => {
    expect(errorCode(undefined)).toBe("internal");
    expect(errorCode("")).toBe("internal");
    expect(errorCode("the agent did not answer within 5m0s")).toBe("internal");
    expect(errorCode("timeout")).toBe("timeout");
  });
});

describe("context summary", () => {
  const title = (ref: string) => (ref === "papers/bitcoin" ? "Bitcoin" : "");

  it("counts what the turn can read", () => {
    const s = summarize("mcp", [
      { kind: "paper", ref: "papers/bitcoin" },
      { kind: "paper", ref: "papers/peercoin" },
      { kind: "directory", ref: "notes" },
    ], title);
    expect(s.promptOnly).toBe(false);
    expect(s.headline).toBe("Can read 2 papers, 1 folder");
    expect(s.items.map((i) => i.label)).toEqual(["Bitcoin", "papers/peercoin", "notes/"]);
  });

  it("prompt-only when nothing is granted", () => {
    const budget = { searchCards: 8, cardsPerPaper: 3, excerptChars: 1500, fullChars: 12000, dirEntries: 200, turnChars: 60000 };
    expect(summarize("prompt-only", [], title).promptOnly).toBe(true);
    const text = previewText({ surface: "quickChat", mode: "prompt-only", fingerprint: "", tools: [], allowed: [], budget, evidence: [], refused: [] }, title);
    expect(text).toMatch(/^Prompt only/);
  });

  it("a large grant is counted on the line and listed behind show all", () => {
    const budget = { searchCards: 8, cardsPerPaper: 3, excerptChars: 1500, fullChars: 12000, dirEntries: 200, turnChars: 60000 };
    const allowed = Array.from({ length: 59 }, (_, i) => ({ kind: "paper" as const, ref: `papers/p${i}` }));
    const p = preview({ surface: "quickChat", mode: "mcp", fingerprint: "", tools: [], allowed: [...allowed, { kind: "directory", ref: "notes" }], budget, evidence: [], refused: [] }, () => "");
    expect(p.line).toBe("Can read 59 papers, 1 folder");
    expect(p.more).toHaveLength(60);
    const few = preview({ surface: "quickChat", mode: "mcp", fingerprint: "", tools: [], allowed: allowed.slice(0, 2), budget, evidence: [], refused: [] }, () => "");
    expect(few).toEqual({ line: "Can read 2 papers: papers/p0, papers/p1", more: [] });
  });

  it("session text and grant change", () => {
    const ctx = { mode: "mcp" as const, allowed: [], action: "new", note: "what this turn may read changed: started a new session", fingerprint: "" };
    expect(sessionText(ctx)).toBe("new session: what this turn may read changed: started a new session");
    expect(grantChanged(ctx)).toBe(true);
    expect(grantChanged({ ...ctx, note: "", action: "resume" })).toBe(false);
    expect(sessionText({ ...ctx, note: "", action: "resume" })).toBe("continued session (resumed)");
  });
});
