import { describe, expect, it } from "vitest";
import type { RelationCard, Relations } from "../lib/backend";
import { actionHint, cardAction, cardMeta, countText, initialRelations, matchText, reduceRelations, type RelationsState } from "./state";

function card(over: Partial<RelationCard>): RelationCard {
  return { title: "A paper", year: 0, doi: "", arxivId: "", paperPath: "", matchBy: "", citationUri: "", ...over };
}

// Cards as PaperRelations returns them (agentero relations on the e2e vault, plus a sidecar with a DOI and an arXiv id).
const bitcoin = card({ title: "Bitcoin: A Peer-to-Peer Electronic Cash System", year: 2008, paperPath: "papers/bitcoin", matchBy: "title", citationUri: "papers/bitcoin/bitcoin.pdf" });
const flp = card({ title: "Impossibility of distributed consensus with one faulty process", year: 1985, doi: "10.1145/3149.214121", citationUri: "https://doi.org/10.1145/3149.214121" });
const attention = card({ title: "Attention is all you need", year: 2017, arxivId: "1706.03762", citationUri: "https://arxiv.org/abs/1706.03762" });
const bmoney = card({ title: "b-money", year: 1998 });

describe("cardAction", () => {
  const cases: [string, RelationCard, ReturnType<typeof cardAction>][] = [
    ["a library paper opens in the viewer", bitcoin, { kind: "paper", ref: "papers/bitcoin", path: "papers/bitcoin/bitcoin.pdf" }],
    ["a DOI opens doi.org", flp, { kind: "external", url: "https://doi.org/10.1145/3149.214121", site: "doi.org" }],
    ["an arXiv id opens arxiv.org", attention, { kind: "external", url: "https://arxiv.org/abs/1706.03762", site: "arxiv.org" }],
    ["neither: not clickable", bmoney, { kind: "none" }],
    // A library paper with a DOI is still opened here, not in the browser.
    ["library first", card({ paperPath: "papers/x", doi: "10.1/x", citationUri: "papers/x/x.pdf" }), { kind: "paper", ref: "papers/x", path: "papers/x/x.pdf" }],
    ["a library paper without a PDF path opens by ref", card({ paperPath: "papers/x" }), { kind: "paper", ref: "papers/x", path: "" }],
    ["a vault path without a ref opens by path", card({ citationUri: "papers/y/y.pdf" }), { kind: "paper", ref: "", path: "papers/y/y.pdf" }],
    // The backend only opens doi.org and arxiv.org; anything else is not offered.
    ["another site is not clickable", card({ citationUri: "https://evil.example/x" }), { kind: "none" }],
    ["a javascript: URI is not clickable", card({ citationUri: "javascript:alert(1)" }), { kind: "none" }],
    ["a path out of the vault is not clickable", card({ citationUri: "../secret.pdf" }), { kind: "none" }],
    ["a DOI with no URI is not clickable", card({ doi: "10.1/x" }), { kind: "none" }],
  ];
  for (const [name, c, want] of cases) {
    it(name, () => expect(cardAction(c)).toEqual(want));
  }
});

describe("card words", () => {
  it("says what a click does", () => {
    expect(actionHint(cardAction(bitcoin))).toBe("in your library");
    expect(actionHint(cardAction(flp))).toBe("opens doi.org ↗");
    expect(actionHint(cardAction(attention))).toBe("opens arxiv.org ↗");
    expect(actionHint(cardAction(bmoney))).toBe("not in your library, no DOI/arXiv id");
  });

  it("says how a card matched", () => {
    const got = ["doi", "arxiv", "title", "sharedReferences", "text", "", "isbn"].map((m) => matchText(card({ matchBy: m })));
    expect(got).toEqual(["matched by DOI", "matched by arXiv id", "matched by title", "shares references", "similar text", "", "matched by isbn"]);
  });

  it("the second line has the year, the match and an outside work's identifier", () => {
    expect(cardMeta(bitcoin)).toBe("2008 · matched by title");
    expect(cardMeta(flp)).toBe("1985 · DOI 10.1145/3149.214121");
    expect(cardMeta(attention)).toBe("2017 · arXiv 1706.03762");
    expect(cardMeta(card({ matchBy: "text", paperPath: "papers/z", doi: "10.1/z" }))).toBe("similar text");
    expect(cardMeta(card({}))).toBe("");
  });

  it("a list cut at the limit says so", () => {
    expect(countText(0, 100)).toBe("0");
    expect(countText(99, 100)).toBe("99");
    expect(countText(100, 100)).toBe("100+");
  });
});

describe("reduceRelations", () => {
  const rels: Relations = { references: [bitcoin, bmoney], citedBy: [], related: [] };
  const open = (ref: string | null): RelationsState => reduceRelations(initialRelations, { type: "paper", ref });

  it("a new paper forgets the old relations; the same paper keeps them", () => {
    let s = reduceRelations(open("papers/peercoin"), { type: "request", seq: 1 });
    s = reduceRelations(s, { type: "loaded", seq: 1, relations: rels });
    expect(s.status).toBe("ready");
    expect(reduceRelations(s, { type: "paper", ref: "papers/peercoin" })).toBe(s);
    const other = reduceRelations(s, { type: "paper", ref: "papers/bitcoin" });
    expect(other.relations).toBeNull();
    expect(other.status).toBe("idle");
  });

  it("a reload keeps showing the relations until the new ones arrive", () => {
    let s = reduceRelations(open("papers/peercoin"), { type: "request", seq: 1 });
    s = reduceRelations(s, { type: "loaded", seq: 1, relations: rels });
    s = reduceRelations(s, { type: "request", seq: 2 });
    expect(s.status).toBe("loading");
    expect(s.relations).toBe(rels);
  });

  it("a late answer for an older request is dropped", () => {
    let s = reduceRelations(open("papers/a"), { type: "request", seq: 1 });
    s = reduceRelations(reduceRelations(s, { type: "paper", ref: "papers/b" }), { type: "request", seq: 2 });
    expect(reduceRelations(s, { type: "loaded", seq: 1, relations: rels })).toBe(s);
    expect(reduceRelations(s, { type: "failed", seq: 1, error: "x" })).toBe(s);
    const failed = reduceRelations(s, { type: "failed", seq: 2, error: "no such paper" });
    expect(failed.status).toBe("error");
    expect(failed.error).toBe("no such paper");
  });

  it("no paper: nothing is requested", () => {
    const s = open(null);
    expect(reduceRelations(s, { type: "request", seq: 1 })).toBe(s);
  });

  it("lists collapse and expand one by one, and stay so across papers", () => {
    let s = reduceRelations(open("papers/a"), { type: "toggle", kind: "references" });
    expect(s.expanded).toEqual({ references: false, citedBy: true, related: true });
    s = reduceRelations(s, { type: "paper", ref: "papers/b" });
    expect(s.expanded.references).toBe(false);
    s = reduceRelations(s, { type: "toggle", kind: "references" });
    expect(s.expanded.references).toBe(true);
  });
});
