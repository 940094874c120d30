import { describe, expect, it } from "vitest";
import { pageText, placeText, snippetHtml } from "./hit";

describe("snippetHtml", () => {
  const cases = [
    { name: "plain text", in: "consensus algorithm", want: "consensus algorithm" },
    { name: "markers become mark", in: "the \u0002leader\u0003 sends \u0002heartbeats\u0003", want: "the <mark>leader</mark> sends <mark>heartbeats</mark>" },
    {
      name: "script tags are escaped",
      in: "<script>alert('x')</script> \u0002raft\u0003",
      want: "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; <mark>raft</mark>",
    },
    { name: "markup inside a match is escaped", in: "\u0002<b>&\u0003", want: "<mark>&lt;b&gt;&amp;</mark>" },
    { name: "attribute quotes are escaped", in: '" onmouseover="x', want: "&quot; onmouseover=&quot;x" },
    { name: "unclosed marker is closed", in: "a \u0002b", want: "a <mark>b</mark>" },
    { name: "stray closing marker is dropped", in: "a\u0003 b", want: "a b" },
    { name: "nested opening marker is ignored", in: "\u0002a\u0002b\u0003", want: "<mark>ab</mark>" },
    { name: "other control characters are dropped", in: "a\u0000b\u0007c", want: "abc" },
  ];
  for (const c of cases) {
    it(c.name, () => expect(snippetHtml(c.in)).toBe(c.want));
  }
});

describe("pageText", () => {
  const cases = [
    { page: 5, pageLabel: "5", want: "p. 5" },
    { page: 5, pageLabel: "", want: "p. 5" },
    { page: 9, pageLabel: "iv", want: "p. iv (9)" },
  ];
  for (const c of cases) {
    it(`${c.page}/${c.pageLabel || "none"}`, () => expect(pageText(c)).toBe(c.want));
  }
});

describe("placeText", () => {
  it("names the section a hit falls in after its page", () =>
    expect(placeText({ page: 7, pageLabel: "7", section: "2.2 Choosing a Value" })).toBe("p. 7 · 2.2 Choosing a Value"));
  it("is the page alone before a paper's first section, or in a paper without sections", () =>
    expect(placeText({ page: 1, pageLabel: "", section: "" })).toBe("p. 1"));
});
