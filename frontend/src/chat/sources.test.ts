import { describe, expect, it } from "vitest";
import { formatCitation } from "../lib/citation";
import { cardQuotes, citedQuotes, openingWords, sourceLabel, sourceLink, sourceLinks, splitAnswer, withoutSourceList } from "./sources";

// The built-in agent's answer format (backend/agent/answer.go).
const builtin = `These passages in your sources best match “double spending”:

1. “…The problem of course is the payee can't verify that one of the owners did not double-spend the coin. A common solution…”
   — Bitcoin: A Peer-to-Peer Electronic Cash System, page 2 [papers/bitcoin/bitcoin.pdf#page=2]

2. “We propose a solution to the double-spending problem using a peer-to-peer network.”
   — Bitcoin: A Peer-to-Peer Electronic Cash System, page 1 [papers/bitcoin/bitcoin.pdf#page=1]

Sources:
- papers/bitcoin/bitcoin.pdf#page=2
- papers/bitcoin/bitcoin.pdf#page=1
`;

describe("citedQuotes", () => {
  it("takes the passage quoted before each citation, not the question", () => {
    const got = citedQuotes(builtin);
    expect(Object.fromEntries(got)).toEqual({
      "papers/bitcoin/bitcoin.pdf#page=2": "The problem of course is the payee can't verify that one of the owners did not double-spend the coin. A common solution",
      "papers/bitcoin/bitcoin.pdf#page=1": "We propose a solution to the double-spending problem using a peer-to-peer network.",
    });
  });

  it("straight quotes work too", () => {
    const got = citedQuotes('Raft says "a leader is elected" [papers/raft/raft.pdf#page=5].');
    expect(got.get("papers/raft/raft.pdf#page=5")).toBe("a leader is elected");
  });

  it("a citation with no quote before it gets none", () => {
    const got = citedQuotes("See “x y z” [papers/a/a.pdf#page=1] and also [papers/b/b.pdf#page=2].");
    expect(got.get("papers/a/a.pdf#page=1")).toBe("x y z");
    expect(got.has("papers/b/b.pdf#page=2")).toBe(false);
  });
});

describe("splitAnswer", () => {
  it("links citations and leaves other brackets alone", () => {
    const parts = splitAnswer("As shown [1] and [sic], see [papers/raft/raft.pdf#page=3] or [https://doi.org/10.1/x].");
    expect(parts.filter((p) => "uri" in p).map((p) => ("uri" in p ? p.uri : ""))).toEqual([
      "papers/raft/raft.pdf#page=3",
      "https://doi.org/10.1/x",
    ]);
    expect(parts.map((p) => p.text).join("")).toBe("As shown [1] and [sic], see [papers/raft/raft.pdf#page=3] or [https://doi.org/10.1/x].");
  });

  it("a bracket that is a reported source is a citation even without an extension", () => {
    const parts = splitAnswer("see [notes/README]", ["notes/README"]);
    expect(parts[1]).toEqual({ text: "[notes/README]", uri: "notes/README" });
  });

  it("unsafe paths are not links", () => {
    expect(splitAnswer("[../../etc/passwd.txt] [javascript:alert(1)]").every((p) => !("uri" in p))).toBe(true);
  });
});

