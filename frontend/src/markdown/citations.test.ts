import { describe, expect, it } from "vitest";
import { defaultLabel, describeTarget, findCitations, vaultTarget } from "./citations";

describe("findCitations", () => {
  const cases: { name: string; text: string; want: { uri: string; cut: string; page?: number; quote?: string; url?: string }[] }[] = [
    {
      name: "bare with page and quote",
      text: "as shown in papers/raft/paper.pdf#page=3&quote=Raft%20decomposes.",
      want: [{ uri: "papers/raft/paper.pdf#page=3&quote=Raft%20decomposes", cut: "papers/raft/paper.pdf#page=3&quote=Raft%20decomposes", page: 3, quote: "Raft decomposes" }],
    },
    {
      name: "bracketed (the thread's own form)",
      text: "Leaders are elected [papers/raft/paper.pdf#page=5].",
      want: [{ uri: "papers/raft/paper.pdf#page=5", cut: "[papers/raft/paper.pdf#page=5]", page: 5, quote: "" }],
    },
    {
      name: "bracketed with spaces in the path",
      text: "see [papers/my paper/paper.pdf#page=4]",
      want: [{ uri: "papers/my paper/paper.pdf#page=4", cut: "[papers/my paper/paper.pdf#page=4]", page: 4 }],
    },
    {
      name: "angle brackets",
      text: "<papers/raft/paper.pdf#page=2>",
      want: [{ uri: "papers/raft/paper.pdf#page=2", cut: "<papers/raft/paper.pdf#page=2>", page: 2 }],
    },
    {
      name: "in parentheses, a quote with its own parenthesis",
      text: "(papers/x/x.pdf#page=7&quote=see%20(Fig.%202)) and more",
      want: [{ uri: "papers/x/x.pdf#page=7&quote=see%20(Fig.%202)", cut: "papers/x/x.pdf#page=7&quote=see%20(Fig.%202)", page: 7, quote: "see (Fig. 2)" }],
    },
    {
      name: "bare PDF without a page opens page 1",
      text: "The paper papers/bitcoin/bitcoin.pdf, in short",
      want: [{ uri: "papers/bitcoin/bitcoin.pdf", cut: "papers/bitcoin/bitcoin.pdf", page: 1 }],
    },
    {
      name: "two in a row",
      text: "papers/a/a.pdf#page=1 papers/b/b.pdf#page=2",
      want: [
        { uri: "papers/a/a.pdf#page=1", cut: "papers/a/a.pdf#page=1", page: 1 },
        { uri: "papers/b/b.pdf#page=2", cut: "papers/b/b.pdf#page=2", page: 2 },
      ],
    },
    {
      name: "bracketed doi is an external link",
      text: "[https://doi.org/10.1145/3335772.3335934]",
      want: [{ uri: "https://doi.org/10.1145/3335772.3335934", cut: "[https://doi.org/10.1145/3335772.3335934]", url: "https://doi.org/10.1145/3335772.3335934" }],
    },
    { name: "footnote-like brackets", text: "as [1] and [sic] say", want: [] },
    { name: "prose with a slash", text: "read/write access and and/or", want: [] },
    { name: "bare non-PDF without a page", text: "see notes/consensus/raft.md for more", want: [] },
    { name: "bracketed non-PDF file", text: "[notes/consensus/raft.md]", want: [{ uri: "notes/consensus/raft.md", cut: "[notes/consensus/raft.md]", page: 1 }] },
    { name: "a path glued to a word", text: "ref:papers/a/a.pdf#page=1 and x.y/a/a.pdf#page=1", want: [{ uri: "x.y/a/a.pdf#page=1", cut: "x.y/a/a.pdf#page=1", page: 1 }] },
    { name: "leaving the vault", text: "papers/../../etc/passwd.pdf#page=1 and [/etc/x.pdf] and [.agentero/x/index.pdf]", want: [] },
    { name: "an external URL is not a vault path", text: "https://example.com/papers/x.pdf#page=2", want: [] },
    { name: "bad page", text: "papers/a/a.pdf#page=0", want: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = findCitations(c.text).map((f) => {
        const out: { uri: string; cut: string; page?: number; quote?: string; url?: string } = { uri: f.uri, cut: c.text.slice(f.start, f.end) };
        if (f.citation.kind === "vault") {
          out.page = f.citation.page;
          if (c.want.some((w) => w.quote !== undefined)) out.quote = f.citation.quote;
        } else {
          out.url = f.citation.url;
        }
        return out;
      });
      expect(got).toEqual(c.want);
    });
  }

  it("finds nothing in long runs of path-like text", () => {
    // citations.bench.ts measures how the scan grows with such text.
    const text = ",a/".repeat(3000) + " " + "a/".repeat(3000) + " papers/x/x.pdf#page=2";
    expect(findCitations(text).map((f) => f.uri)).toEqual(["papers/x/x.pdf#page=2"]);
  });
});

describe("vaultTarget", () => {
  it("needs a file with an extension under a folder", () => {
    expect(vaultTarget("papers/raft/paper.pdf#page=2")).toEqual({ uri: "papers/raft/paper.pdf#page=2", path: "papers/raft/paper.pdf", page: 2, quote: "" });
    expect(vaultTarget("paper.pdf")).toBeNull();
    expect(vaultTarget("papers/raft")).toBeNull();
    expect(vaultTarget("https://doi.org/10.1/x")).toBeNull();
    expect(vaultTarget("javascript:alert(1)")).toBeNull();
  });
});

describe("labels", () => {
  it("names the page of a PDF and the file otherwise", () => {
    expect(defaultLabel({ uri: "", path: "papers/raft/paper.pdf", page: 3, quote: "" })).toBe("p. 3");
    expect(defaultLabel({ uri: "", path: "notes/a/raft.md", page: 1, quote: "" })).toBe("raft.md");
    expect(describeTarget({ uri: "", path: "papers/raft/paper.pdf", page: 3, quote: "Raft decomposes" })).toBe("Open paper.pdf, page 3 and highlight “Raft decomposes”");
  });
});
