// The Markdown dialect of answers, on markdown-it: CommonMark plus GitHub's
// tables and strikethrough, raw HTML off, no images (nothing is fetched),
// line breaks kept as the agent wrote them, $…$ / $$…$$ math, citation URIs
// as source chips, and only https: links. What this file emits is HTML for
// the sanitizer (sanitize.ts), never for the page directly.

import MarkdownItFactory from "markdown-it";
import type { MarkdownIt, Env, StateBlock, StateCore, Token } from "markdown-it";
import { defaultLabel, describeTarget, findCitations, vaultTarget, type CitationTarget } from "./citations";
import { mathPlugin } from "./math";

/** AnswerEnv is what one parse needs besides the text. */
export interface AnswerEnv extends Env {
  /** Table body rows drawn before the rest is left out with a note; Infinity draws all. */
  maxTableRows: number;
  /** Names a chip found in text ("p. 3"); a Markdown link keeps its own text. */
  label: (t: CitationTarget) => string;
  /**
   * Paragraph (inline) text longer than this is shown as plain text instead
   * of being formatted: while streaming, a pathological paragraph (tens of
   * thousands of brackets or emphasis marks) would otherwise be parsed and
   * laid out again on every chunk. Infinity formats everything.
   */
  deferInline: number;
}

/** TableCap is what table_close carries when rows were left out: counts and the lines skipped [from, to). */
export interface TableCap {
  shown: number;
  hidden: number;
  from: number;
  to: number;
}

let instance: MarkdownIt | null = null;

/** parser is the one markdown-it instance answers are read with (built on first use). */
export function parser(): MarkdownIt {
  instance ??= build();
  return instance;
}

function build(): MarkdownIt {
  const md = MarkdownItFactory({ html: false, linkify: true, breaks: true, typographer: false, langPrefix: "language-" });
  md.disable(["image", "html_inline", "html_block"]);
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  for (const schema of ["http:", "ftp:", "mailto:", "//"]) md.linkify.add(schema, null);

  const normalize = md.normalizeLink.bind(md);
  // A URI with a scheme is normalised as usual (punycode, escapes); a vault
  // path is kept as written so that its chip names the URI the agent gave.
  md.normalizeLink = (url) => (hasScheme(url) ? normalize(url) : url);
  // A link is a link only when it goes to https: or names a vault file; any
  // other destination (javascript:, data:, file:, vbscript:, http:, mailto:,
  // relative paths, …) leaves the Markdown as text.
  md.validateLink = (url) => httpsUrl(url) !== null || vaultTarget(url) !== null;

  mathPlugin(md);
  capTables(md);
  md.core.ruler.after("block", "defer_long_inline", deferLongInline);
  md.core.ruler.after("block", "too_deep", tooDeep);
  md.core.ruler.push("source_chips", sourceChips);
  rendererRules(md);
  return md;
}

function hasScheme(url: string): boolean {
  return /^\s*[a-z][a-z0-9+.-]*:/i.test(url);
}

/** httpsUrl returns url when it is a well-formed https: URL with a host, else null. */
export function httpsUrl(url: string): string | null {
  if (!/^https:\/\//i.test(url) || /[\s\u0000-\u001f\u007f]/.test(url)) return null;
  try {
    const u = new URL(url);
    return u.protocol === "https:" && u.hostname !== "" ? url : null;
  } catch {
    return null;
  }
}

// --- source chips ----------------------------------------------------------

// sourceChips turns links to vault files into chip_open/chip_close around
// their text, and citations found in plain text into chip tokens. Text inside
// a link or chip is left alone: interactive elements never nest.
function sourceChips(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== "inline" || !block.children) continue;
    const out: Token[] = [];
    let depth = 0;
    let chip = false;
    for (const t of block.children) {
      if (t.type === "link_open") {
        depth++;
        const target = vaultTarget(String(t.attrGet("href") ?? ""));
        if (depth === 1 && target) {
          t.type = "chip_open";
          t.meta = { target };
          chip = true;
        }
        out.push(t);
        continue;
      }
      if (t.type === "link_close") {
        depth--;
        if (depth === 0 && chip) {
          t.type = "chip_close";
          chip = false;
        }
        out.push(t);
        continue;
      }
      if (t.type !== "text" || depth > 0) {
        out.push(t);
        continue;
      }
      splitText(state, t, out);
    }
    block.children = labelChips(out, state.env as AnswerEnv);
  }
}

