// Answers for tests that render them: a Markdown sample with every kind of
// element, and hostile answers — what an agent (or a paper it quotes) might
// send to get code run or a live link into the app. Shared by the unit tests
// (src/markdown/*.test.ts, jsdom) and the Chromium e2e suite, which can send
// each text through a scripted agent and check the rendered answer in the
// real page:
//
//   import { hostileAnswers, inertProblems } from "../../frontend/src/markdown/testdata/answers.mjs";
//   const problems = await page.evaluate(inertProblems, '[data-testid="answer-text"]');
//   assert.deepEqual(problems, []);
//
// Every payload that could run runs SentinelScript: it sets window[Sentinel]
// and, for DOM-only environments like jsdom whose script globals the test
// cannot see, the data-agentero-pwned attribute of <html>.
// Plain JavaScript with no imports, so Node, Vite and the browser all load it.

/**
 * sampleAnswer is a well-formed answer; each selector in `expect` matches
 * what it must render (in the rendered answer, with the count given).
 */
export const sampleAnswer = {
  text: [
    "## Leader election",
    "",
    "Raft **decomposes** consensus [Raft, p. 3](papers/raft/paper.pdf#page=3&quote=Raft%20decomposes) and",
    "times out at random papers/raft/paper.pdf#page=6&quote=election+timeout, see [papers/paxos/paxos.pdf#page=2].",
    "",
    "1. Followers wait for heartbeats.",
    "2. A candidate asks for votes, winning with $\\lfloor n/2 \\rfloor + 1$.",
    "",
    "| Protocol | Year |",
    "|:--|--:|",
    "| Raft | 2014 |",
    "| Paxos | 1998 |",
    "",
    "$$",
    "\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}",
    "$$",
    "",
    "```go",
    "func elect() {}",
    "```",
    "",
    "More at [the site](https://raft.github.io).",
  ].join("\n"),
  expect: {
    "h2": 1,
    "ol > li": 2,
    "table th": 2,
    "table tbody tr": 2,
    "pre > code.language-go": 1,
    "li > .md-math .katex": 1,
    ".md-math-block .katex-display": 1,
    'button.md-cite[data-cite-page="3"][data-cite-quote="Raft decomposes"]': 1,
    'button.md-cite[data-cite-page="6"][data-cite-quote="election timeout"]': 1,
    'button.md-cite[data-cite-path="papers/paxos/paxos.pdf"][data-cite-page="2"]': 1,
    'a.md-link[href="https://raft.github.io"]': 1,
  },
};

/** Sentinel is the global every payload tries to set. */
export const Sentinel = "__agenteroPwned";

/** SentinelScript is what every payload runs. */
export const SentinelScript = `window.${Sentinel}=document.documentElement.dataset.agenteroPwned=1`;

const set = SentinelScript;
const setEnc = encodeURIComponent(set);

