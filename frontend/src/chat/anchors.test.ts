import { describe, expect, it } from "vitest";
import type { Selection } from "../lib/backend";
import { anchorPreview, initialAnchors, MaxPinned, reduceAnchors, selectionsOf, type AnchorEvent, type AnchorsState } from "./anchors";

const sel = (text: string, page = 1): Selection => ({ sourcePath: "papers/bitcoin/bitcoin.pdf", page, text, rects: [[1, 2, 3, 4]] });

function run(...events: AnchorEvent[]): AnchorsState {
  return events.reduce(reduceAnchors, initialAnchors);
}

describe("reduceAnchors", () => {
  it("a selection becomes the current anchor, with its whitespace tidied", () => {
    expect(run({ type: "select", selection: sel("  double\n spending ") }).current).toEqual(sel("double spending"));
  });

  it("a stray click selecting one character is not an anchor", () => {
    expect(run({ type: "select", selection: sel("x") })).toBe(initialAnchors);
  });

  it("a newer selection replaces the current anchor", () => {
    expect(run({ type: "select", selection: sel("one") }, { type: "select", selection: sel("two", 2) }).current?.text).toBe("two");
  });

  it("pin keeps the current anchor; up to MaxPinned", () => {
    const events: AnchorEvent[] = [];
    for (let i = 0; i <= MaxPinned; i++) events.push({ type: "select", selection: sel(`passage ${i}`) }, { type: "pin" });
    const got = run(...events);
    expect(got.pinned.map((p) => p.text)).toEqual(["passage 0", "passage 1", "passage 2"]);
    expect(got.current?.text).toBe("passage 3");
    expect(got.full).toBe(true);
  });

  it("selecting a pinned passage again does not duplicate it", () => {
    const got = run({ type: "select", selection: sel("same") }, { type: "pin" }, { type: "select", selection: sel("same") });
    expect(got.current).toBeNull();
    expect(got.pinned).toHaveLength(1);
  });

  it("a sent turn consumes the current anchor and keeps the pinned ones", () => {
    const got = run({ type: "select", selection: sel("kept") }, { type: "pin" }, { type: "select", selection: sel("once") }, { type: "sent" });
    expect(got.current).toBeNull();
    expect(got.pinned.map((p) => p.text)).toEqual(["kept"]);
  });

  it("unpin, drop and clear", () => {
    const two = run({ type: "select", selection: sel("a1") }, { type: "pin" }, { type: "select", selection: sel("b2") }, { type: "pin" }, { type: "select", selection: sel("c3") });
    expect(reduceAnchors(two, { type: "unpin", index: 0 }).pinned.map((p) => p.text)).toEqual(["b2"]);
    expect(reduceAnchors(two, { type: "drop-current" }).current).toBeNull();
    expect(reduceAnchors(two, { type: "clear" })).toEqual(initialAnchors);
  });

  it("selectionsOf: pinned first, then the current one", () => {
    const got = run({ type: "select", selection: sel("p1") }, { type: "pin" }, { type: "select", selection: sel("cur", 3) });
    expect(selectionsOf(got).map((s) => [s.text, s.page])).toEqual([
      ["p1", 1],
      ["cur", 3],
    ]);
    expect(selectionsOf(initialAnchors)).toEqual([]);
  });

  it("anchorPreview shortens long text", () => {
    expect(anchorPreview("short")).toBe("short");
    expect(anchorPreview("a".repeat(100), 10)).toBe("aaaaaaaaa…");
  });
});
