import { describe, expect, it } from "vitest";
import type { PaperSummary, VaultState } from "../lib/backend";
import { authorLine, initialLibrary, paperHealth, reduceLibrary, type LibraryEvent, type LibraryState } from "./state";

const vault = (path: string, over: Partial<VaultState> = {}): VaultState => ({
  path,
  name: path.split("/").pop() ?? "",
  watchMode: "inotify",
  watchNotice: "",
  indexNotice: "",
  indexing: false,
  ...over,
});

const paper = (ref: string, over: Partial<PaperSummary> = {}): PaperSummary => ({
  ref,
  title: ref,
  titleSource: "metadata.json",
  authors: [],
  doi: "",
  arxivId: "",
  abstract: "",
  sha256: "",
  added: 0,
  tags: [],
  year: 0,
  pdfPath: `${ref}/paper.pdf`,
  pages: 10,
  noTextPages: 0,
  status: "ok",
  error: "",
  ...over,
});

function run(...events: LibraryEvent[]): LibraryState {
  return events.reduce(reduceLibrary, initialLibrary);
}

describe("reduceLibrary", () => {
  it("tells a folder that is not a vault yet from a library that failed", () => {
    expect(run({ type: "vault-failed", error: "/d is not a vault yet: it holds 2 PDFs but no papers/ folder", notVault: true }).status).toBe("not-vault");
    expect(run({ type: "vault-failed", error: "open vault: permission denied" }).status).toBe("error");
  });
  it("a folder that is not a vault yet shows no library error behind its dialog", () => {
    const s = run(
      { type: "vault-failed", error: "/d is not a vault yet", notVault: true },
      { type: "request", seq: 1 },
      { type: "failed", seq: 1, error: "not a vault" },
    );
    expect(s.status).toBe("not-vault");
    expect(s.error).toBe("/d is not a vault yet");
  });
  it("starts loading and becomes ready with the list", () => {
    const papers = [paper("papers/raft")];
    const got = run({ type: "vault", vault: vault("/v") }, { type: "request", seq: 1 }, { type: "loaded", seq: 1, papers });
    expect(got.status).toBe("ready");
    expect(got.papers).toEqual(papers);
  });

  it("drops an answer to a superseded request", () => {
    const got = run(
      { type: "request", seq: 1 },
      { type: "request", seq: 2 },
      { type: "loaded", seq: 2, papers: [paper("papers/new")] },
      { type: "loaded", seq: 1, papers: [paper("papers/old")] },
    );
    expect(got.papers.map((p) => p.ref)).toEqual(["papers/new"]);
  });

  it("shows an error when the first load fails", () => {
    const got = run({ type: "request", seq: 1 }, { type: "failed", seq: 1, error: "index locked" });
    expect(got.status).toBe("error");
    expect(got.error).toBe("index locked");
  });

  it("keeps the list when a reload fails, and clears the error on the next success", () => {
    const papers = [paper("papers/raft")];
    const failed = run({ type: "request", seq: 1 }, { type: "loaded", seq: 1, papers }, { type: "request", seq: 2 }, { type: "failed", seq: 2, error: "busy" });
    expect(failed.status).toBe("ready");
    expect(failed.papers).toEqual(papers);
    expect(failed.error).toBe("busy");
    const recovered = [{ type: "request", seq: 3 } as const, { type: "loaded", seq: 3, papers } as const].reduce(reduceLibrary, failed);
    expect(recovered.error).toBe("");
  });

  it("switching vaults clears the old papers and selection", () => {
    const got = run(
      { type: "vault", vault: vault("/a") },
      { type: "request", seq: 1 },
      { type: "loaded", seq: 1, papers: [paper("papers/raft")] },
      { type: "select", ref: "papers/raft" },
      { type: "vault", vault: vault("/b") },
    );
    expect(got.vault?.path).toBe("/b");
    expect(got.papers).toEqual([]);
    expect(got.selected).toBeNull();
    expect(got.status).toBe("loading");
  });

  it("refreshing the same vault keeps the list", () => {
    const papers = [paper("papers/raft")];
    const got = run(
      { type: "vault", vault: vault("/a") },
      { type: "request", seq: 1 },
      { type: "loaded", seq: 1, papers },
      { type: "vault", vault: vault("/a", { indexing: true }) },
    );
    expect(got.papers).toBe(papers);
    expect(got.vault?.indexing).toBe(true);
  });

  it("records the watch notice", () => {
    const notice = "Too many folders to watch; rescanning every 30 s";
    const got = run({ type: "vault", vault: vault("/a") }, { type: "watch", mode: "polling", notice });
    expect(got.vault).toMatchObject({ watchMode: "polling", watchNotice: notice });
  });

  it("ignores watch status before a vault is known", () => {
    expect(run({ type: "watch", mode: "off", notice: "x" }).vault).toBeNull();
  });

  it("tracks indexing without copying state when nothing changes", () => {
    const before = run({ type: "vault", vault: vault("/a") });
    expect(reduceLibrary(before, { type: "indexing", on: false })).toBe(before);
    expect(reduceLibrary(before, { type: "indexing", on: true }).vault?.indexing).toBe(true);
  });
});

describe("paperHealth", () => {
  const cases: { name: string; p: PaperSummary; tone: string; label: string }[] = [
    { name: "indexed", p: paper("a", { pages: 14 }), tone: "ok", label: "14 pages" },
    { name: "one page", p: paper("a", { pages: 1 }), tone: "ok", label: "1 page" },
    { name: "scan", p: paper("a", { status: "no-text", noTextPages: 12, pages: 12 }), tone: "warn", label: "no text" },
    { name: "partial", p: paper("a", { status: "partial", pages: 20, noTextPages: 3 }), tone: "warn", label: "20 pages, 3 without text" },
    {
      name: "garbled",
      p: paper("a", { status: "garbled", pages: 16, noTextPages: 16, error: "unreadable text … needs OCR" }),
      tone: "warn",
      label: "unreadable text",
    },
    { name: "broken", p: paper("a", { status: "error", error: "pdf: truncated file" }), tone: "error", label: "unreadable" },
    { name: "pending", p: paper("a", { status: "pending", pages: 0 }), tone: "pending", label: "pending" },
  ];
  for (const c of cases) {
    it(c.name, () => expect(paperHealth(c.p)).toMatchObject({ tone: c.tone, label: c.label }));
  }

  it("says a garbled paper needs OCR", () => {
    expect(paperHealth(paper("a", { status: "garbled", pages: 16, noTextPages: 16 })).detail).toMatch(/needs OCR/);
  });

  it("shows the extraction error as the detail", () => {
    expect(paperHealth(paper("a", { status: "error", error: "encrypted" })).detail).toBe("encrypted");
  });
});

describe("authorLine", () => {
  it.each([
    [[], ""],
    [["Ongaro"], "Ongaro"],
    [["Ongaro", "Ousterhout"], "Ongaro, Ousterhout"],
    [["A", "B", "C", "D"], "A, B et al."],
  ])("%j", (authors, want) => expect(authorLine(authors)).toBe(want));
});
