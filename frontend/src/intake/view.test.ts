// @vitest-environment jsdom
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { AppSettings, Folder, IntakeReport, Move } from "../lib/backend";
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

const empty: IntakeReport = { added: [], updated: [], unchanged: [], skipped: [], withoutPdf: [], errors: [], gone: [], linkedBase: null };

/** answered is a user who already answered the first import's question (offline). */
const answered: AppSettings = {
  budget: { searchCards: 8, cardsPerPaper: 3, excerptChars: 600, fullChars: 6000, dirEntries: 200, turnChars: 40000 },
  metadataOnline: false,
  metadataOnlineAsked: true,
  contactEmail: "",
};

function setup(over: Partial<IntakeDeps> = {}) {
  let stored = answered;
  const deps: IntakeDeps = {
    settings: vi.fn(async () => stored),
    saveSettings: vi.fn(async (s: AppSettings) => {
      stored = s;
    }),
    importZoteroWithBase: vi.fn(async () => null),
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
    await tick(); // the settings are read first (the first import's question is answered)
    expect(deps.addPaths).toHaveBeenCalledWith(["/home/u/paxos.pdf", "/home/u/notes.txt"]);
    expect(q<HTMLButtonElement>("add-papers").disabled).toBe(true);
    view.progress({ done: 0, total: 2, current: "/home/u/paxos.pdf" });
    expect(q("intake-status").textContent).toBe("Adding papers 1 of 2 — paxos.pdf");
    finish({
      ...empty,
      added: [{ file: "/home/u/paxos.pdf", key: "", title: "Paxos Made Simple", ref: "papers/paxos-simple", why: "", changed: [], note: "" }],
      skipped: [{ file: "/home/u/notes.txt", key: "", title: "", ref: "", why: "/home/u/notes.txt is not a PDF.", changed: [], note: "" }],
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

describe("the first import asks whether to look papers up online", () => {
  const fresh: AppSettings = { ...answered, metadataOnlineAsked: false };

  it("asks once, before anything runs; Stay offline keeps lookups off", async () => {
    const { view, q, deps } = setup({ settings: vi.fn(async () => fresh), addPapers: vi.fn(async () => empty) });
    let stored = fresh;
    deps.settings = vi.fn(async () => stored);
    deps.saveSettings = vi.fn(async (s: AppSettings) => {
      stored = s;
    });
    view.setVault(true);
    q<HTMLButtonElement>("import-zotero").click();
    await tick();
    const dialog = q<HTMLDialogElement>("metadata-consent");
    expect(dialog.open).toBe(true);
    expect(dialog.textContent).toContain("a paper’s DOI, to Crossref (api.crossref.org)");
    expect(dialog.textContent).toContain("a paper’s arXiv id, to arXiv (export.arxiv.org)");
    expect(dialog.textContent).toContain("no titles, no PDFs, no notes");
    expect(document.activeElement).toBe(q("consent-offline"));
    expect(deps.importZotero).not.toHaveBeenCalled();
    q<HTMLButtonElement>("consent-offline").click();
    await tick();
    expect(dialog.open).toBe(false);
    expect(deps.saveSettings).toHaveBeenCalledTimes(1);
    expect(stored.metadataOnline).toBe(false);
    expect(stored.metadataOnlineAsked).toBe(true);
    expect(stored.budget).toEqual(answered.budget); // the other settings are kept
    expect(deps.importZotero).toHaveBeenCalledTimes(1);

    q<HTMLButtonElement>("add-papers").click();
    await tick();
    expect(dialog.open).toBe(false);
    expect(deps.addPapers).toHaveBeenCalledTimes(1);
    expect(deps.saveSettings).toHaveBeenCalledTimes(1);
  });

  it("Look up online, on a dropped PDF, switches lookups on and then adds it", async () => {
    const { view, q, deps } = setup();
    let stored = fresh;
    deps.settings = vi.fn(async () => stored);
    deps.saveSettings = vi.fn(async (s: AppSettings) => {
      stored = s;
    });
    view.setVault(true);
    view.addPaths(["/home/u/paxos.pdf"]);
    await tick();
    expect(deps.addPaths).not.toHaveBeenCalled();
    q<HTMLButtonElement>("consent-online").click();
    await tick();
    expect(stored.metadataOnline).toBe(true);
    expect(stored.metadataOnlineAsked).toBe(true);
    expect(deps.addPaths).toHaveBeenCalledWith(["/home/u/paxos.pdf"]);
  });

  it("Escape answers nothing: the import goes on offline and the question comes back", async () => {
    const { view, q, deps } = setup({ settings: vi.fn(async () => fresh) });
    view.setVault(true);
    view.addPaths(["/a.pdf"]);
    await tick();
    q<HTMLDialogElement>("metadata-consent").dispatchEvent(new Event("cancel", { cancelable: true }));
    await tick();
    expect(deps.saveSettings).not.toHaveBeenCalled();
    expect(deps.addPaths).toHaveBeenCalledTimes(1);
    view.addPaths(["/b.pdf"]);
    await tick();
    expect(q<HTMLDialogElement>("metadata-consent").open).toBe(true);
    expect(deps.addPaths).toHaveBeenCalledTimes(1);
  });

  it("a failed save is said, and the question stays until answered", async () => {
    const { view, q, deps } = setup({
      settings: vi.fn(async () => fresh),
      saveSettings: vi.fn(async () => Promise.reject({ code: "internal", message: "the settings file cannot be written." })),
    });
    view.setVault(true);
    view.addPaths(["/a.pdf"]);
    await tick();
    q<HTMLButtonElement>("consent-online").click();
    await tick();
    await tick();
    expect(q<HTMLDialogElement>("metadata-consent").open).toBe(true);
    expect(q("consent-problem").hidden).toBe(false);
    expect(q("consent-problem").textContent).toContain("the settings file cannot be written.");
    expect(deps.addPaths).not.toHaveBeenCalled();
  });

  it("is not asked when lookups are already on, and asked before a folder is arranged", async () => {
    const on = setup({ settings: vi.fn(async () => ({ ...fresh, metadataOnline: true })) });
    on.view.setVault(true);
    on.view.addPaths(["/a.pdf"]);
    await tick();
    expect(on.q<HTMLDialogElement>("metadata-consent").open).toBe(false);
    expect(on.deps.addPaths).toHaveBeenCalled();

    const moves: Move[] = [{ from: "a.pdf", to: "papers/a/paper.pdf", authors: [] }];
    const { view, q, deps } = setup({ settings: vi.fn(async () => fresh), planArrangement: vi.fn(async () => moves) });
    view.showFolder({ path: "/home/u/pdfs", found: { vault: false, papers: 0, topPdfs: ["a.pdf"], nestedPdfs: [] } });
    q<HTMLButtonElement>("folder-preview").click();
    await tick();
    q<HTMLButtonElement>("folder-move").click();
    await tick();
    expect(q<HTMLDialogElement>("metadata-consent").open).toBe(true);
    expect(deps.applyArrangement).not.toHaveBeenCalled();
    q<HTMLButtonElement>("consent-offline").click();
    await tick();
    await tick();
    expect(deps.applyArrangement).toHaveBeenCalledWith("/home/u/pdfs", moves, false);
  });
});

describe("linked PDFs Zotero's base directory would find", () => {
  it("the summary says so and Choose base directory… imports again with the folder chosen", async () => {
    const first: IntakeReport = {
      ...empty,
      withoutPdf: [{ file: "", key: "LINK0001", title: "Paxos Made Simple", ref: "", why: "its PDF is linked relative to Zotero's base directory, which was not found.", changed: [], note: "" }],
      linkedBase: { dataDir: "/home/u/Zotero", baseDir: "", missing: 1 },
    };
    const second: IntakeReport = { ...empty, added: [{ file: "/home/u/Papers/paxos.pdf", key: "LINK0001", title: "Paxos Made Simple", ref: "papers/paxos", why: "", changed: [], note: "" }] };
    const { view, q, deps } = setup({ importZotero: vi.fn(async () => first), importZoteroWithBase: vi.fn(async () => second) });
    view.setVault(true);
    q<HTMLButtonElement>("import-zotero").click();
    await tick();
    await tick();
    expect(q("linked-base").textContent).toContain("could not find which folder that is");
    expect(document.activeElement).toBe(q("choose-base"));
    q<HTMLButtonElement>("choose-base").click();
    await tick();
    await tick();
    expect(deps.importZoteroWithBase).toHaveBeenCalledWith("/home/u/Zotero");
    expect(q("intake-summary").textContent).toContain("1 paper added.");
    expect(document.querySelector('[data-testid="linked-base"]')).toBeNull();
  });
});

describe("a drop while a run goes on", () => {
  it("is added when the run ends, and the status line says so meanwhile", async () => {
    let finish: (r: IntakeReport) => void = () => {};
    const addPaths = vi.fn((paths: string[]) =>
      paths[0] === "/a.pdf" ? new Promise<IntakeReport | null>((r) => (finish = r)) : Promise.resolve<IntakeReport | null>(empty),
    );
    const { view, q, deps } = setup({ addPaths });
    view.setVault(true);
    view.addPaths(["/a.pdf"]);
    await tick();
    view.addPaths(["/b.pdf"]);
    expect(q("intake-status").textContent).toBe("Adding papers… The PDF you dropped will be added next.");
    expect(deps.addPaths).toHaveBeenCalledTimes(1);
    finish(empty);
    await tick();
    await tick();
    expect(deps.addPaths).toHaveBeenLastCalledWith(["/b.pdf"]);
  });
});
