import { describe, expect, it } from "vitest";
import { Context, lineDiff, MaxCells, type DiffLine } from "./diff";

const ops = (lines: DiffLine[]) => lines.map((l) => (l.op === "…" ? `… ${l.count}` : `${l.op}${l.text}`));

describe("lineDiff", () => {
  const cases: { name: string; old: string; new: string; want: string[]; added: number; removed: number }[] = [
    { name: "one line changed", old: "a\nb\nc\n", new: "a\nB\nc\n", want: [" a", "-b", "+B", " c"], added: 1, removed: 1 },
    { name: "a new file", old: "", new: "x\ny", want: ["+x", "+y"], added: 2, removed: 0 },
    { name: "a file emptied", old: "x\ny\n", new: "", want: ["-x", "-y"], added: 0, removed: 2 },
    { name: "a line inserted", old: "a\nc", new: "a\nb\nc", want: [" a", "+b", " c"], added: 1, removed: 0 },
    { name: "moved lines are a removal and an addition", old: "a\nb\nc", new: "b\nc\na", want: ["-a", " b", " c", "+a"], added: 1, removed: 1 },
    { name: "line endings do not count", old: "a\r\nb\r\n", new: "a\nb\n", want: ["… 2"], added: 0, removed: 0 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = lineDiff(c.old, c.new);
      expect(ops(d.lines)).toEqual(c.want);
      expect([d.added, d.removed, d.whole]).toEqual([c.added, c.removed, false]);
    });
  }

  it("keeps a few unchanged lines around a change and folds the rest", () => {
    const old = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const next = [...old];
    next[10] = "changed";
    const got = ops(lineDiff(old.join("\n"), next.join("\n")).lines);
    expect(got).toEqual([`… ${10 - Context}`, " line 7", " line 8", " line 9", "-line 10", "+changed", " line 11", " line 12", " line 13", `… ${20 - 11 - Context}`]);
  });

  it("past its limit, shows the whole old text removed and the new one added", () => {
    const n = Math.ceil(Math.sqrt(MaxCells)) + 1;
    const old = Array.from({ length: n }, (_, i) => `a${i}`).join("\n");
    const next = Array.from({ length: n }, (_, i) => `b${i}`).join("\n");
    const d = lineDiff(`same\n${old}\nend`, `same\n${next}\nend`);
    expect(d.whole).toBe(true);
    expect([d.added, d.removed]).toEqual([n, n]);
    expect(ops(d.lines).slice(0, 2)).toEqual([" same", "-a0"]);
  });
});
