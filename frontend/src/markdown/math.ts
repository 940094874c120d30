// Math in answers: $…$ inline and $$…$$ display, typeset by KaTeX. The
// delimiters follow Pandoc's rules so that prices ("$5 and $10") stay text:
// an opening $ is followed by a non-space, a closing $ follows a non-space
// and is not followed by a digit. Display math may not span a blank line, so
// a block closed later never swallows paragraphs rendered before it.

import katex from "katex";
import type { MarkdownIt, StateBlock, StateInline } from "markdown-it";

/** MaxTexLength is the longest formula typeset; longer ones are shown as code. */
export const MaxTexLength = 4000;

const Dollar = 0x24;
const Backslash = 0x5c;

/** mathPlugin adds the math_inline and math_block rules and their renderers to md. */
export function mathPlugin(md: MarkdownIt): void {
  md.inline.ruler.after("escape", "math_inline", mathInline);
  md.block.ruler.after("fence", "math_block", mathBlock, { alt: ["paragraph", "reference", "blockquote", "list"] });
  md.renderer.rules.math_inline = (tokens, idx) => {
    const t = tokens[idx];
    const html = typeset(t.content, t.markup === "$$");
    return t.markup === "$$" ? `<span class="md-math md-math-display">${html}</span>` : `<span class="md-math">${html}</span>`;
  };
  md.renderer.rules.math_block = (tokens, idx) => `<div class="md-math md-math-block">${typeset(tokens[idx].content, true)}</div>\n`;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

// mathInline reads $…$ or $$…$$ inside a paragraph. It gives up (leaving the
// dollar as text) at the first unescaped dollar that cannot close, so a run of
// dollars costs one scan.
function mathInline(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  const max = state.posMax;
  if (src.charCodeAt(start) !== Dollar) return false;
  const display = src.charCodeAt(start + 1) === Dollar;
  const from = start + (display ? 2 : 1);
  if (from >= max) return false;
  if (!display && isSpace(src.charCodeAt(from))) return false;

  let close = -1;
  for (let i = from; i < max; i++) {
    const c = src.charCodeAt(i);
    if (c === Backslash) {
      i++;
      continue;
    }
    if (c !== Dollar) continue;
    if (display) {
      if (src.charCodeAt(i + 1) === Dollar) close = i;
    } else if (!isSpace(src.charCodeAt(i - 1)) && !isDigit(src.charCodeAt(i + 1))) {
      close = i;
    }
    break;
  }
  if (close < 0) return false;
  const content = src.slice(from, close);
  if (content.trim() === "") return false;
  if (!silent) {
    const token = state.push("math_inline", "math", 0);
    token.content = content.trim();
    token.markup = display ? "$$" : "$";
  }
  state.pos = close + (display ? 2 : 1);
  return true;
}

// mathBlock reads a display formula whose first line starts with $$ and whose
// last line ends with $$ (the same line or a later one, no blank line between).
function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const begin = state.bMarks[startLine] + state.tShift[startLine];
  const first = state.src.slice(begin, state.eMarks[startLine]).trimEnd();
  if (!first.startsWith("$$")) return false;
  const rest = first.slice(2);
  const lines: string[] = [];
  let last = startLine;
  if (rest.length >= 2 && rest.endsWith("$$") && !rest.slice(0, -2).includes("$$")) {
    lines.push(rest.slice(0, -2));
  } else {
    if (rest.includes("$$")) return false; // "$$a$$ and more": inline math in a paragraph
    lines.push(rest);
    let found = false;
    for (let line = startLine + 1; line < endLine; line++) {
      if (state.isEmpty(line) || state.sCount[line] < state.blkIndent) return false;
      const text = state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]).trimEnd();
      if (text.endsWith("$$")) {
        const body = text.slice(0, -2);
        if (body.includes("$$")) return false;
        lines.push(body);
        last = line;
        found = true;
        break;
      }
      if (text.includes("$$")) return false;
      lines.push(text);
    }
    if (!found) return false;
  }
  const content = lines.join("\n").trim();
  if (content === "") return false;
  if (silent) return true;
  const token = state.push("math_block", "math", 0);
  token.block = true;
  token.content = content;
  token.markup = "$$";
  token.map = [startLine, last + 1];
  state.line = last + 1;
  return true;
}

// KaTeX output for a formula depends only on the formula and the mode, and
// the last block of a streaming answer is typeset again on every chunk, so
// recent results are kept.
const cache = new Map<string, string>();
const CacheSize = 500;

/**
 * typeset renders one formula to HTML with KaTeX: trust off (no \href,
 * \url, \includegraphics, \html…), macro expansion and sizes bounded. A
 * formula KaTeX cannot parse is shown in its error style; one it cannot
 * render at all, or one too long, as code.
 */
export function typeset(tex: string, display: boolean): string {
  const key = `${display ? "D" : "I"}${tex}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  let html: string;
  if (tex.length > MaxTexLength) {
    html = fallback(tex, display, "This formula is too long to typeset.");
  } else {
    try {
      html = katex.renderToString(tex, {
        displayMode: display,
        throwOnError: false,
        trust: false,
        strict: "ignore",
        output: "htmlAndMathml",
        maxSize: 20,
        maxExpand: 500,
      });
    } catch {
      html = fallback(tex, display, "This formula could not be typeset.");
    }
  }
  if (cache.size >= CacheSize) cache.delete(cache.keys().next().value as string);
  cache.set(key, html);
  return html;
}

function fallback(tex: string, display: boolean, why: string): string {
  const source = display ? `$$${tex}$$` : `$${tex}$`;
  return `<code class="md-math-error" title="${escapeHtml(why)}">${escapeHtml(source)}</code>`;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