/** @type {{ name: string; text: string }[]} */
export const hostileAnswers = [
  // Raw HTML of every kind: markdown-it must print it as text.
  { name: "script tag", text: `Hello <script>${set}</script> world` },
  { name: "script block", text: `<script>\n${set}\n</script>\n\nafter` },
  { name: "script src", text: `<script src="https://example.com/x.js"></script>` },
  { name: "img onerror", text: `<img src=x onerror="${set}">` },
  { name: "img onerror inline", text: `A picture: <img src="x" onerror=${set}> inline` },
  { name: "svg onload", text: `<svg onload="${set}"><circle r="1"/></svg>` },
  { name: "svg script", text: `<svg><script>${set}</script></svg>` },
  { name: "svg animate href", text: `<svg><a><animate attributeName="href" values="javascript:${set}"/><text y="20">x</text></a></svg>` },
  { name: "svg use data", text: `<svg><use href="data:image/svg+xml;base64,PHN2ZyBpZD0neCcgeG1sbnM9J2h0dHA6Ly93d3cudzMub3JnLzIwMDAvc3ZnJz48L3N2Zz4=#x"/></svg>` },
  { name: "svg foreignObject", text: `<svg><foreignObject><img src=x onerror="${set}"></foreignObject></svg>` },
  { name: "iframe srcdoc", text: `<iframe srcdoc="<script>parent.${Sentinel}=1</script>"></iframe>` },
  { name: "iframe javascript", text: `<iframe src="javascript:${set}"></iframe>` },
  { name: "object data", text: `<object data="data:text/html,<script>${set}</script>"></object>` },
  { name: "embed", text: `<embed src="javascript:${set}">` },
  { name: "style tag", text: `<style>body{background:url("javascript:${set}")} *{display:none}</style>\n\nvisible` },
  { name: "style import", text: `<style>@import url(https://example.com/x.css);</style>` },
  { name: "style attribute", text: `<div style="background-image:url(javascript:${set})">styled</div>` },
  { name: "link stylesheet", text: `<link rel="stylesheet" href="https://example.com/x.css">` },
  { name: "meta refresh", text: `<meta http-equiv="refresh" content="0;url=javascript:${set}">` },
  { name: "base href", text: `<base href="javascript:${set}//">\n\n[rel](papers/raft/paper.pdf#page=1)` },
  { name: "form action", text: `<form action="javascript:${set}"><button>Go</button></form>` },
  { name: "button formaction", text: `<button formaction="javascript:${set}">Go</button>` },
  { name: "details ontoggle", text: `<details open ontoggle="${set}"><summary>x</summary></details>` },
  { name: "body onload", text: `<body onload="${set}">` },
  { name: "input autofocus onfocus", text: `<input autofocus onfocus="${set}">` },
  { name: "marquee onstart", text: `<marquee onstart="${set}">x</marquee>` },
  { name: "raw anchor", text: `<a href="javascript:${set}">click me</a>` },
  { name: "html comment", text: `<!-- <img src=x onerror="${set}"> -->text` },
  { name: "cdata", text: `<![CDATA[<img src=x onerror="${set}">]]>` },
  { name: "math mglyph mxss", text: `<math><mtext><table><mglyph><style><img src=x onerror="${set}">` },
  { name: "svg style mxss", text: `<svg></p><style><a id="</style><img src=1 onerror=${set}>">` },
  { name: "noscript mxss", text: `<noscript><p title="</noscript><img src=x onerror=${set}>">` },
  { name: "html in table cell", text: `| a | b |\n|---|---|\n| <img src=x onerror="${set}"> | <script>${set}</script> |` },
  { name: "html in heading and list", text: `# <img src=x onerror="${set}">\n\n- <svg onload="${set}">\n- [x](https://example.com)` },

  // Links a Markdown renderer might make live.
  { name: "javascript link", text: `[click](javascript:${set})` },
  { name: "javascript link mixed case", text: `[click](JaVaScRiPt:${set})` },
  { name: "javascript link leading space", text: `[click]( javascript:${set})` },
  { name: "javascript link angle", text: `[click](<javascript:${set}>)` },
  { name: "javascript link hex entity", text: `[click](jav&#x61;script:${set})` },
  { name: "javascript link decimal entity", text: `[click](jav&#97;script:${set})` },
  { name: "javascript link named entity colon", text: `[click](javascript&colon;${set})` },
  { name: "javascript link tab entity", text: `[click](java&Tab;script:${set})` },
  { name: "javascript link newline entity", text: `[click](java&NewLine;script:${set})` },
  { name: "javascript link escaped", text: `[click](java\\script:${set})` },
  { name: "javascript link percent", text: `[click](%6Aavascript:${set})` },
  { name: "javascript link zero width", text: `[click](java\u200bscript:${set})` },
  { name: "javascript link fullwidth", text: `[click](ｊａｖａｓｃｒｉｐｔ:${set})` },
  { name: "javascript link with title", text: `[click](javascript:${set} "title")` },
  { name: "javascript autolink", text: `<javascript:${set}>` },
  { name: "javascript autolink upper", text: `<JAVASCRIPT:${setEnc}>` },
  { name: "javascript reference", text: `[click][r]\n\n[r]: javascript:${set}` },
  { name: "javascript reference entity", text: `[click][r]\n\n[r]: &#x6A;avascript:${set}` },
  { name: "javascript bare", text: `javascript:${set}` },
  { name: "javascript image", text: `![img](javascript:${set})` },
  { name: "vbscript link", text: `[click](vbscript:msgbox(1))` },
  { name: "file link", text: `[passwd](file:///etc/passwd) and <file:///etc/passwd>` },
  { name: "data html link", text: `[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)` },
  { name: "data image", text: `![x](data:image/png;base64,iVBORw0KGgo=) and ![y](data:image/svg+xml,<svg onload=${set}>)` },
  { name: "data autolink", text: `<data:text/html,<script>${set}</script>>` },
  { name: "http link", text: `[plain http](http://example.com) <http://example.com>` },
  { name: "https image", text: `![tracker](https://example.com/pixel.png)` },
  { name: "title attribute breakout", text: `[x](https://example.com "a\\" onmouseover=\\"${set}")` },
  { name: "link text html", text: `[<img src=x onerror="${set}">](https://example.com)` },
  { name: "link in link", text: `[outer [inner](javascript:${set})](https://example.com)` },
  { name: "protocol relative", text: `[x](//example.com/x) <//example.com>` },
  { name: "mailto and tel", text: `[mail](mailto:a@b.c) [tel](tel:123) a@b.c` },

  // Entity tricks: they must come out as text, never as markup.
  { name: "escaped script", text: `&lt;script&gt;${set}&lt;/script&gt;` },
  { name: "numeric escaped script", text: `&#60;img src=x onerror="${set}"&#62;` },
  { name: "double escaped", text: `&amp;lt;script&amp;gt;${set}&amp;lt;/script&amp;gt;` },
  { name: "entity in code", text: "`&lt;script&gt;` and ```\n&lt;img onerror=x&gt;\n```" },

  // Citations that try to carry markup or leave the vault.
  { name: "citation quote with html", text: `See papers/raft/paper.pdf#page=1&quote=%3Cimg%20src%3Dx%20onerror%3D${setEnc}%3E.` },
  { name: "citation quote breaking attribute", text: `[p](papers/raft/paper.pdf#page=2&quote=%22%20onmouseover%3D%22${setEnc})` },
  { name: "citation path with javascript", text: `[p](papers/javascript:${set}/paper.pdf#page=1) and papers/javascript:x/paper.pdf#page=1` },
  { name: "citation escapes vault", text: `[p](papers/../../etc/passwd.pdf#page=1) [q](/etc/passwd.pdf) [r](.agentero/index.sqlite) [papers/%2e%2e/x.pdf#page=1]` },

  // KaTeX: trust is off, so none of these may produce links, classes or fetches.
  { name: "katex href", text: `$\\href{javascript:${set}}{click}$` },
  { name: "katex url", text: `$$\\url{javascript:${set}}$$` },
  { name: "katex html extensions", text: `$\\htmlClass{md-cite}{x}$ $\\htmlId{x}{y}$ $\\htmlData{cite-uri=x}{y}$ $\\htmlStyle{background:url(https://example.com/x)}{y}$` },
  { name: "katex includegraphics", text: `$\\includegraphics{https://example.com/x.png}$` },
  { name: "katex color injection", text: `$\\color{red;background:url(https://example.com/x)}{x}$` },
  { name: "katex macro bomb", text: `$$\\def\\a{\\a\\a}\\a$$ and $\\def\\b#1{#1#1}\\b{\\b{\\b{\\b{\\b{\\b{\\b{\\b{\\b{\\b{x}}}}}}}}}}$` },
  { name: "katex deep nesting", text: `$${"{".repeat(5000)}x${"}".repeat(5000)}$` },
  { name: "katex html in formula", text: `$<img src=x onerror="${set}">$ and $$</span><script>${set}</script>$$` },

  // Streaming leftovers and sizes.
  { name: "unclosed fence", text: "Some code:\n\n```html\n<script>" + set + "</script>\n<img src=x onerror=\"" + set + "\">" },
  { name: "unclosed emphasis and link", text: `**bold _and [a link](https://exa` },
  { name: "unclosed math", text: `$$\n\\int <img src=x onerror="${set}">` },
  { name: "unclosed html", text: `<img src=x onerror="${set}"` },
  { name: "deep blockquotes", text: `${">".repeat(5000)} deep` },
  { name: "deep lists", text: Array.from({ length: 300 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n") },
  { name: "many brackets", text: "[".repeat(20000) + "x" + "]".repeat(20000) },
  { name: "many emphasis markers", text: "*_".repeat(5000) },
  { name: "many dollars", text: "$a ".repeat(10000) },
  {
    name: "table of 5000 rows",
    text:
      `| # | cell | link |\n|---|---|---|\n` +
      Array.from({ length: 5000 }, (_, i) => `| ${i} | <img src=x onerror="${set}"> | [x](javascript:${set}) |`).join("\n") +
      "\n\nAfter the table.",
  },
];

/**
 * inertProblems lists what is live in the rendered answer at root (an
 * element or a selector): the sentinel set, a script-capable or embedding
 * element, an on* attribute, a non-https href, a URL attribute with a
 * javascript:, vbscript:, data: or file: value, or a style that fetches.
 * It must stay self-contained (no closures): Playwright sends its source.
 * @param {Element | string} rootOrSelector
 * @returns {string[]}
 */
export function inertProblems(rootOrSelector) {
  const sentinel = "__agenteroPwned";
  const problems = [];
  const roots =
    typeof rootOrSelector === "string" ? Array.from(document.querySelectorAll(rootOrSelector)) : [rootOrSelector];
  if (roots.length === 0) problems.push(`nothing matches ${String(rootOrSelector)}`);
  const first = roots[0];
  const view = (first && first.ownerDocument && first.ownerDocument.defaultView) || window;
  const html = (first && first.ownerDocument ? first.ownerDocument : document).documentElement;
  if (view[sentinel] !== undefined || window[sentinel] !== undefined || html.hasAttribute("data-agentero-pwned")) {
    problems.push(`window.${sentinel} was set`);
  }
  const banned = new Set([
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "style", "link", "meta", "base",
    "form", "input", "textarea", "select", "img", "image", "video", "audio", "source", "picture", "template",
    "foreignobject", "use", "animate", "set", "animatetransform", "animatemotion", "mglyph", "annotation-xml",
    "noscript", "marquee", "portal", "dialog",
  ]);
  const urlAttrs = new Set([
    "src", "srcset", "srcdoc", "action", "formaction", "data", "poster", "background", "cite", "ping",
    "longdesc", "lowsrc", "dynsrc", "codebase", "manifest", "usemap", "profile", "icon", "xlink:href", "from", "to", "values",
  ]);
  const scheme = /^(?:javascript|vbscript|data|file):/i;
  for (const root of roots) {
    for (const el of [root, ...Array.from(root.querySelectorAll("*"))]) {
      const tag = el.localName.toLowerCase();
      if (banned.has(tag)) problems.push(`<${tag}> element`);
      for (const attr of Array.from(el.attributes)) {
        const name = attr.name.toLowerCase();
        const value = attr.value.replace(/[\u0000-\u0020\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g, "");
        if (name.startsWith("on")) problems.push(`<${tag} ${name}>`);
        if (name === "href" && !/^https:\/\//i.test(value)) problems.push(`<${tag} href="${attr.value.slice(0, 60)}">`);
        if ((urlAttrs.has(name) || name.endsWith(":href")) && (scheme.test(value) || name === "srcdoc")) {
          problems.push(`<${tag} ${name}="${attr.value.slice(0, 60)}">`);
        }
        if (name === "style" && /url\(|expression\(|@import|javascript:/i.test(value)) problems.push(`<${tag} style="${attr.value.slice(0, 60)}">`);
      }
    }
  }
  return problems;
}
