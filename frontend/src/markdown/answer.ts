// An agent's answer as rendered Markdown and math, drawn while it streams.
//
// The view owns one element. update(text) is called with the whole answer so
// far on every chunk; drawing is coalesced to one per animation frame and
// spaced out when a draw is slow. Each draw parses only from the last block
// that the new text can still change (blocks before a blank line are final
// once the line after it is complete), and every top-level block whose source
// did not change keeps its DOM nodes: a long answer costs one block per chunk,
// formulas are not typeset again, and a reader's selection or focus in the
// earlier paragraphs survives. finish(text) draws the final text from a full
// parse, so the result never depends on how the text was chunked.
//
// Clicks are handled here and handed to the caller: a source chip calls
// onCitation, an https: link calls openExternal; nothing ever navigates the
// app's own window.

import "katex/dist/katex.min.css";
import "./markdown.css";
import type { Token } from "markdown-it";
import type { CitationTarget } from "./citations";
import { blocksOf, parser, tableNote, type AnswerEnv, type TableCap } from "./parser";
import { sanitize } from "./sanitize";

export type { CitationTarget } from "./citations";

/** MaxTableRows is how many body rows of a table are drawn before a note offers the rest. */
export const MaxTableRows = 500;
/**
 * MaxStreamingTableRows is the row cap while the answer streams: a growing
 * table is drawn again on every chunk until it reaches the cap, so the cap
 * bounds the cost of a draw (finish draws up to MaxTableRows once).
 */
export const MaxStreamingTableRows = 200;
/** MaxMarkdownChars is how much of an answer is formatted; the rest is shown as plain text, with a note. */
export const MaxMarkdownChars = 200_000;
/** MaxStreamingParagraph is the longest paragraph formatted while streaming; finish formats every one. */
export const MaxStreamingParagraph = 20_000;

export interface AnswerOptions {
  /** onCitation opens a source chip's target (the PDF at the page, quote highlighted). */
  onCitation?(target: CitationTarget, event: MouseEvent): void;
  /** openExternal opens an https: link in the system browser (the backend checks it again). */
  openExternal?(url: string, event: MouseEvent): void;
  /** citationLabel names a chip found in the text (a Markdown link keeps its own text); default "p. 3". */
  citationLabel?(target: CitationTarget): string;
  /** maxTableRows overrides MaxTableRows. */
  maxTableRows?: number;
  /** maxMarkdownChars overrides MaxMarkdownChars. */
  maxMarkdownChars?: number;
}

export interface AnswerView {
  /** The element the answer is drawn into; the caller places it (and may move it between parents). */
  readonly element: HTMLElement;
  /** update schedules drawing the answer so far; call it with the whole text on every chunk. */
  update(text: string): void;
  /** flush draws a scheduled update now. */
  flush(): void;
  /**
   * finish draws the final text at once, from a full parse, and lifts the
   * streaming limits (MaxStreamingTableRows, MaxStreamingParagraph) for good.
   */
  finish(text: string): void;
  /** destroy cancels a scheduled draw and stops handling clicks. */
  destroy(): void;
}

interface DrawnBlock {
  /** Offset of the block's first line in the formatted source. */
  start: number;
  /** The block's source lines and the table cap: equal keys draw equal nodes. */
  key: string;
  nodes: Node[];
  /** Whether the line before the block is blank and its first line complete. */
  cut: boolean;
}

