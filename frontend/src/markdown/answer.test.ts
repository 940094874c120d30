// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAnswerView, renderAnswer, type AnswerOptions, type AnswerView, type CitationTarget } from "./answer";
import { inertProblems, sampleAnswer } from "./testdata/answers.mjs";

const views: AnswerView[] = [];

function mount(view: AnswerView): AnswerView {
  document.body.append(view.element);
  views.push(view);
  return view;
}

function render(text: string, options?: AnswerOptions): HTMLElement {
  return mount(renderAnswer(text, options)).element;
}

afterEach(() => {
  for (const v of views.splice(0)) {
    v.destroy();
    v.element.remove();
  }
  vi.useRealTimers();
});

const texts = (root: ParentNode, selector: string) => Array.from(root.querySelectorAll(selector), (e) => e.textContent ?? "");

function click(el: Element, type = "click", button = 0): MouseEvent {
  const event = new MouseEvent(type, { bubbles: true, cancelable: true, button });
  el.dispatchEvent(event);
  return event;
}

describe("Markdown", () => {
  it("renders the shared sample answer (the one e2e checks too)", () => {
    const el = render(sampleAnswer.text);
    const got = Object.fromEntries(Object.keys(sampleAnswer.expect).map((sel) => [sel, el.querySelectorAll(sel).length]));
    expect(got).toEqual(sampleAnswer.expect);
    expect(inertProblems(el)).toEqual([]);
  });

  it("draws headings, emphasis, strikethrough and code spans", () => {
    const el = render("# Title\n\n## Part *one*\n\nSome *em*, **strong**, ~~gone~~ and `x < y`.");
    expect(texts(el, "h1")).toEqual(["Title"]);
    expect(texts(el, "h2")).toEqual(["Part one"]);
    expect(texts(el, "h2 em")).toEqual(["one"]);
    expect(texts(el, "p em")).toEqual(["em"]);
    expect(texts(el, "strong")).toEqual(["strong"]);
    expect(texts(el, "s")).toEqual(["gone"]);
    expect(texts(el, "code")).toEqual(["x < y"]);
  });

  it("draws bullet, ordered and nested lists", () => {
    const el = render("- apples\n- pears\n  1. green\n  2. red\n\n3. third\n4. fourth");
    expect(texts(el, ":scope > ul > li > ol > li")).toEqual(["green", "red"]);
    expect(el.querySelector(":scope > ul")!.children.length).toBe(2);
    const ol = el.querySelector<HTMLOListElement>(":scope > ol")!;
    expect(ol.getAttribute("start")).toBe("3");
    expect(texts(ol, "li")).toEqual(["third", "fourth"]);
  });

  it("draws a table with its alignment", () => {
    const el = render("| Paper | Year | Pages |\n|:--|:-:|--:|\n| Raft | 2014 | 18 |\n| Paxos | 2001 | 14 |");
    expect(texts(el, "th")).toEqual(["Paper", "Year", "Pages"]);
    expect(texts(el, "tbody tr:nth-child(2) td")).toEqual(["Paxos", "2001", "14"]);
    const aligns = Array.from(el.querySelectorAll<HTMLElement>("tbody tr:first-child td"), (td) => td.style.textAlign);
    expect(aligns).toEqual(["left", "center", "right"]);
    expect(el.querySelector(".md-table > table")).not.toBeNull();
  });

  it("draws a fenced code block as text, with its language", () => {
    const el = render("```python\nif a < b and c > d:\n    print('<b>hi</b>')\n```");
    const code = el.querySelector("pre > code")!;
    expect(code.className).toBe("language-python");
    expect(code.textContent).toBe("if a < b and c > d:\n    print('<b>hi</b>')\n");
    expect(code.children.length).toBe(0);
  });

  it("keeps the agent's line breaks", () => {
    const el = render("first line\nsecond line");
    expect(el.querySelectorAll("p br").length).toBe(1);
  });

  it("opens https links through openExternal and never navigates", () => {
    const opened: string[] = [];
    const el = render("See [the spec](https://example.com/spec?a=1&b=2), <https://arxiv.org/abs/1234.5678> and https://doi.org/10.1/x.", {
      openExternal: (url) => opened.push(url),
    });
    const links = Array.from(el.querySelectorAll("a"));
    expect(links.map((a) => a.getAttribute("href"))).toEqual(["https://example.com/spec?a=1&b=2", "https://arxiv.org/abs/1234.5678", "https://doi.org/10.1/x"]);
    for (const a of links) {
      expect(a.getAttribute("rel")).toBe("noopener noreferrer");
      expect(click(a).defaultPrevented).toBe(true);
    }
    expect(opened).toEqual(["https://example.com/spec?a=1&b=2", "https://arxiv.org/abs/1234.5678", "https://doi.org/10.1/x"]);
    // A middle click does not open a second window either.
    expect(click(links[0], "auxclick", 1).defaultPrevented).toBe(true);
    expect(opened.length).toBe(3);
  });

  const notLinks: { name: string; text: string }[] = [
    { name: "http", text: "[x](http://example.com)" },
    { name: "mailto", text: "[x](mailto:a@b.c)" },
    { name: "relative", text: "[x](docs/readme)" },
    { name: "fragment", text: "[x](#top)" },
    { name: "javascript", text: "[x](javascript:alert(1))" },
    { name: "data", text: "[x](data:text/html,hi)" },
    { name: "file", text: "[x](file:///etc/passwd)" },
    { name: "vbscript", text: "[x](vbscript:msgbox)" },
    { name: "https without host", text: "[x](https://)" },
  ];
  for (const c of notLinks) {
    it(`leaves a ${c.name} link as text`, () => {
      const el = render(c.text);
      expect(el.querySelector("a, button")).toBeNull();
      expect(el.textContent).toBe(c.text);
    });
  }

  it("loads no images", () => {
    const el = render("![chart](https://example.com/chart.png)");
    expect(el.querySelector("img")).toBeNull();
    expect(el.textContent).toBe("!chart");
    expect(el.querySelector("a")!.getAttribute("href")).toBe("https://example.com/chart.png");
  });

  it("prints raw HTML as text", () => {
    const el = render("<b>bold</b> and <script>x()</script>");
    expect(el.querySelector("b, script")).toBeNull();
    expect(el.textContent).toBe("<b>bold</b> and <script>x()</script>");
  });
});