describe("sourceLinks", () => {
  it("reported sources first, with the quote the answer gives next to them", () => {
    const links = sourceLinks(builtin, ["papers/bitcoin/bitcoin.pdf#page=2", "papers/bitcoin/bitcoin.pdf#page=1"]);
    expect(links.map((l) => l.quote)).toEqual([
      "The problem of course is the payee can't verify that one of the owners did not double-spend the coin. A common solution",
      "We propose a solution to the double-spending problem using a peer-to-peer network.",
    ]);
    expect(links[0].target).toBe(
      formatCitation({ path: "papers/bitcoin/bitcoin.pdf", page: 2, quote: "The problem of course is the payee can't verify that one of the owners did not double-spend the coin. A common solution" }),
    );
  });

  it("adds sources the text cites but the backend did not report, once", () => {
    const links = sourceLinks("“a b c” [papers/a/a.pdf#page=4] “d” [papers/a/a.pdf#page=4]", []);
    expect(links).toHaveLength(1);
    expect(links[0].quote).toBe("a b c");
  });

  it("keeps a quote the URI already carries", () => {
    const links = sourceLinks("“other words” [papers/a/a.pdf#page=2&quote=given]", ["papers/a/a.pdf#page=2&quote=given"]);
    expect(links[0].quote).toBe("given");
  });

  it("a source reported by its page takes the quote of the answer's citation of that page with &quote=, and is listed once", () => {
    const text = "“Proof-of-work is one-CPU-one-vote” [papers/b/b.pdf#page=3&quote=Proof-of-work+is+one-CPU-one-vote]";
    const links = sourceLinks(text, ["papers/b/b.pdf#page=3"]);
    expect(links).toHaveLength(1);
    expect(links[0].uri).toBe("papers/b/b.pdf#page=3");
    expect(links[0].quote).toBe("Proof-of-work is one-CPU-one-vote");
  });

  it("drops sources that cannot be opened, keeps external ones", () => {
    const links = sourceLinks("", ["/etc/passwd", "https://example.com/x", "https://arxiv.org/abs/2401.01234", "notes/a.md"]);
    expect(links.map((l) => l.target)).toEqual(["https://arxiv.org/abs/2401.01234", "notes/a.md#page=1"]);
  });
});

describe("labels and words", () => {
  it("openingWords strips snippet ellipses and keeps n words", () => {
    expect(openingWords("…one two three…", 2)).toBe("one two");
    expect(openingWords("... one two ...")).toBe("one two");
    expect(openingWords("")).toBe("");
  });

  it("sourceLabel", () => {
    const title = (p: string) => (p === "papers/raft/raft.pdf" ? "Raft" : "");
    expect(sourceLabel(sourceLink("papers/raft/raft.pdf#page=3", "")!, title)).toBe("Raft, p. 3");
    expect(sourceLabel(sourceLink("papers/x/x.pdf#page=2", "")!, title)).toBe("x.pdf, p. 2");
    expect(sourceLabel(sourceLink("notes/a.md", "")!, title)).toBe("a.md");
    expect(sourceLabel(sourceLink("https://doi.org/10.1145/1", "")!, title)).toBe("DOI 10.1145/1");
    expect(sourceLabel(sourceLink("https://arxiv.org/abs/2401.01234", "")!, title)).toBe("arXiv 2401.01234");
  });
});

describe("withoutSourceList", () => {
  it("drops the built-in agent's trailing list", () => {
    const got = withoutSourceList(builtin);
    expect(got.endsWith("[papers/bitcoin/bitcoin.pdf#page=1]")).toBe(true);
    expect(got).not.toMatch(/Sources:/);
  });
  it("keeps a list that is not only URIs", () => {
    const text = "Answer.\n\nSources:\n- the Raft paper\n- papers/raft/raft.pdf#page=2\n";
    expect(withoutSourceList(text)).toBe(text);
  });
  it("keeps text with no list", () => {
    expect(withoutSourceList("Just an answer.")).toBe("Just an answer.");
  });
});

