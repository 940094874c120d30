import { describe, expect, it } from "vitest";
import { citedFile, formatCitation, MaxQuote, parseCitation, parseRegion, type Citation } from "./citation";

describe("parseCitation", () => {
  const cases: { name: string; uri: string; want: Citation | null }[] = [
    {
      name: "page only",
      uri: "papers/raft/paper.pdf#page=3",
      want: { kind: "vault", path: "papers/raft/paper.pdf", page: 3, quote: "" },
    },
    {
      name: "no fragment opens page 1",
      uri: "papers/paxos-made-simple/paper.pdf",
      want: { kind: "vault", path: "papers/paxos-made-simple/paper.pdf", page: 1, quote: "" },
    },
    {
      name: "page and percent-encoded quote",
      uri: "papers/raft/paper.pdf#page=3&quote=Raft%20decomposes%20the%20consensus%20problem",
      want: { kind: "vault", path: "papers/raft/paper.pdf", page: 3, quote: "Raft decomposes the consensus problem" },
    },
    {
      name: "plus in quote is a space (Go url.QueryEscape)",
      uri: "papers/raft/paper.pdf#page=5&quote=leader+election",
      want: { kind: "vault", path: "papers/raft/paper.pdf", page: 5, quote: "leader election" },
    },
    {
      name: "quote with encoded ampersand, hash and unicode",
      uri: "papers/x/paper.pdf#quote=R%26D%20%231%20%E2%80%94%20na%C3%AFve&page=12",
      want: { kind: "vault", path: "papers/x/paper.pdf", page: 12, quote: "R&D #1 — naïve" },
    },
    {
      name: "encoded path segments are decoded",
      uri: "papers/my%20paper/K%C3%B6nig%202020.pdf#page=2",
      want: { kind: "vault", path: "papers/my paper/König 2020.pdf", page: 2, quote: "" },
    },
    {
      name: "raw spaces in the path are kept",
      uri: "papers/my paper/paper.pdf#page=4",
      want: { kind: "vault", path: "papers/my paper/paper.pdf", page: 4, quote: "" },
    },
    {
      name: "unknown fragment keys are ignored",
      uri: "papers/raft/paper.pdf#page=2&zoom=150",
      want: { kind: "vault", path: "papers/raft/paper.pdf", page: 2, quote: "" },
    },
    {
      name: "non-PDF vault files parse too",
      uri: "notes/consensus/summary.md",
      want: { kind: "vault", path: "notes/consensus/summary.md", page: 1, quote: "" },
    },
    {
      name: "doi.org is external",
      uri: "https://doi.org/10.1145/3335772.3335934",
      want: { kind: "external", url: "https://doi.org/10.1145/3335772.3335934" },
    },
    {
      name: "arxiv.org abs is external",
      uri: "https://arxiv.org/abs/2401.01234",
      want: { kind: "external", url: "https://arxiv.org/abs/2401.01234" },
    },
    { name: "empty", uri: "", want: null },
    { name: "blank", uri: "   ", want: null },
    { name: "absolute path", uri: "/etc/passwd#page=1", want: null },
    { name: "parent directory", uri: "papers/../../secret.pdf", want: null },
    { name: "encoded parent directory", uri: "papers/%2E%2E/secret.pdf", want: null },
    { name: "encoded slash inside a segment", uri: "papers/a%2F..%2F..%2Fx.pdf", want: null },
    { name: "empty segment", uri: "papers//paper.pdf", want: null },
    { name: "backslashes", uri: "papers\\raft\\paper.pdf", want: null },
    { name: "agentero state folder", uri: ".agentero/index.sqlite", want: null },
    { name: "page zero", uri: "papers/raft/paper.pdf#page=0", want: null },
    { name: "negative page", uri: "papers/raft/paper.pdf#page=-2", want: null },
    { name: "page not a number", uri: "papers/raft/paper.pdf#page=three", want: null },
    { name: "fractional page", uri: "papers/raft/paper.pdf#page=2.5", want: null },
    { name: "malformed escape in path", uri: "papers/100%/paper.pdf", want: null },
    { name: "malformed escape in fragment", uri: "papers/raft/paper.pdf#page=1&quote=50%", want: null },
    { name: "other https host", uri: "https://example.com/papers/raft.pdf", want: null },
    { name: "doi.org over http", uri: "http://doi.org/10.1145/1", want: null },
    { name: "arxiv pdf link is not allowed", uri: "https://arxiv.org/pdf/2401.01234", want: null },
    { name: "bare doi.org", uri: "https://doi.org/", want: null },
    { name: "javascript scheme", uri: "javascript:alert(1)", want: null },
    { name: "file scheme", uri: "file:///home/me/papers/raft/paper.pdf", want: null },
    { name: "windows drive", uri: "C:/papers/raft/paper.pdf", want: null },
    // What agents and the MCP tools write (SPEC §1, index.CitationURI).
    {
      name: "quote without a page opens page 1",
      uri: "papers/raft/paper.pdf#quote=leader%20election",
      want: { kind: "vault", path: "papers/raft/paper.pdf", page: 1, quote: "leader election" },
    },
    { name: "empty fragment", uri: "papers/raft/paper.pdf#", want: { kind: "vault", path: "papers/raft/paper.pdf", page: 1, quote: "" } },
    {
      name: "surrounding whitespace is ignored",
      uri: "  papers/raft/paper.pdf#page=2 \n",
      want: { kind: "vault", path: "papers/raft/paper.pdf", page: 2, quote: "" },
    },
    { name: "page with a leading zero", uri: "papers/raft/paper.pdf#page=03", want: null },
    { name: "page beyond any real paper", uri: "papers/raft/paper.pdf#page=1234567", want: null },
    { name: "agentero state folder, encoded", uri: "%2Eagentero/index.sqlite", want: null },
    { name: "NUL byte in a segment", uri: "papers/a%00b/paper.pdf", want: null },
    { name: "doi with a path and query characters", uri: "https://doi.org/10.1002/(SICI)1097-4571", want: { kind: "external", url: "https://doi.org/10.1002/(SICI)1097-4571" } },
    { name: "external link with a space", uri: "https://doi.org/10.1/a b", want: null },
    { name: "arxiv over http", uri: "http://arxiv.org/abs/2401.01234", want: null },
    { name: "doi.org look-alike host", uri: "https://doi.org.evil.com/10.1/x", want: null },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(parseCitation(c.uri)).toEqual(c.want);
    });
  }

  it("caps the quote at the prompt limit", () => {
    const got = parseCitation(`papers/a/paper.pdf#page=1&quote=${"x".repeat(MaxQuote + 50)}`);
    expect(got?.kind === "vault" && got.quote.length).toBe(MaxQuote);
  });
});

