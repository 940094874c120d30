// A line diff for the edits agents report (ACP tool call content of type
// "diff": a file's old and new text), shown as a unified view: changed lines
// with a few lines of context, long unchanged runs folded.

/** DiffLine is one line of a unified view: kept, removed, added, or a fold of unchanged lines. */
export type DiffLine =
  | { op: " " | "-" | "+"; text: string }
  | { op: "…"; count: number };

export interface Diff {
  lines: DiffLine[];
  added: number;
  removed: number;
  /** The texts were too long to compare line by line: lines hold all of the old, then all of the new. */
  whole: boolean;
}

/** Context is how many unchanged lines stay around a change. */
export const Context = 3;

/**
 * MaxCells bounds the comparison (old lines × new lines, after the common
 * head and tail are set aside); past it the diff shows the whole old text
 * removed and the whole new text added.
 */
export const MaxCells = 1_000_000;

/** lineDiff compares two texts line by line; a missing old text is a new file. */
export function lineDiff(oldText: string, newText: string): Diff {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  // The common head and tail need no table.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);

  let whole = false;
  let middle: { op: " " | "-" | "+"; text: string }[];
  if (midA.length * midB.length > MaxCells) {
    whole = true;
    middle = [...midA.map((text) => ({ op: "-" as const, text })), ...midB.map((text) => ({ op: "+" as const, text }))];
  } else {
    middle = lcsDiff(midA, midB);
  }
  const all = [...a.slice(0, head).map((text) => ({ op: " " as const, text })), ...middle, ...a.slice(a.length - tail).map((text) => ({ op: " " as const, text }))];
  return {
    lines: fold(all),
    added: middle.filter((l) => l.op === "+").length,
    removed: middle.filter((l) => l.op === "-").length,
    whole,
  };
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

// lcsDiff is the classic longest-common-subsequence table, walked from the
// start so that removals come before additions within a change.
function lcsDiff(a: string[], b: string[]): { op: " " | "-" | "+"; text: string }[] {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? table[(i + 1) * width + j + 1] + 1 : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
    }
  }
  const out: { op: " " | "-" | "+"; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: " ", text: a[i] });
      i++;
      j++;
    } else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) {
      out.push({ op: "-", text: a[i++] });
    } else {
      out.push({ op: "+", text: b[j++] });
    }
  }
  while (i < n) out.push({ op: "-", text: a[i++] });
  while (j < m) out.push({ op: "+", text: b[j++] });
  return out;
}

// fold keeps Context unchanged lines around each change and folds the rest.
function fold(lines: { op: " " | "-" | "+"; text: string }[]): DiffLine[] {
  const near = new Array<boolean>(lines.length).fill(false);
  lines.forEach((l, i) => {
    if (l.op === " ") return;
    for (let k = Math.max(0, i - Context); k <= Math.min(lines.length - 1, i + Context); k++) near[k] = true;
  });
  const out: DiffLine[] = [];
  let run = 0;
  const flush = () => {
    if (run > 0) out.push({ op: "…", count: run });
    run = 0;
  };
  lines.forEach((l, i) => {
    if (l.op === " " && !near[i]) {
      run++;
      return;
    }
    flush();
    out.push(l);
  });
  flush();
  return out;
}
