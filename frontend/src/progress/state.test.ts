import { describe, expect, it } from "vitest";
import { initialProgress, progressFraction, progressText, reduceProgress, type ProgressEvent, type ProgressState } from "./state";

function run(...events: ProgressEvent[]): ProgressState {
  return events.reduce(reduceProgress, initialProgress);
}

describe("reduceProgress", () => {
  it("is idle until something happens", () => {
    expect(initialProgress.phase).toBe("idle");
    expect(progressText(initialProgress)).toBe("");
  });

  it("follows index:progress", () => {
    const got = run({ type: "progress", done: 3, total: 12, current: "papers/raft" });
    expect(got).toMatchObject({ phase: "indexing", done: 3, total: 12, current: "papers/raft" });
    expect(progressFraction(got)).toBe(0.25);
    expect(progressText(got)).toBe("Indexing 3 of 12 papers — papers/raft");
  });

  it("is indeterminate before the total is known", () => {
    const got = run({ type: "started" });
    expect(got.phase).toBe("indexing");
    expect(progressFraction(got)).toBeNull();
    expect(progressText(got)).toBe("Indexing your vault…");
  });

  it("clamps done to total", () => {
    expect(run({ type: "progress", done: 15, total: 12, current: "" }).done).toBe(12);
  });

  it("a second start during a run keeps the run's progress", () => {
    const during = run({ type: "progress", done: 5, total: 10, current: "x" });
    expect(reduceProgress(during, { type: "started" })).toBe(during);
  });

  it("summarises index:done", () => {
    const got = run(
      { type: "progress", done: 9, total: 10, current: "papers/z" },
      { type: "done", papers: 10, pages: 1234, errors: 2, seconds: 42.4 },
    );
    expect(got.phase).toBe("done");
    expect(progressFraction(got)).toBe(1);
    expect(got.summary).toEqual({ papers: 10, pages: 1234, errors: 2, seconds: 42.4 });
    expect(progressText(got)).toBe("Indexed 10 papers (1,234 pages) in 42 s · 2 files could not be read");
  });

  it("words singulars and short runs", () => {
    const got = run({ type: "done", papers: 1, pages: 1, errors: 1, seconds: 0.2 });
    expect(progressText(got)).toBe("Indexed 1 paper (1 page) in under a second · 1 file could not be read");
  });

  it("dismiss hides the summary but not a running index", () => {
    const done = run({ type: "done", papers: 1, pages: 1, errors: 0, seconds: 1 });
    expect(reduceProgress(done, { type: "dismiss" })).toEqual(initialProgress);
    const running = run({ type: "progress", done: 1, total: 2, current: "" });
    expect(reduceProgress(running, { type: "dismiss" })).toBe(running);
  });

  it("a new run after done starts over", () => {
    const got = run(
      { type: "done", papers: 1, pages: 1, errors: 0, seconds: 1 },
      { type: "progress", done: 0, total: 4, current: "papers/a" },
    );
    expect(got).toMatchObject({ phase: "indexing", done: 0, total: 4, summary: null });
  });
});
