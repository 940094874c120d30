import { describe, expect, it } from "vitest";
import type { PaperSummary } from "../lib/backend";
import { familyName, filterPapers, sortPapers } from "./order";

const paper = (ref: string, over: Partial<PaperSummary> = {}): PaperSummary => ({
  ref,
  title: ref,
  titleSource: "",
  authors: [],
  doi: "",
  arxivId: "",
  abstract: "",
  sha256: "",
  added: 0,
  tags: [],
  year: 0,
  pdfPath: `${ref}/paper.pdf`,
  pages: 1,
  noTextPages: 0,
  status: "ok",
  error: "",
  ...over,
});

const lib = [
  paper("papers/raft", { title: "In Search of an Understandable Consensus Algorithm", authors: ["Diego Ongaro", "John Ousterhout"], year: 2014, added: 3, tags: ["consensus"] }),
  paper("papers/bitcoin", { title: "Bitcoin: A Peer-to-Peer Electronic Cash System", authors: ["Satoshi Nakamoto"], year: 2008, added: 1 }),
  paper("papers/peercoin", { title: "PPCoin: Peer-to-Peer Crypto-Currency with Proof-of-Stake", authors: ["King, Sunny"], year: 2012, added: 2 }),
  paper("papers/untitled"),
];
const refs = (ps: PaperSummary[]) => ps.map((p) => p.ref.replace("papers/", ""));

describe("library order", () => {
  it("sorts by title, first author's family name, year and added", () => {
    // Case and a leading article are ignored: "papers/untitled" comes before "PPCoin".
    expect(refs(sortPapers(lib, "title"))).toEqual(["bitcoin", "raft", "untitled", "peercoin"]);
    expect(refs(sortPapers(lib, "author"))).toEqual(["peercoin", "bitcoin", "raft", "untitled"]);
    expect(refs(sortPapers(lib, "year"))).toEqual(["raft", "peercoin", "bitcoin", "untitled"]);
    expect(refs(sortPapers(lib, "added"))).toEqual(["raft", "peercoin", "bitcoin", "untitled"]);
  });

  it("reads family names both ways", () => {
    expect(familyName("Satoshi Nakamoto")).toBe("Nakamoto");
    expect(familyName("King, Sunny")).toBe("King");
  });

  it("filters over title, authors, year and tags, every word", () => {
    expect(refs(filterPapers(lib, "peer"))).toEqual(["bitcoin", "peercoin"]);
    expect(refs(filterPapers(lib, "nakamoto"))).toEqual(["bitcoin"]);
    expect(refs(filterPapers(lib, "2014"))).toEqual(["raft"]);
    expect(refs(filterPapers(lib, "CONSENSUS ongaro"))).toEqual(["raft"]);
    expect(refs(filterPapers(lib, "consensus nakamoto"))).toEqual([]);
    expect(filterPapers(lib, "  ")).toHaveLength(4);
  });
});
