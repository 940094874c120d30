import { describe, expect, it } from "vitest";
import { addMention, literalMentions, mentionAt, mentionLabel, removeMention, removeToken, stripMentions } from "./mentions";

// caret marks the caret with "|" and returns the text without it.
function caret(s: string): [string, number] {
  const at = s.indexOf("|");
  return [s.slice(0, at) + s.slice(at + 1), at];
}

describe("mentionAt", () => {
  const cases: { name: string; input: string; want: { start: number; end: number; query: string } | null }[] = [
    { name: "bare @ at start", input: "@|", want: { start: 0, end: 1, query: "" } },
    { name: "query after @", input: "compare @peer|", want: { start: 8, end: 13, query: "peer" } },
    { name: "caret inside the word takes the whole token", input: "see @pe|ercoin now", want: { start: 4, end: 13, query: "pe" } },
    { name: "path characters are part of the query", input: "@papers/raft-2|", want: { start: 0, end: 14, query: "papers/raft-2" } },
    { name: "after an opening bracket", input: "(@no|", want: { start: 1, end: 4, query: "no" } },
    { name: "email address is not a mention", input: "mail me@exa|", want: null },
    { name: "space ends the mention", input: "@peer coin|", want: null },
    { name: "no @ at all", input: "what is raft|", want: null },
    { name: "caret before the @", input: "|@raft", want: null },
    { name: "second mention", input: "@a and @b|", want: { start: 7, end: 9, query: "b" } },
    { name: "unicode query", input: "@König|", want: { start: 0, end: 6, query: "König" } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const [text, at] = caret(c.input);
      expect(mentionAt(text, at)).toEqual(c.want);
    });
  }
});

describe("removeToken", () => {
  it("cuts the token and keeps one space", () => {
    const text = "compare @peer with bitcoin";
    const got = removeToken(text, { start: 8, end: 13, query: "peer" });
    expect(got).toEqual({ text: "compare with bitcoin", caret: 8 });
  });
  it("at the start of the text", () => {
    expect(removeToken("@raft why", { start: 0, end: 5, query: "raft" })).toEqual({ text: "why", caret: 0 });
  });
  it("at the end of the text", () => {
    expect(removeToken("why @raft", { start: 4, end: 9, query: "raft" })).toEqual({ text: "why ", caret: 4 });
  });
});

describe("literalMentions", () => {
  const cases: { name: string; text: string; want: string[] }[] = [
    { name: "plain path", text: "compare with @papers/peercoin please", want: ["papers/peercoin"] },
    { name: "quoted path with spaces", text: 'read @"notes/my notes/a.md" first', want: ["notes/my notes/a.md"] },
    { name: "trailing punctuation and slash dropped", text: "see @notes/consensus/. and @papers/raft?", want: ["notes/consensus", "papers/raft"] },
    { name: "several", text: "@a @b/c", want: ["a", "b/c"] },
    { name: "email is not a mention", text: "write to me@example.com", want: [] },
    { name: "lone @", text: "what is @ here", want: [] },
    { name: "empty quotes", text: 'x @"" y', want: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(literalMentions(c.text).map((m) => m.path)).toEqual(c.want);
    });
  }
  it("positions cover the whole token", () => {
    const text = 'a @"x y" b';
    const [m] = literalMentions(text);
    expect(text.slice(m.start, m.end)).toBe('@"x y"');
  });
});

describe("stripMentions", () => {
  it("removes the tokens and tidies spaces", () => {
    const text = "how does @papers/peercoin differ from @papers/bitcoin ?";
    expect(stripMentions(text, literalMentions(text))).toBe("how does differ from ?");
  });
});

describe("chips", () => {
  it("addMention dedupes by kind and path, ignoring a trailing slash", () => {
    let list = addMention([], { kind: "directory", path: "notes/consensus/" });
    list = addMention(list, { kind: "directory", path: "notes/consensus" });
    list = addMention(list, { kind: "paper", path: "notes/consensus" });
    expect(list).toEqual([
      { kind: "directory", path: "notes/consensus" },
      { kind: "paper", path: "notes/consensus" },
    ]);
    expect(removeMention(list, { kind: "paper", path: "notes/consensus" })).toEqual([{ kind: "directory", path: "notes/consensus" }]);
  });
  it("labels", () => {
    expect(mentionLabel({ kind: "paper", path: "papers/raft" }, "In Search of…")).toBe("In Search of…");
    expect(mentionLabel({ kind: "paper", path: "papers/raft" })).toBe("raft");
    expect(mentionLabel({ kind: "directory", path: "notes/consensus" })).toBe("consensus/");
    expect(mentionLabel({ kind: "file", path: "notes/a.md" })).toBe("a.md");
  });
});

describe("@vault", () => {
  it("is offered while the query could become vault, and labelled as the whole vault", async () => {
    const { vaultOffered, mentionLabel, VaultMention } = await import("./mentions");
    expect(vaultOffered("")).toBe(true);
    expect(vaultOffered("Va")).toBe(true);
    expect(vaultOffered("vault")).toBe(true);
    expect(vaultOffered("papers")).toBe(false);
    expect(mentionLabel(VaultMention)).toBe("Whole vault (this turn)");
  });
});
