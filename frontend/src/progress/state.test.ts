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
    expect(progressText(got)).toBe("Indexing 3 of 12 papers — raft");
    expect(progressText(got, (ref) => (ref === "papers/raft" ? "In Search of an Understandable Consensus Algorithm" : ""))).toBe(
      "Indexing 3 of 12 papers — In Search of an Understandable Consensus Algorithm",
    );
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
    expect(reduceProgress(during, { type: "started" })).toMatchObject({ phase: "indexing", done: 5, total: 10, current: "x" });
  });

  it("summarises index:done", () => {
    const got = run(
      { type: "progress", done: 9, total: 10, current: "papers/z" },
      { type: "done", papers: 10, pages: 1234, errors: 2, seconds: 42.4, extracted: 1, removed: 0 },
    );
    expect(got.phase).toBe("done");
    expect(progressFraction(got)).toBe(1);
    expect(got.summary).toEqual({ papers: 10, pages: 1234, errors: 2, seconds: 42.4, extracted: 1, removed: 0 });
    expect(progressText(got)).toBe("Indexed 10 papers (1,234 pages) in 42 s · 2 files could not be read");
  });

  it("words singulars and short runs", () => {
    const got = run({ type: "done", papers: 1, pages: 1, errors: 1, seconds: 0.2, extracted: 1, removed: 0 });
    expect(progressText(got)).toBe("Indexed 1 paper (1 page) in under a second · 1 file could not be read");
  });

  it("dismiss hides the summary but not a running index", () => {
    const done = run({ type: "done", papers: 1, pages: 1, errors: 0, seconds: 1, extracted: 1, removed: 0 });
    expect(reduceProgress(done, { type: "dismiss" })).toEqual(initialProgress);
    const running = run({ type: "progress", done: 1, total: 2, current: "" });
    expect(reduceProgress(running, { type: "dismiss" })).toBe(running);
  });

  it("reports the time the user waited, not a shorter figure", () => {
    const got = run(
      { type: "progress", done: 0, total: 3, current: "papers/a", at: 1_000 },
      { type: "progress", done: 2, total: 3, current: "papers/b", at: 9_000 },
      { type: "done", papers: 3, pages: 30, errors: 0, seconds: 0.4, extracted: 3, removed: 0, at: 14_000 },
    );
    expect(progressText(got)).toBe("Indexed 3 papers (30 pages) in 13 s");
  });

  it("a watcher's run that changed nothing keeps the summary the user waited for", () => {
    const waited = run(
      { type: "progress", done: 0, total: 3, current: "papers/a", at: 1_000 },
      { type: "done", papers: 3, pages: 30, errors: 0, seconds: 13, extracted: 3, removed: 0, at: 14_000 },
    );
    const after = [
      { type: "progress", done: 0, total: 3, current: "", at: 15_000 },
      { type: "done", papers: 3, pages: 30, errors: 0, seconds: 0.1, extracted: 0, removed: 0, at: 15_100 },
    ] as ProgressEvent[];
    expect(progressText(after.reduce(reduceProgress, waited))).toBe("Indexed 3 papers (30 pages) in 13 s");
    // With nothing on screen, such a run shows nothing.
    expect(after.reduce(reduceProgress, initialProgress).phase).toBe("idle");
    // Asked for (Reindex), it says that nothing had changed.
    const asked = run({ type: "started", at: 1 }, { type: "done", papers: 3, pages: 30, errors: 0, seconds: 0.1, extracted: 0, removed: 0, at: 2_001 });
    expect(progressText(asked)).toBe("Checked 3 papers in 2 s: nothing had changed");
  });

  it("a new run after done starts over", () => {
    const got = run(
      { type: "done", papers: 1, pages: 1, errors: 0, seconds: 1, extracted: 1, removed: 0 },
      { type: "progress", done: 0, total: 4, current: "papers/a" },
    );
    expect(got).toMatchObject({ phase: "indexing", done: 0, total: 4, summary: null });
  });

  it("shows OCR as its own step: page k of n of the paper", () => {
    const titles = (ref: string) => (ref === "papers/scan" ? "A Scanned Paper" : "");
    const reading = run(
      { type: "progress", done: 1, total: 4, current: "papers/a" },
      { type: "progress", done: 1, total: 4, current: "papers/scan", step: "ocr", page: 0, pages: 12 },
    );
    expect(progressText(reading, titles)).toBe("OCR: page 1 of 12 of A Scanned Paper");
    const later = reduceProgress(reading, { type: "progress", done: 1, total: 4, current: "papers/scan", step: "ocr", page: 6, pages: 12 });
    expect(progressText(later)).toBe("OCR: page 7 of 12 of scan");
    expect(progressFraction(later)).toBeCloseTo(1.5 / 4);
    // Another paper written meanwhile does not hide the OCR step.
    const other = reduceProgress(later, { type: "progress", done: 2, total: 4, current: "papers/b" });
    expect(progressText(other)).toBe("OCR: page 7 of 12 of scan");
    // The last page read says so; the paper written ends the step.
    const last = reduceProgress(other, { type: "progress", done: 2, total: 4, current: "papers/scan", step: "ocr", page: 12, pages: 12 });
    expect(progressText(last)).toBe("OCR: page 12 of 12 of scan");
    const written = reduceProgress(last, { type: "progress", done: 3, total: 4, current: "papers/scan" });
    expect(written.ocr).toBeNull();
    expect(progressText(written)).toBe("Indexing 3 of 4 papers — scan");
  });
});
