import { describe, expect, it } from "vitest";
import type { IntakeItem, IntakeReport } from "../lib/backend";
import { foundText, headline, itemLabel, linkedBaseText, moveLine, progressLine, sections } from "./state";

function item(over: Partial<IntakeItem>): IntakeItem {
  return { file: "", key: "", title: "", ref: "", why: "", changed: [], note: "", ...over };
}

function report(over: Partial<IntakeReport>): IntakeReport {
  return { added: [], updated: [], unchanged: [], skipped: [], withoutPdf: [], errors: [], gone: [], linkedBase: null, ...over };
}

describe("the progress line", () => {
  it("counts from one and names the file", () => {
    expect(progressLine("add", { done: 0, total: 3, current: "/home/u/Downloads/paxos.pdf" })).toBe("Adding papers 1 of 3 — paxos.pdf");
    expect(progressLine("zotero", { done: 2, total: 3, current: "ABCD1234" })).toBe("Importing from Zotero 3 of 3 — ABCD1234");
  });
  it("says what happens before the count and after the last entry", () => {
    expect(progressLine("bibliography", null)).toBe("Importing the bibliography…");
    expect(progressLine("add", { done: 3, total: 3, current: "" })).toBe("Adding papers: indexing what changed…");
  });
});

describe("the summary", () => {
  const r = report({
    added: [item({ title: "Paxos Made Simple", key: "PAXOS001", ref: "papers/lamport-2001-paxos-simple" })],
    updated: [item({ title: "Raft", ref: "papers/raft", changed: ["title", "year"] })],
    unchanged: [item({ ref: "papers/x" }), item({ ref: "papers/y" })],
    skipped: [item({ file: "/d/notes.pdf", why: "/d/notes.pdf is not a PDF (it does not start as a PDF file does)." })],
    withoutPdf: [item({ key: "BOOK0001", title: "Distributed Algorithms", why: "it has no PDF attachment." })],
  });
  it("sums up in one sentence", () => {
    expect(headline(r)).toBe("1 paper added, 1 updated, 2 unchanged, 1 skipped, 1 without a PDF.");
    expect(headline(report({ added: [item({}), item({})] }))).toBe("2 papers added.");
  });
  it("lists every entry with its reason, unchanged last, empty lists left out", () => {
    const got = sections(r);
    expect(got.map((s) => s.title)).toEqual(["Added (1)", "Updated (1)", "Skipped (1)", "Without a PDF (1)", "Unchanged (2)"]);
    expect(got[0].rows[0]).toEqual({ label: "Paxos Made Simple (PAXOS001)", detail: "papers/lamport-2001-paxos-simple" });
    expect(got[1].rows[0].detail).toBe("papers/raft: title, year changed");
    expect(got[2].rows[0]).toEqual({ label: "notes.pdf", detail: "/d/notes.pdf is not a PDF (it does not start as a PDF file does)." });
    expect(got[3].rows[0].detail).toBe("it has no PDF attachment.");
  });
  it("says what an import left in the vault that the source no longer has, and an entry's note", () => {
    const g = report({
      added: [item({ title: "Raft", key: "RAFT0001", ref: "papers/raft", note: "2 more PDFs of this item were not copied." })],
      gone: [item({ title: "Paxos Made Simple", key: "PAXOS001", ref: "papers/paxos", why: "no longer in the source" })],
    });
    expect(headline(g)).toBe("1 paper added, 1 no longer in the source (kept in the vault).");
    const got = sections(g);
    expect(got.map((s) => s.title)).toEqual(["Added (1)", "No longer in the source, kept in the vault (1)"]);
    expect(got[0].rows[0].detail).toBe("papers/raft — 2 more PDFs of this item were not copied.");
  });
  it("names an entry by title, key, then file", () => {
    expect(itemLabel(item({ key: "k1" }))).toBe("k1");
    expect(itemLabel(item({ file: "/a/b.pdf" }))).toBe("b.pdf");
  });
});

describe("a folder that is not a vault", () => {
  it("says what it holds", () => {
    expect(foundText({ vault: false, papers: 0, topPdfs: [], nestedPdfs: [] })).toBe("This folder has no PDFs and no papers/ folder: it is not a vault yet.");
    expect(foundText({ vault: false, papers: 0, topPdfs: ["a.pdf", "b.pdf"], nestedPdfs: ["old/c.pdf"] })).toBe(
      "This folder holds 3 PDFs (2 at the top, 1 in subfolders) but no papers/ folder: it is not a vault yet.",
    );
    expect(foundText({ vault: false, papers: 0, topPdfs: [], nestedPdfs: ["old/c.pdf"] })).toBe(
      "This folder holds 1 PDF, all in subfolders but no papers/ folder: it is not a vault yet.",
    );
  });
  it("previews each move", () => {
    expect(moveLine({ from: "a.pdf", to: "papers/a/paper.pdf" })).toBe("a.pdf → papers/a/paper.pdf");
  });
});

describe("linked PDFs left out for want of Zotero's base directory", () => {
  it("says whether the base was unknown or the wrong folder, and what choosing it does", () => {
    expect(linkedBaseText({ dataDir: "/home/u/Zotero", baseDir: "", missing: 3 })).toBe(
      "3 PDFs are linked relative to Zotero’s Linked Attachment Base Directory, and Agentero could not find which folder that is. " +
        "Choose the folder Zotero names under Settings → Advanced → Files and Folders to import them; the papers already imported stay as they are.",
    );
    expect(linkedBaseText({ dataDir: "/home/u/Zotero", baseDir: "/home/u/Papers", missing: 1 })).toBe(
      "1 PDF is linked relative to Zotero’s Linked Attachment Base Directory, and Agentero looked for it in /home/u/Papers, where it is not. " +
        "Choose the folder Zotero names under Settings → Advanced → Files and Folders to import it; the papers already imported stay as they are.",
    );
  });
});
