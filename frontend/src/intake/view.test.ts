// @vitest-environment jsdom
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Folder, IntakeReport, Move } from "../lib/backend";
import { mountIntake, type IntakeDeps } from "./view";

beforeAll(() => {
  // jsdom has <dialog> without its modal methods.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});

const empty: IntakeReport = { added: [], updated: [], unchanged: [], skipped: [], withoutPdf: [], errors: [] };

function setup(over: Partial<IntakeDeps> = {}) {
  const deps: IntakeDeps = {
    addPapers: vi.fn(async () => null),
    addPaths: vi.fn(async () => empty),
    importZotero: vi.fn(async () => null),
    importBibliography: vi.fn(async () => null),
    planArrangement: vi.fn(async () => []),
    applyArrangement: vi.fn(async () => empty),
    openFolder: vi.fn(async () => {}),
    opened: vi.fn(),
    ...over,
  };
  document.body.replaceChildren();
  const bar = document.createElement("div");
  const dialogs = document.createElement("div");
  document.body.append(bar, dialogs);
  const view = mountIntake(bar, dialogs, deps);
  const q = <T extends HTMLElement>(id: string) => document.querySelector<T>(`[data-testid="${id}"]`)!;
  return { deps, view, q };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("adding and importing", () => {
  it("is offered only while a vault is open", () => {
    const { view, q } = setup();
    expect(q<HTMLButtonElement>("add-papers").disabled).toBe(true);
    view.setVault(true);
    expect(q<HTMLButtonElement>("add-papers").disabled).toBe(false);
    expect(q<HTMLButtonElement>("import-zotero").disabled).toBe(false);
  });

  it("adds dropped PDFs, shows progress, then the summary with each reason", async () => {
    let finish: (r: IntakeReport) => void = () => {};
    const { view, q, deps } = setup({ addPaths: vi.fn(() => new Promise<IntakeReport | null>((r) => (finish = r))) });
    view.setVault(true);
    view.addPaths(["/home/u/paxos.pdf", "/home/u/notes.txt"]);
    expect(deps.addPaths).toHaveBeenCalledWith(["/home/u/paxos.pdf", "/home/u/notes.txt"]);
    expect(q<HTMLButtonElement>("add-papers").disabled).toBe(true);
    view.progress({ done: 0, total: 2, current: "/home/u/paxos.pdf" });
    expect(q("intake-status").textContent).toBe("Adding papers 1 of 2 — paxos.pdf");
    finish({
      ...empty,
      added: [{ file: "/home/u/paxos.pdf", key: "", title: "Paxos Made Simple", ref: "papers/paxos-simple", why: "", changed: [] }],
      skipped: [{ file: "/home/u/notes.txt", key: "", title: "", ref: "", why: "/home/u/notes.txt is not a PDF.", changed: [] }],
    });
    await tick();
    const summary = q<HTMLDialogElement>("intake-summary");
    expect(summary.open).toBe(true);
    expect(summary.textContent).toContain("1 paper added, 1 skipped.");
    expect(summary.querySelector('[data-section="skipped"]')?.textContent).toContain("/home/u/notes.txt is not a PDF.");
    expect(q<HTMLButtonElement>("add-papers").disabled).toBe(false);
  });

  it("says why a run failed", async () => {
    const { view, q } = setup({ importZotero: vi.fn(async () => Promise.reject({ code: "invalid", message: "/x has no zotero.sqlite." })) });
    view.setVault(true);
    q<HTMLButtonElement>("import-zotero").click();
    await tick();
    expect(q("intake-status").textContent).toBe("Couldn’t finish: /x has no zotero.sqlite.");
  });

  it("asks for a vault before a drop", () => {
    const { view, q, deps } = setup();
    view.addPaths(["/a.pdf"]);
    expect(deps.addPaths).not.toHaveBeenCalled();
    expect(q("intake-status").textContent).toContain("Open a vault first");
  });
});

describe("a folder that is not a vault yet", () => {
  const folder: Folder = { path: "/home/u/pdfs", found: { vault: false, papers: 0, topPdfs: ["a.pdf", "b.pdf"], nestedPdfs: [] } };
  const moves: Move[] = [
    { from: "a.pdf", to: "papers/lamport-2001-paxos-simple/paper.pdf", title: "Paxos Made Simple", authors: ["Leslie Lamport"], year: 2001 },
    { from: "b.pdf", to: "papers/b/paper.pdf", authors: [] },
  ];

  it("writes nothing until the user chooses, then performs exactly the preview", async () => {
    const { view, q, deps } = setup({ planArrangement: vi.fn(async () => moves) });
    view.showFolder(folder);
    expect(q<HTMLDialogElement>("loose-folder").open).toBe(true);
    expect(q("folder-found").textContent).toBe("This folder holds 2 PDFs but no papers/ folder: it is not a vault yet.");
    expect(q<HTMLButtonElement>("folder-move").hidden).toBe(true);
    q<HTMLButtonElement>("folder-preview").click();
    await tick();
    expect(deps.planArrangement).toHaveBeenCalledWith("/home/u/pdfs");
    expect([...q("folder-moves").querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "a.pdf → papers/lamport-2001-paxos-simple/paper.pdf",
      "b.pdf → papers/b/paper.pdf",
    ]);
    expect(deps.applyArrangement).not.toHaveBeenCalled();
    q<HTMLButtonElement>("folder-copy").click();
    await tick();
    expect(deps.applyArrangement).toHaveBeenCalledWith("/home/u/pdfs", moves, true);
    expect(deps.opened).toHaveBeenCalled();
    expect(q<HTMLDialogElement>("loose-folder").open).toBe(false);
  });

  it("cancel writes nothing; an empty folder is made a vault only when asked", async () => {
    const { view, q, deps } = setup();
    view.showFolder(folder);
    q<HTMLButtonElement>("folder-cancel").click();
    expect(deps.openFolder).not.toHaveBeenCalled();
    expect(deps.applyArrangement).not.toHaveBeenCalled();
    view.showFolder({ path: "/empty", found: { vault: false, papers: 0, topPdfs: [], nestedPdfs: [] } });
    expect(q<HTMLButtonElement>("folder-preview").hidden).toBe(true);
    expect(q("folder-as-is").textContent).toBe("Make it a vault");
    q<HTMLButtonElement>("folder-as-is").click();
    await tick();
    expect(deps.openFolder).toHaveBeenCalledWith("/empty");
  });
});