function splitText(state: StateCore, t: Token, out: Token[]): void {
  const found = findCitations(t.content);
  if (found.length === 0) {
    out.push(t);
    return;
  }
  let at = 0;
  const text = (s: string) => {
    if (s === "") return;
    const tok = new state.Token("text", "", 0);
    tok.content = s;
    tok.level = t.level;
    out.push(tok);
  };
  for (const f of found) {
    text(t.content.slice(at, f.start));
    if (f.citation.kind === "external") {
      const open = new state.Token("link_open", "a", 1);
      open.attrs = [["href", f.citation.url]];
      open.markup = "citation";
      out.push(open);
      text(f.uri);
      out.push(new state.Token("link_close", "a", -1));
    } else {
      const chip = new state.Token("chip", "button", 0);
      chip.meta = { target: { uri: f.uri, path: f.citation.path, page: f.citation.page, quote: f.citation.quote } };
      out.push(chip);
    }
    at = f.end;
  }
  text(t.content.slice(at));
}

// labelChips gives each chip its visible text: a found citation's label, or
// the words of a link's own text (for the accessible name, which must start
// with what the reader sees).
function labelChips(tokens: Token[], env: AnswerEnv): Token[] {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const meta = t.meta as { target?: CitationTarget; label?: string } | null;
    if (!meta?.target) continue;
    if (t.type === "chip") {
      meta.label = labelOf(env, meta.target);
      continue;
    }
    let text = "";
    for (let j = i + 1; j < tokens.length && tokens[j].type !== "chip_close"; j++) {
      if (tokens[j].type === "text" || tokens[j].type === "code_inline" || tokens[j].type === "math_inline") text += tokens[j].content;
    }
    meta.label = text.trim() || labelOf(env, meta.target);
  }
  return tokens;
}

function labelOf(env: AnswerEnv, t: CitationTarget): string {
  try {
    return env.label(t) || defaultLabel(t);
  } catch {
    return defaultLabel(t);
  }
}

// deferLongInline marks inline content over env.deferInline characters so
// that the inline parser skips it and the renderer prints it as text.
function deferLongInline(state: StateCore): void {
  const limit = (state.env as AnswerEnv).deferInline;
  if (!Number.isFinite(limit)) return;
  for (const t of state.tokens) {
    if (t.type === "inline" && t.content.length > limit) t.type = "md_deferred";
  }
}

// tooDeep keeps the text of a block nested as deep as markdown-it goes
// (maxNesting): past that depth markdown-it drops the rest of the block, so
// such a block is shown as its source text, with a note, instead.
function tooDeep(state: StateCore): void {
  const limit = state.md.options.maxNesting - 1;
  if (!state.tokens.some((t) => t.level >= limit)) return;
  const lines = state.src.split("\n");
  const out: Token[] = [];
  for (const b of blocksOf(state.tokens)) {
    const slice = state.tokens.slice(b.from, b.to);
    if (!slice.some((t) => t.level >= limit)) {
      out.push(...slice);
      continue;
    }
    const plain = new state.Token("md_too_deep", "pre", 0);
    plain.block = true;
    plain.map = [b.line, b.endLine];
    plain.content = lines.slice(b.line, Math.max(b.endLine, b.line + 1)).join("\n");
    out.push(plain);
  }
  state.tokens.length = 0;
  state.tokens.push(...out);
}

// --- long tables ---------------------------------------------------------------

// capTables wraps markdown-it's table rule: a table is read up to
// env.maxTableRows body rows, the rows after those are skipped the way the
// rule would have ended the table, and their count is kept on table_close
// for the note. Reading is what costs (about 0.1 ms a row), so the cap
// bounds the work, not only the drawing.
function capTables(md: MarkdownIt): void {
  const probe = MarkdownItFactory();
  probe.block.ruler.enableOnly(["table"]);
  const [table] = probe.block.ruler.getRules("");
  md.block.ruler.at(
    "table",
    (state, startLine, endLine, silent) => {
      const max = (state.env as AnswerEnv).maxTableRows;
      if (silent || !Number.isFinite(max)) return table(state, startLine, endLine, silent);
      const limit = Math.min(endLine, startLine + 2 + Math.max(0, max));
      const open = state.tokens.length;
      if (!table(state, startLine, limit, false)) return false;
      if (limit === endLine || state.line < limit) return true;
      const end = tableEnd(state, state.line, endLine);
      const hidden = end - state.line;
      if (hidden === 0) return true;
      const close = state.tokens[state.tokens.length - 1];
      const cap: TableCap = { shown: state.line - startLine - 2, hidden, from: state.line, to: end };
      close.meta = { ...cap };
      if (state.tokens[open].map) state.tokens[open].map![1] = end;
      state.line = end;
      return true;
    },
    { alt: ["paragraph", "reference"] },
  );
}