describe("math", () => {
  const tex = (el: Element) => texts(el, 'annotation[encoding="application/x-tex"]');

  it("typesets $…$ inline with KaTeX", () => {
    const el = render("Energy $E = mc^2$ holds.");
    const math = el.querySelector("p > .md-math .katex");
    expect(math).not.toBeNull();
    expect(tex(el)).toEqual(["E = mc^2"]);
    expect(el.querySelector(".katex-html")!.getAttribute("aria-hidden")).toBe("true");
  });

  it("typesets $$…$$ as display math, on its own lines or inline", () => {
    const el = render("Before\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\nand $$\\sqrt{2}$$ inline.");
    expect(el.querySelector(".md-math-block .katex-display")).not.toBeNull();
    expect(el.querySelector("p .md-math-display .katex-display")).not.toBeNull();
    expect(tex(el)).toEqual(["\\int_0^1 x^2\\,dx = \\frac{1}{3}", "\\sqrt{2}"]);
    // KaTeX draws the root sign as SVG; it survives the sanitizer.
    expect(el.querySelector(".md-math-display svg path")).not.toBeNull();
  });

  it("leaves prices and escaped dollars as text", () => {
    const el = render("It costs $5 and $10, or \\$x\\$ in TeX.");
    expect(el.querySelector(".katex")).toBeNull();
    expect(el.textContent).toBe("It costs $5 and $10, or $x$ in TeX.");
  });

  it("shows a formula KaTeX cannot read in its error style", () => {
    const el = render("Broken $\\frac{1}{$ here and $\\undefinedcommand x$.");
    expect(el.querySelector(".katex-error")).not.toBeNull();
  });

  it("shows an unclosed $$ as text", () => {
    const el = render("$$\n\\int x");
    expect(el.querySelector(".katex")).toBeNull();
    expect(el.textContent).toContain("$$");
  });

  it("does not let math span a blank line", () => {
    const el = render("$$\na\n\nb\n$$");
    expect(el.querySelector(".katex")).toBeNull();
  });
});

