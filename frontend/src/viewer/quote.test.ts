import { describe, expect, it } from "vitest";
import { findQuote, foldText, segments } from "./quote";

// matched returns the text a match covers, joined across items.
function matched(items: string[], quote: string): string | null {
  const m = findQuote(items, quote);
  if (!m) return null;
  return segments(items, m)
    .map((s) => items[s.item].slice(s.from, s.to))
    .join("|");
}

describe("findQuote", () => {
  const page = [
    "In Search of an Understandable ",
    "Consensus Algorithm",
    "Raft is a consensus algorithm for managing a replicated",
    "log. It produces a result equivalent to (multi-)Paxos, and",
    "it is as efficient as Paxos, but its structure is differ-",
    "ent from Paxos; this makes Raft more understandable",
  ];

  const cases: { name: string; items: string[]; quote: string; want: string | null }[] = [
    { name: "inside one item", items: page, quote: "managing a replicated", want: "managing a replicated" },
    { name: "across items", items: page, quote: "a replicated log. It produces", want: "a replicated|log. It produces" },
    { name: "case-insensitive", items: page, quote: "RAFT IS A CONSENSUS", want: "Raft is a consensus" },
    { name: "collapsed and odd whitespace", items: page, quote: "  Understandable\n\tConsensus   Algorithm ", want: "Understandable |Consensus Algorithm" },
    { name: "hyphenated at a line end", items: page, quote: "its structure is different from Paxos", want: "its structure is differ-|ent from Paxos" },
    { name: "hyphenation kept in the quote", items: page, quote: "is differ- ent from", want: "is differ-|ent from" },
    { name: "first match wins", items: page, quote: "Paxos", want: "Paxos" },
    { name: "trailing ellipsis of a cut quote", items: page, quote: "Raft is a consensus algorithm…", want: "Raft is a consensus algorithm" },
    { name: "not on the page", items: page, quote: "Byzantine generals", want: null },
    { name: "empty quote", items: page, quote: "   ", want: null },
    { name: "empty page", items: [], quote: "Raft", want: null },
    { name: "page of blank items", items: [" ", ""], quote: "Raft", want: null },
  ];
  for (const c of cases) {
    it(c.name, () => expect(matched(c.items, c.quote)).toBe(c.want));
  }

  it("reports the exact item offsets", () => {
    expect(findQuote(page, "a replicated log")).toEqual({
      start: { item: 2, offset: 43 },
      end: { item: 3, offset: 3 },
      partial: false,
    });
  });

  it("matches ligatures, accents and curly quotes", () => {
    const items = ["the \ufb01rst “naïve” approach"];
    expect(matched(items, 'first "naive" approach')).toBe("\ufb01rst “naïve” approach");
  });

  it("falls back to the quote's opening words when the rest runs onto the next page", () => {
    const m = findQuote(page, "it is as efficient as Paxos, but its structure continues on the following page");
    expect(m?.partial).toBe(true);
    expect(matched(page, "it is as efficient as Paxos, but its structure continues on the following page")).toBe(
      "it is as efficient as Paxos, but",
    );
  });

  it("does not fall back to a prefix too short to mean anything", () => {
    expect(findQuote(page, "Raft zzz qqq")).toBeNull();
  });

  it("handles characters outside the BMP", () => {
    const items = ["set 𝒜 of nodes"];
    expect(matched(items, "of nodes")).toBe("of nodes");
    expect(matched(items, "𝒜 of")).toBe("𝒜 of");
  });
});

describe("foldText", () => {
  it("drops whitespace, dashes and soft hyphens and lower-cases", () => {
    expect(foldText("Multi-\u00adPaxos — Fast\u2010Path")).toBe("multipaxosfastpath");
  });
});