// tableEnd finds where a table that reached its cap at line `from` would
// have ended: at a blank or less indented line, a line that starts another
// block, or an indented code line, as markdown-it's table rule decides.
function tableEnd(state: StateBlock, from: number, endLine: number): number {
  const terminators = state.md.block.ruler.getRules("blockquote");
  const parent = state.parentType;
  state.parentType = "table";
  let line = from;
  for (; line < endLine; line++) {
    if (state.sCount[line] < state.blkIndent) break;
    if (terminators.some((rule) => rule(state, line, endLine, true))) break;
    if (state.isEmpty(line)) break;
    if (state.sCount[line] - state.blkIndent >= 4) break;
  }
  state.parentType = parent;
  return line;
}

// --- rendering ---------------------------------------------------------------

function rendererRules(md: MarkdownIt): void {
  const esc = md.utils.escapeHtml;
  const rules = md.renderer.rules;

  rules.link_open = (tokens, idx) => {
    const href = String(tokens[idx].attrGet("href") ?? "");
    if (httpsUrl(href) === null) return "<span>";
    return `<a href="${esc(href)}" class="md-link" rel="noopener noreferrer" title="${esc(`${href}\nOpens in your browser.`)}">`;
  };
  rules.link_close = (tokens, idx) => {
    for (let i = idx - 1; i >= 0; i--) {
      if (tokens[i].type === "link_open") return httpsUrl(String(tokens[i].attrGet("href") ?? "")) === null ? "</span>" : "</a>";
    }
    return "</span>";
  };
  rules.chip_open = (tokens, idx) => chipOpen(tokens[idx], esc);
  rules.chip_close = () => "</button>";
  rules.chip = (tokens, idx) => {
    const meta = tokens[idx].meta as { label: string };
    return `${chipOpen(tokens[idx], esc)}${esc(meta.label)}</button>`;
  };

  rules.table_open = () => `<div class="md-table"><table>\n`;
  rules.table_close = (tokens, idx) => {
    const cap = tokens[idx].meta as TableCap | null;
    if (!cap) return "</table></div>\n";
    return (
      `</table></div>\n<p class="md-note md-table-note" role="note"><span class="md-count">${esc(tableNote(cap))}</span> ` +
      `<button type="button" class="md-show-rows" data-md-action="all-rows">Show all rows</button></p>\n`
    );
  };
  rules.md_too_deep = (tokens, idx) =>
    `<p class="md-note" role="note">Nested too deeply to format: shown as text.</p>\n<pre class="md-source">${esc(tokens[idx].content)}</pre>\n`;
  rules.md_deferred = (tokens, idx) =>
    `<span class="md-deferred" title="Long text: formatted when the answer is complete.">${esc(tokens[idx].content)}</span>`;
}

/** tableNote says how much of a long table is drawn. */
export function tableNote(cap: Pick<TableCap, "shown" | "hidden">): string {
  const n = (x: number) => x.toLocaleString("en");
  return `Showing the first ${n(cap.shown)} of ${n(cap.shown + cap.hidden)} rows (${n(cap.hidden)} more in the answer’s text).`;
}

function chipOpen(t: Token, esc: (s: string) => string): string {
  const meta = t.meta as { target: CitationTarget; label: string };
  const c = meta.target;
  const title = c.quote ? `${c.uri}\nHighlights “${c.quote}”` : c.uri;
  const label = `${meta.label}: ${describeTarget(c)}`;
  return (
    `<button type="button" class="md-cite" data-testid="cite" data-uri="${esc(c.uri)}" data-cite-path="${esc(c.path)}" ` +
    `data-cite-page="${c.page}" data-cite-quote="${esc(c.quote)}" title="${esc(title)}" aria-label="${esc(label)}">`
  );
}

// --- blocks --------------------------------------------------------------------

/** Block is one top-level element of a parsed answer: tokens [from, to) and source lines [line, endLine). */
export interface Block {
  from: number;
  to: number;
  line: number;
  endLine: number;
}

/** blocksOf cuts a token stream into its top-level blocks. */
export function blocksOf(tokens: Token[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < tokens.length; ) {
    const t = tokens[i];
    let j = i + 1;
    if (t.nesting === 1) {
      while (j < tokens.length && !(tokens[j].level === t.level && tokens[j].nesting === -1)) j++;
      j++;
    }
    const map = t.map ?? [0, 0];
    out.push({ from: i, to: Math.min(j, tokens.length), line: map[0], endLine: map[1] });
    i = j;
  }
  return out;
}