describe("source chips", () => {
  function chips(el: Element) {
    return Array.from(el.querySelectorAll<HTMLButtonElement>("button.md-cite"), (b) => ({
      text: b.textContent,
      uri: b.dataset.uri,
      path: b.dataset.citePath,
      page: b.dataset.citePage,
      quote: b.dataset.citeQuote,
    }));
  }

  it("turns a Markdown link to a vault PDF into a chip with its page and quote", () => {
    const el = render("Raft splits consensus [Raft, p. 3](papers/raft/paper.pdf#page=3&quote=Raft%20decomposes%20the%20consensus%20problem).");
    expect(chips(el)).toEqual([
      {
        text: "Raft, p. 3",
        uri: "papers/raft/paper.pdf#page=3&quote=Raft%20decomposes%20the%20consensus%20problem",
        path: "papers/raft/paper.pdf",
        page: "3",
        quote: "Raft decomposes the consensus problem",
      },
    ]);
    const b = el.querySelector("button.md-cite")!;
    expect(b.getAttribute("type")).toBe("button");
    expect(b.getAttribute("aria-label")).toBe("Raft, p. 3: Open paper.pdf, page 3 and highlight “Raft decomposes the consensus problem”");
    expect(el.querySelector("a")).toBeNull();
  });

  it("turns bare, bracketed and angle-bracketed citations into chips", () => {
    const el = render(
      "Bare papers/raft/paper.pdf#page=4&quote=leader+election, bracketed [papers/bitcoin/bitcoin.pdf#page=2] and <papers/paxos/paxos.pdf#page=9>.",
    );
    expect(chips(el)).toEqual([
      { text: "p. 4", uri: "papers/raft/paper.pdf#page=4&quote=leader+election", path: "papers/raft/paper.pdf", page: "4", quote: "leader election" },
      { text: "p. 2", uri: "papers/bitcoin/bitcoin.pdf#page=2", path: "papers/bitcoin/bitcoin.pdf", page: "2", quote: "" },
      { text: "p. 9", uri: "papers/paxos/paxos.pdf#page=9", path: "papers/paxos/paxos.pdf", page: "9", quote: "" },
    ]);
    expect(el.textContent).toBe("Bare p. 4, bracketed p. 2 and p. 9.");
  });

  it("finds chips in lists, tables and emphasis, and keeps links' markup inside", () => {
    const el = render(
      "- first papers/a/a.pdf#page=1\n\n| src |\n|---|\n| [papers/b/b.pdf#page=2] |\n\n*see papers/c/c.pdf#page=3*\n\n[**bold** words](papers/d/d.pdf#page=4)",
    );
    expect(chips(el).map((c) => c.page)).toEqual(["1", "2", "3", "4"]);
    expect(el.querySelector("button.md-cite strong")!.textContent).toBe("bold");
  });

  it("calls onCitation with the target when a chip is clicked", () => {
    const got: CitationTarget[] = [];
    const el = render("[x](papers/raft/paper.pdf#page=7&quote=R%26D%20%E2%80%94%20na%C3%AFve)", { onCitation: (t) => got.push(t) });
    const event = click(el.querySelector("button.md-cite strong, button.md-cite")!);
    expect(event.defaultPrevented).toBe(true);
    expect(got).toEqual([{ uri: "papers/raft/paper.pdf#page=7&quote=R%26D%20%E2%80%94%20na%C3%AFve", path: "papers/raft/paper.pdf", page: 7, quote: "R&D — naïve" }]);
  });

  it("names found chips with citationLabel", () => {
    const el = render("[papers/raft/paper.pdf#page=3] and [own text](papers/raft/paper.pdf#page=4)", {
      citationLabel: (t) => `Raft, p. ${t.page}`,
    });
    expect(texts(el, "button.md-cite")).toEqual(["Raft, p. 3", "own text"]);
  });

  it("keeps a vault path inside an external link's text as text (no nested controls)", () => {
    const el = render("[papers/a/a.pdf#page=2](https://example.com)");
    expect(el.querySelector("button")).toBeNull();
    expect(el.querySelector("a")!.textContent).toBe("papers/a/a.pdf#page=2");
  });

  it("makes bracketed doi.org and arxiv.org citations links, not chips", () => {
    const el = render("[https://doi.org/10.1145/1] [https://arxiv.org/abs/2401.01234]");
    expect(el.querySelector("button")).toBeNull();
    expect(Array.from(el.querySelectorAll("a"), (a) => a.getAttribute("href"))).toEqual(["https://doi.org/10.1145/1", "https://arxiv.org/abs/2401.01234"]);
  });

  const notChips = [
    "[1] and [sic]",
    "[x](papers/../../etc/passwd.pdf#page=1)",
    "[x](/etc/passwd.pdf)",
    "[x](.agentero/chats/x.pdf)",
    "papers/a/a.pdf#page=0",
    "`papers/a/a.pdf#page=1` in code",
    "```\npapers/a/a.pdf#page=1\n```",
  ];
  for (const text of notChips) {
    it(`makes no chip of ${JSON.stringify(text)}`, () => {
      expect(render(text).querySelector("button")).toBeNull();
    });
  }
});