describe("cardQuotes", () => {
  it("a figure card gives its page the caption: its source opens the page with the caption marked", () => {
    const figure = JSON.stringify({
      cards: [
        {
          ref: "papers/1706.03762",
          title: "Attention Is All You Need",
          page: 3,
          snippet: "Figure 1: The Transformer - model architecture.",
          citationUri: "papers/1706.03762/1706.03762.pdf#page=3",
          kind: "figure",
          label: "Figure 1",
          region: { x: 104.6, y: 36.6, width: 403.6, height: 380.9 },
          open: { tool: "context_read", arguments: { ref: "papers/1706.03762", mode: "image", page: 3 } },
        },
      ],
      omitted: 0,
    });
    const read = cardQuotes([figure]);
    expect(Object.fromEntries(read)).toEqual({ "papers/1706.03762/1706.03762.pdf#3": "Figure 1: The Transformer - model architecture." });
    expect(sourceLink("papers/1706.03762/1706.03762.pdf#page=3", "", read)?.quote).toBe("Figure 1: The Transformer - model architecture.");
  });

  // What agentero-context's context_search returns (SPEC §13), as a tool call's text content.
  const search = JSON.stringify({
    cards: [
      { ref: "papers/raft", title: "Raft", page: 5, snippet: "…election. \u0002Raft\u0003 uses randomized election timeouts to ensure that split votes are rare … and resolved quickly", citationUri: "papers/raft/raft.pdf#page=5" },
      { ref: "papers/raft", title: "Raft", page: 5, snippet: "a second card on the same page", citationUri: "papers/raft/raft.pdf#page=5" },
      { ref: "https://doi.org/10.1/x", snippet: "external", citationUri: "https://doi.org/10.1/x" },
    ],
    omitted: 0,
  });

  it("maps each page to the opening words of its first card's longest run", () => {
    expect(Object.fromEntries(cardQuotes([search, "not json", "{broken"]))).toEqual({
      "papers/raft/raft.pdf#5": "Raft uses randomized election timeouts to ensure that split votes are rare",
    });
  });

  it("a link the answer quotes nothing for highlights what the tools returned for its page", () => {
    const read = cardQuotes([search]);
    const [link] = sourceLinks("In *Raft* ([p. 5](papers/raft/raft.pdf#page=5)).", ["papers/raft/raft.pdf#page=5"], read);
    expect(link.quote).toBe("Raft uses randomized election timeouts to ensure that split votes are rare");
    // The answer's own quote wins.
    const [quoted] = sourceLinks("“split votes are rare” [papers/raft/raft.pdf#page=5]", ["papers/raft/raft.pdf#page=5"], read);
    expect(quoted.quote).toBe("split votes are rare");
    // Another page has no passage.
    expect(sourceLink("papers/raft/raft.pdf#page=6", "", read)?.quote).toBe("");
  });
});

describe("a source that is a figure or a table", () => {
  const fig = "papers/raft/raft.pdf#page=2&region=69,36.6,243.8,196.7";
  it("keeps the region the backend's source names, with the quote the answer gives", () => {
    const answer = `1. “Replicated state machines are used to solve fault tolerance problems.”\n   — Raft, page 2 [${fig}&quote=Replicated+state+machines]\n`;
    const [link] = sourceLinks(answer, [fig]);
    expect(link.region).toEqual({ x: 69, y: 36.6, width: 243.8, height: 196.7 });
    expect(link.target).toBe(formatCitation({ path: "papers/raft/raft.pdf", page: 2, quote: link.quote, region: link.region }));
    expect(link.target).toContain("region=69,36.6,243.8,196.7");
  });
  it("takes the region the answer cites the page with when the backend's source names none", () => {
    const [link] = sourceLinks(`Figure 1 [papers/raft/raft.pdf#page=2&region=10,20,30,40] shows it.`, ["papers/raft/raft.pdf#page=2"]);
    expect(link.uri).toBe("papers/raft/raft.pdf#page=2");
    expect(link.region).toEqual({ x: 10, y: 20, width: 30, height: 40 });
    expect(link.target).toBe("papers/raft/raft.pdf#page=2&region=10,20,30,40");
  });
  it("has none for a page cited without one, nor from an impossible region", () => {
    expect(sourceLinks("It [papers/raft/raft.pdf#page=2].", ["papers/raft/raft.pdf#page=2"])[0].region).toBeUndefined();
    expect(sourceLinks("It [papers/raft/raft.pdf#page=2&region=14000,0,900,10].", [])[0].region).toBeUndefined();
    expect(sourceLink("papers/raft/raft.pdf#page=3", "", new Map(), undefined)?.target).toBe("papers/raft/raft.pdf#page=3");
  });
});