/** createAnswerView makes an empty answer view; see update and finish. */
export function createAnswerView(options: AnswerOptions = {}): AnswerView {
  const element = document.createElement("div");
  element.className = "md-answer";
  const maxChars = options.maxMarkdownChars ?? MaxMarkdownChars;
  const maxRows = options.maxTableRows ?? MaxTableRows;
  // final: finish was called, the streaming limits are off. expanded: the
  // reader asked for all rows of the tables.
  let final = false;
  let expanded = false;

  let source = ""; // formatted part of the text last drawn (normalised)
  let blocks: DrawnBlock[] = [];
  let rest: HTMLElement | null = null; // the plain-text remainder of an over-long answer
  let restText = "";
  let pending: string | null = null;
  let notBefore = 0;
  let destroyed = false;

  const env = (): AnswerEnv => ({
    maxTableRows: expanded ? Infinity : final ? maxRows : Math.min(maxRows, MaxStreamingTableRows),
    label: (t) => options.citationLabel?.(t) ?? "",
    deferInline: final ? Infinity : MaxStreamingParagraph,
  });

  // draw draws text; reparse parses all of it instead of only what the new
  // text can have changed.
  function draw(text: string, reparse: boolean): void {
    const started = performance.now();
    const normal = normalize(text);
    const cut = splitAt(normal, maxChars);
    const md = normal.slice(0, cut);
    drawMarkdown(md, reparse);
    drawRest(normal.slice(cut));
    // Keep drawing to about a third of the time: a slow draw (a huge table
    // while "Show all rows" is on, a very long answer) spaces out the next.
    notBefore = performance.now() + 2 * (performance.now() - started);
  }

  function drawMarkdown(md: string, reparse: boolean): void {
    // The first block the new text can change: after the last "cut" block,
    // when the text only grew and holds no reference definitions (which
    // change links anywhere).
    let keep = 0;
    if (!reparse && md.startsWith(source) && !md.includes("]:")) {
      for (let i = blocks.length - 1; i > 0; i--) {
        if (blocks[i].cut && lineComplete(source, blocks[i].start)) {
          keep = i;
          break;
        }
      }
    }
    const base = keep > 0 ? blocks[keep].start : 0;
    const tail = md.slice(base);
    const e = env();
    const tokens = parser().parse(tail, e);
    const found = blocksOf(tokens);
    const starts = lineStarts(tail);
    // Reference definitions change links in any block: their targets are part of every key.
    const refsKey = e.references ? `\u0000${JSON.stringify(e.references)}` : "";
    const offset = (line: number) => (line < starts.length ? starts[line] : tail.length);

    const next: DrawnBlock[] = blocks.slice(0, keep);
    const fresh: { block: DrawnBlock; tokens: Token[] }[] = [];
    const counted: { block: DrawnBlock; caps: TableCap[] }[] = [];
    for (const b of found) {
      const start = offset(b.line);
      const end = offset(b.endLine);
      // The key is the block's source less the rows a table cap left out
      // (only their count shows, and it is updated in place), plus what
      // changes the drawing: the row cap, and text left unformatted.
      const caps: TableCap[] = [];
      let suffix = refsKey;
      for (let i = b.from; i < b.to; i++) {
        const t = tokens[i];
        if (t.type === "table_open") suffix += `\u0000rows ${e.maxTableRows}`;
        else if (t.type === "table_close" && t.meta) caps.push(t.meta as unknown as TableCap);
        else if (t.type === "md_deferred") suffix += "\u0000deferred";
      }
      let key = "";
      let at = start;
      for (const c of caps) {
        key += tail.slice(at, offset(c.from));
        at = offset(c.to);
      }
      key += tail.slice(at, end) + suffix;
      const old = blocks[next.length];
      const block: DrawnBlock = { start: base + start, key, nodes: [], cut: blankBefore(md, base + start) };
      if (old && old.key === key) {
        block.nodes = old.nodes;
        if (caps.length > 0) counted.push({ block, caps });
      } else {
        fresh.push({ block, tokens: tokens.slice(b.from, b.to) });
      }
      next.push(block);
    }
    renderFresh(fresh, e);
    for (const { block, caps } of counted) updateCounts(block, caps);
    place(next);
    blocks = next;
    source = md;
  }

  // updateCounts rewrites the notes of a reused block's capped tables: more
  // rows arrived, but the rows drawn are the same.
  function updateCounts(block: DrawnBlock, caps: TableCap[]): void {
    const counts: Element[] = [];
    for (const n of block.nodes) {
      if (n instanceof Element) counts.push(...(n.matches(".md-count") ? [n] : []), ...Array.from(n.querySelectorAll(".md-count")));
    }
    caps.forEach((c, i) => {
      if (counts[i]) counts[i].textContent = tableNote(c);
    });
  }

  // renderFresh turns the changed blocks into nodes with one render and one
  // sanitizer pass: each block is wrapped in a marked div that is unwrapped after.
  function renderFresh(fresh: { block: DrawnBlock; tokens: Token[] }[], e: AnswerEnv): void {
    if (fresh.length === 0) return;
    const md = parser();
    const html = fresh.map((f, i) => `<div data-md-block="${i}">${md.renderer.render(f.tokens, md.options, e)}</div>`).join("");
    const frag = sanitize(html);
    for (const wrapper of Array.from(frag.children)) {
      const i = Number((wrapper as HTMLElement).dataset.mdBlock);
      if (!Number.isInteger(i) || !fresh[i]) continue;
      fresh[i].block.nodes = Array.from(wrapper.childNodes).filter((n) => !(n.nodeType === Node.TEXT_NODE && n.textContent === "\n"));
    }
  }

  // place puts the blocks' nodes in order, moving only what moved, then the
  // plain-text remainder, and drops whatever is left over.
  function place(next: DrawnBlock[]): void {
    let at = 0;
    const put = (n: Node) => {
      const here = element.childNodes[at] ?? null;
      if (here !== n) element.insertBefore(n, here);
      at++;
    };
    for (const b of next) b.nodes.forEach(put);
    if (rest) put(rest);
    while (element.childNodes.length > at) element.lastChild!.remove();
  }

  function drawRest(text: string): void {
    if (text === restText) return;
    restText = text;
    if (text === "") {
      rest?.remove();
      rest = null;
      return;
    }
    if (!rest) {
      rest = document.createElement("div");
      rest.className = "md-rest";
      const note = document.createElement("p");
      note.className = "md-note";
      note.setAttribute("role", "note");
      note.textContent = "This answer is too long to format in full: the rest is shown as plain text.";
      const body = document.createElement("div");
      body.className = "md-plain";
      rest.append(note, body);
      element.append(rest);
    }
    rest.lastElementChild!.textContent = text;
  }

  // One draw at a time is scheduled: on the next animation frame, or after
  // a timer while the last draw asks for a pause.
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const scheduled = () => frame !== 0 || timer !== undefined;
  function schedule(): void {
    const wait = notBefore - performance.now();
    if (wait > 0 || typeof requestAnimationFrame !== "function") timer = setTimeout(run, Math.max(wait, 16));
    else frame = requestAnimationFrame(run);
  }
  function unschedule(): void {
    if (frame !== 0) cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
    frame = 0;
    timer = undefined;
  }
  function run(): void {
    frame = 0;
    timer = undefined;
    if (pending === null || destroyed) return;
    if (notBefore - performance.now() > 0) {
      schedule();
      return;
    }
    const text = pending;
    pending = null;
    draw(text, false);
  }

  function onClick(event: MouseEvent): void {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || !element.contains(target)) return;
    const chip = target.closest<HTMLElement>("button.md-cite[data-cite-path]");
    if (chip && element.contains(chip) && event.type === "click") {
      event.preventDefault();
      const d = chip.dataset;
      options.onCitation?.({ uri: d.uri ?? "", path: d.citePath ?? "", page: Number(d.citePage) || 1, quote: d.citeQuote ?? "" }, event);
      return;
    }
    const link = target.closest("a");
    if (link && element.contains(link)) {
      // Never follow a link inside the app's window: https: ones go to the
      // system browser through the caller, anything else goes nowhere.
      event.preventDefault();
      const href = link.getAttribute("href") ?? "";
      if (event.type === "click" && /^https:\/\//i.test(href)) options.openExternal?.(href, event);
      return;
    }
    const action = target.closest<HTMLElement>("[data-md-action]");
    if (action?.dataset.mdAction === "all-rows" && event.type === "click") {
      expanded = true;
      const text = pending ?? current();
      pending = null;
      draw(text, true);
    }
  }

  // current rebuilds the text last drawn (formatted part and remainder).
  const current = () => source + restText;

  element.addEventListener("click", onClick);
  element.addEventListener("auxclick", onClick);

  return {
    element,
    update(text) {
      if (destroyed) return;
      // Screen readers wait for the answer instead of reading every redraw.
      if (!final) element.setAttribute("aria-busy", "true");
      pending = text;
      if (!scheduled()) schedule();
    },
    flush() {
      if (destroyed || pending === null) return;
      unschedule();
      const text = pending;
      pending = null;
      draw(text, false);
    },
    finish(text) {
      if (destroyed) return;
      unschedule();
      pending = null;
      final = true;
      element.removeAttribute("aria-busy");
      draw(text, true);
    },
    destroy() {
      destroyed = true;
      unschedule();
      element.removeEventListener("click", onClick);
      element.removeEventListener("auxclick", onClick);
    },
  };
}

/** renderAnswer draws a complete answer at once (a reopened conversation, an export preview). */
export function renderAnswer(text: string, options: AnswerOptions = {}): AnswerView {
  const view = createAnswerView(options);
  view.finish(text);
  return view;
}

// normalize applies markdown-it's own input normalisation up front, so that
// offsets into the text are offsets into what was parsed.
function normalize(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(/\u0000/g, "\uFFFD");
}

// splitAt is where formatting stops: the whole text, or the last line break
// at or before max (max itself when the first line is longer).
function splitAt(text: string, max: number): number {
  if (text.length <= max) return text.length;
  const nl = text.lastIndexOf("\n", max);
  return nl > 0 ? nl + 1 : max;
}

function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) out.push(i + 1);
  return out;
}

// blankBefore reports whether the line before offset is blank (spaces only).
function blankBefore(text: string, offset: number): boolean {
  if (offset === 0) return false;
  const prev = text.lastIndexOf("\n", offset - 2);
  return text.slice(prev + 1, offset - 1).trim() === "";
}

// lineComplete reports whether the line starting at offset has ended.
function lineComplete(text: string, offset: number): boolean {
  return text.indexOf("\n", offset) >= 0;
}