describe("streaming", () => {
  // Each prefix drawn incrementally must equal the same prefix drawn from
  // scratch: the cut points (blank line, complete line) never change what a
  // full parse would draw.
  const answers: Record<string, string> = {
    mixed:
      "# Answer\n\nRaft has **three** roles [papers/raft/paper.pdf#page=3].\n\n- leader\n- follower\n\n- candidate\n\n1. one\n\n2. two\n\n" +
      "| a | b |\n|---|---|\n| 1 | $x^2$ |\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nSee [Raft](papers/raft/paper.pdf#page=5&quote=leader).\n\n" +
      "$$\n\\sum_i x_i\n$$\n\nA para\n===\n\n> quoted\n\nlazy\n\n    indented code\n\n    more\n\nend *emph* done",
    tricky:
      "para\n#hashtag\n\n1. a\n\n2\n\n2.\n\n- x\n\n  continued\n\npara two\n---\n\n$$\nnot closed\n\nnext\n$$\n\n```\nunclosed fence\n\nstill code",
    references: "[a][r] and [b][s]\n\ntext\n\n[r]: https://example.com/r\n[s]: papers/x/x.pdf#page=2\n\nafter [a][r]",
  };

  function fresh(text: string): string {
    const v = mount(createAnswerView());
    v.update(text);
    v.flush();
    return v.element.innerHTML;
  }

  // Chunks of one character try every cut point; jsdom makes that slow for the long answer.
  const steps: Record<string, number[]> = { mixed: [5, 17], tricky: [1, 3], references: [1, 7] };
  for (const [name, text] of Object.entries(answers)) {
    for (const step of steps[name]) {
      it(`draws ${name} in chunks of ${step} as a full parse would`, { timeout: 120_000 }, () => {
        const view = mount(createAnswerView());
        for (let at = step; at < text.length + step; at += step) {
          const prefix = text.slice(0, at);
          view.update(prefix);
          view.flush();
          expect(view.element.innerHTML, `after ${JSON.stringify(prefix.slice(-20))}`).toBe(fresh(prefix));
        }
        view.finish(text);
        expect(view.element.innerHTML).toBe(render(text).innerHTML);
      });
    }
  }

  // Random answers made of lines that start, continue or end blocks, cut
  // into random chunks: what streaming draws always equals a fresh draw.
  it("draws random answers in random chunks as a full parse would", { timeout: 120_000 }, () => {
    const lines = [
      "", "", "", "para text", "more *text", "end* here", "# heading", "#tag", "- item", "  nested", "1. first", "2", "2.", "3) x",
      "> quote", ">", "lazy", "```", "```js", "~~~", "    code", "$$", "$$ x^2 $$", "x = 1", "---", "===", "| a | b |", "|---|---|",
      "| 1 | 2 |", "[papers/a/a.pdf#page=2]", "see papers/b/b.pdf#page=3.", "[t](papers/c/c.pdf#page=4)", "<https://example.com>", "***", "\\",
    ];
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let doc = 0; doc < 12; doc++) {
      const text = Array.from({ length: 10 + rand(10) }, () => lines[rand(lines.length)]).join("\n");
      const view = mount(createAnswerView());
      for (let at = 0; at < text.length; ) {
        at = Math.min(text.length, at + 1 + rand(8));
        const prefix = text.slice(0, at);
        view.update(prefix);
        view.flush();
        expect(view.element.innerHTML, `doc ${doc} after ${JSON.stringify(prefix)}`).toBe(fresh(prefix));
      }
    }
  });

  it("keeps the nodes of blocks that did not change", () => {
    const view = mount(createAnswerView());
    view.update("First paragraph with $x$.\n\nSecond");
    view.flush();
    const first = view.element.firstElementChild;
    view.update("First paragraph with $x$.\n\nSecond paragraph, longer.\n\nThird");
    view.flush();
    expect(view.element.firstElementChild).toBe(first);
    expect(texts(view.element, "p").slice(1)).toEqual(["Second paragraph, longer.", "Third"]);
    view.finish("First paragraph with $x$.\n\nSecond paragraph, longer.\n\nThird and last.");
    expect(view.element.firstElementChild).toBe(first);
  });

  it("draws an unclosed fence as code until it closes", () => {
    const view = mount(createAnswerView());
    view.update("Code:\n\n```ts\nconst x = 1;\n// **not bold**");
    view.flush();
    expect(view.element.querySelector("pre code")!.textContent).toBe("const x = 1;\n// **not bold**");
    expect(view.element.querySelector("strong")).toBeNull();
    view.update("Code:\n\n```ts\nconst x = 1;\n// **not bold**\n```\n\nAfter **bold**");
    view.flush();
    expect(texts(view.element, "strong")).toEqual(["bold"]);
  });

  it("shows unclosed emphasis as written until it closes", () => {
    const view = mount(createAnswerView());
    view.update("This is **import");
    view.flush();
    expect(view.element.textContent).toBe("This is **import");
    view.update("This is **important**");
    view.flush();
    expect(texts(view.element, "strong")).toEqual(["important"]);
  });

  it("draws once per frame however many chunks arrive", () => {
    vi.useFakeTimers({ toFake: ["requestAnimationFrame", "cancelAnimationFrame", "setTimeout", "clearTimeout", "performance"] });
    const view = mount(createAnswerView());
    view.update("one");
    view.update("one two");
    view.update("one two three");
    expect(view.element.textContent).toBe("");
    vi.advanceTimersByTime(20);
    expect(view.element.textContent).toBe("one two three");
  });

  it("is aria-busy while it streams", () => {
    const view = mount(createAnswerView());
    view.update("Partial");
    expect(view.element.getAttribute("aria-busy")).toBe("true");
    view.finish("Partial answer.");
    expect(view.element.hasAttribute("aria-busy")).toBe(false);
  });

  it("draws text that got shorter (a trailing source list removed at the end)", () => {
    const view = mount(createAnswerView());
    view.update("Answer [papers/a/a.pdf#page=1].\n\nSources:\n- papers/a/a.pdf#page=1");
    view.flush();
    view.finish("Answer [papers/a/a.pdf#page=1].");
    expect(view.element.innerHTML).toBe(render("Answer [papers/a/a.pdf#page=1].").innerHTML);
  });

  it("stops after destroy", () => {
    const got: CitationTarget[] = [];
    const view = mount(createAnswerView({ onCitation: (t) => got.push(t) }));
    view.finish("[papers/a/a.pdf#page=1]");
    view.destroy();
    click(view.element.querySelector("button")!);
    view.update("changed");
    view.flush();
    expect(got).toEqual([]);
    expect(view.element.textContent).toBe("p. 1");
  });
});