describe("formatCitation", () => {
  it("round-trips through parseCitation", () => {
    const want = { path: "papers/my paper/paper.pdf", page: 7, quote: "a & b = c #1" };
    expect(parseCitation(formatCitation(want))).toEqual({ kind: "vault", ...want });
  });

  it("round-trips paths with #, ? and % in them", () => {
    const want = { path: "papers/c# 100%?/paper.pdf", page: 2, quote: "50% of #1?" };
    expect(parseCitation(formatCitation(want))).toEqual({ kind: "vault", ...want });
  });

  it("omits an empty quote", () => {
    expect(formatCitation({ path: "papers/raft/paper.pdf", page: 1 })).toBe("papers/raft/paper.pdf#page=1");
  });
});

describe("citedFile", () => {
  const cases: { name: string; uri: string; want: Citation | null }[] = [
    { name: "a PDF page", uri: "papers/raft/paper.pdf#page=3", want: { kind: "vault", path: "papers/raft/paper.pdf", page: 3, quote: "" } },
    { name: "a note", uri: "notes/consensus/raft.md", want: { kind: "vault", path: "notes/consensus/raft.md", page: 1, quote: "" } },
    { name: "a DOI", uri: "https://doi.org/10.1145/1", want: { kind: "external", url: "https://doi.org/10.1145/1" } },
    { name: "a footnote", uri: "1", want: null },
    { name: "a word", uri: "sic", want: null },
    { name: "a folder", uri: "papers/raft", want: null },
    { name: "a file at the root", uri: "paper.pdf", want: null },
    { name: "an extension too long", uri: "papers/raft/paper.longextension", want: null },
    { name: "leaving the vault", uri: "papers/../../etc/passwd.pdf", want: null },
    { name: "another scheme", uri: "javascript:alert(1)//a/b.pdf", want: null },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(citedFile(c.uri)).toEqual(c.want);
    });
  }
});

describe("citations of a region of a page (a figure, a table)", () => {
  it("reads the region with its page, and writes it back", () => {
    const c = parseCitation("papers/a/a.pdf#page=3&region=72,96.5,230,180&quote=Figure+2");
    expect(c).toEqual({ kind: "vault", path: "papers/a/a.pdf", page: 3, quote: "Figure 2", region: { x: 72, y: 96.5, width: 230, height: 180 } });
    if (c?.kind !== "vault") throw new Error("not a vault citation");
    expect(formatCitation(c)).toBe("papers/a/a.pdf#page=3&region=72,96.5,230,180&quote=Figure%202");
    expect(parseCitation(formatCitation(c))).toEqual(c);
  });
  it("rounds what it writes to a tenth of a point, and writes no region that can lie on no page", () => {
    expect(formatCitation({ path: "p/a.pdf", page: 2, region: { x: 72.04, y: 96.45, width: 230, height: 180.333 } })).toBe("p/a.pdf#page=2&region=72,96.5,230,180.3");
    expect(formatCitation({ path: "p/a.pdf", page: 2, region: { x: -3, y: 0, width: 10, height: 10 } })).toBe("p/a.pdf#page=2");
    expect(formatCitation({ path: "p/a.pdf", page: 2, region: { x: 0, y: 0, width: 0, height: 10 } })).toBe("p/a.pdf#page=2");
  });
  it("refuses a malformed region and drops an impossible one", () => {
    expect(parseCitation("p/a.pdf#page=1&region=1,2,3")).toBeNull();
    expect(parseCitation("p/a.pdf#page=1&region=1,2,3,4&region=1,2,3,4")).toBeNull();
    expect(parseCitation("p/a.pdf#page=1&region=1e3,2,3,4")).toBeNull();
    expect(parseCitation("p/a.pdf#page=1&region=14000,0,401,20")).toEqual({ kind: "vault", path: "p/a.pdf", page: 1, quote: "" });
    expect(parseRegion("10,10,0,5")).toBeNull();
  });
});