describe("long answers", () => {
  const table = (rows: number) => `| # | v |\n|---|---|\n${Array.from({ length: rows }, (_, i) => `| ${i} | r${i} |`).join("\n")}\n\nAfter.`;

  it("draws the first rows of a long table, says how many are left, and draws all on request", () => {
    const el = render(table(12), { maxTableRows: 5 });
    expect(el.querySelectorAll("tbody tr").length).toBe(5);
    expect(el.querySelector(".md-table-note")!.textContent).toBe("Showing the first 5 of 12 rows (7 more in the answer’s text). Show all rows");
    expect(texts(el, "p").at(-1)).toBe("After.");
    click(el.querySelector('[data-md-action="all-rows"]')!);
    expect(el.querySelectorAll("tbody tr").length).toBe(12);
    expect(el.querySelector(".md-table-note")).toBeNull();
  });

  it("streams a table under the streaming cap, draws up to maxTableRows at the end", () => {
    const view = mount(createAnswerView());
    const text = table(300);
    view.update(text);
    view.flush();
    expect(view.element.querySelectorAll("tbody tr").length).toBe(200);
    expect(view.element.querySelector(".md-count")!.textContent).toBe("Showing the first 200 of 300 rows (100 more in the answer’s text).");
    view.finish(text);
    expect(view.element.querySelectorAll("tbody tr").length).toBe(300);
    expect(view.element.querySelector(".md-table-note")).toBeNull();
    // A late update keeps the final limits.
    view.update(text + " More.");
    view.flush();
    expect(view.element.querySelectorAll("tbody tr").length).toBe(300);
  });

  it("keeps all rows once asked, while the answer still streams", () => {
    const view = mount(createAnswerView({ maxTableRows: 3 }));
    const text = table(10);
    view.update(text.slice(0, text.indexOf("| 6 |")));
    view.flush();
    click(view.element.querySelector('[data-md-action="all-rows"]')!);
    expect(view.element.querySelectorAll("tbody tr").length).toBe(6);
    view.update(text);
    view.flush();
    expect(view.element.querySelectorAll("tbody tr").length).toBe(10);
    expect(view.element.querySelector(".md-table-note")).toBeNull();
  });

  it("keeps a capped table's rows while it streams and updates the count", () => {
    const view = mount(createAnswerView({ maxTableRows: 3 }));
    const text = table(10);
    view.update(text.slice(0, text.indexOf("| 6 |")));
    view.flush();
    const firstRow = view.element.querySelector("tbody tr");
    expect(view.element.querySelector(".md-count")!.textContent).toBe("Showing the first 3 of 6 rows (3 more in the answer’s text).");
    view.update(text);
    view.flush();
    expect(view.element.querySelector("tbody tr")).toBe(firstRow);
    expect(view.element.querySelector(".md-count")!.textContent).toBe("Showing the first 3 of 10 rows (7 more in the answer’s text).");
  });

  it("caps a 5,000-row table with a visible note", { timeout: 60_000 }, () => {
    const el = render(table(5000));
    expect(el.querySelectorAll("tbody tr").length).toBe(500);
    expect(el.querySelector(".md-table-note")!.textContent).toContain("Showing the first 500 of 5,000 rows");
    expect(texts(el, "p").at(-1)).toBe("After.");
  });

  it("shows what is past maxMarkdownChars as plain text, with a note", () => {
    const text = "**formatted** start\n\n" + "more *words* here\n".repeat(20);
    const el = render(text, { maxMarkdownChars: 60 });
    expect(texts(el, "strong")).toEqual(["formatted"]);
    expect(el.querySelector(".md-rest .md-note")!.textContent).toContain("too long to format");
    const plain = el.querySelector(".md-plain")!.textContent!;
    expect(plain.length).toBeGreaterThan(0);
    expect(text.length - plain.length).toBeLessThanOrEqual(60);
    expect(text.endsWith(plain)).toBe(true);
  });

  it("shows a block nested too deeply as text, with a note", () => {
    const el = render(`Intro\n\n${">".repeat(300)} deep text\n\nAfter`);
    expect(el.querySelector("pre.md-source")!.textContent).toContain("deep text");
    expect(el.querySelector(".md-note")!.textContent).toContain("Nested too deeply");
    expect(texts(el, "p").at(-1)).toBe("After");
  });

  it("leaves a huge paragraph unformatted while streaming and formats it at the end", () => {
    const long = "*a* ".repeat(6000);
    const view = mount(createAnswerView());
    view.update(long);
    view.flush();
    expect(view.element.querySelector(".md-deferred")).not.toBeNull();
    expect(view.element.querySelector("em")).toBeNull();
    view.finish(long);
    expect(view.element.querySelector(".md-deferred")).toBeNull();
    expect(view.element.querySelectorAll("em").length).toBe(6000);
  });
});
