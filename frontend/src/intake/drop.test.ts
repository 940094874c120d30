// @vitest-environment jsdom
// PDFs dropped on the window: Wails (DragAndDrop.EnableFileDrop in main.go)
// hands the native drop to the runtime's OnFileDrop callback as (x, y,
// paths); from there the path to the backend is ours and runs here for real:
// takeDrops (intake/window.ts, as main.ts calls it) → backend.onFileDrop → the intake view (which asks the first import's
// question) → backend.addPaths → the generated binding App.AddPaths. Only
// the two ends are stubs: window.runtime (Wails' JS runtime) and window.go
// (the Go methods behind the bindings).
import { beforeAll, describe, expect, it, vi } from "vitest";
import { mountWindowIntake, takeDrops } from "./window";

beforeAll(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("a drop on the window", () => {
  it("reaches App.AddPaths with the dropped paths, wherever on the window it lands", async () => {
    let dropped: ((x: number, y: number, paths: string[]) => void) | null = null;
    let useDropTarget: unknown;
    const w = window as unknown as Record<string, unknown>;
    w.runtime = {
      OnFileDrop: vi.fn((cb: (x: number, y: number, paths: string[]) => void, target: unknown) => {
        dropped = cb;
        useDropTarget = target;
      }),
    };
    let settings = { budget: {}, metadataOnline: false, metadataOnlineAsked: false, contactEmail: "" };
    const AddPaths = vi.fn(async (paths: string[]) => ({ added: paths.map((file) => ({ file, ref: "papers/x" })), updated: [], unchanged: [], skipped: [], withoutPdf: [], errors: [] }));
    w.go = {
      main: {
        App: {
          AddPaths,
          Settings: vi.fn(async () => settings),
          SaveSettings: vi.fn(async (s: typeof settings) => {
            settings = s;
          }),
        },
      },
    };

    document.body.replaceChildren();
    const bar = document.createElement("div");
    const dialogs = document.createElement("div");
    document.body.append(bar, dialogs);
    const intake = mountWindowIntake(bar, dialogs, () => {});
    intake.setVault(true);
    takeDrops(intake); // as main.ts wires it

    // false: every drop counts, not only one on an element styled as a drop target
    expect(useDropTarget).toBe(false);
    expect(dropped).not.toBeNull();
    dropped!(812, 433, ["/home/u/Downloads/paxos.pdf", "/home/u/Downloads/old"]);
    await tick();
    // The first import: the question comes first, and nothing is added before the answer.
    expect(AddPaths).not.toHaveBeenCalled();
    document.querySelector<HTMLButtonElement>('[data-testid="consent-offline"]')!.click();
    await tick();
    await tick();
    expect(settings.metadataOnlineAsked).toBe(true);
    expect(settings.metadataOnline).toBe(false);
    expect(AddPaths).toHaveBeenCalledWith(["/home/u/Downloads/paxos.pdf", "/home/u/Downloads/old"]);
    await tick();
    const summary = document.querySelector<HTMLDialogElement>('[data-testid="intake-summary"]')!;
    expect(summary.open).toBe(true);
    expect(summary.textContent).toContain("2 papers added.");
  });

  it("leaves text dragged into a text field to the page, and takes every other drag", () => {
    takeDrops({ addPaths: () => {} });
    const drag = (target: EventTarget, types: string[]) => {
      const e = new Event("dragover", { bubbles: true, cancelable: true });
      Object.defineProperty(e, "dataTransfer", { value: { types } });
      target.dispatchEvent(e);
      return e.defaultPrevented;
    };
    const field = document.createElement("textarea");
    const pane = document.createElement("div");
    document.body.append(field, pane);
    expect(drag(field, ["text/plain"])).toBe(false); // a quote from the PDF goes into the question
    expect(drag(field, ["text/uri-list", "text/plain"])).toBe(true); // a file is added, never typed in
    expect(drag(field, ["Files"])).toBe(true);
    expect(drag(pane, ["text/plain"])).toBe(true); // WebKitGTK would load it in place of the app
    expect(drag(pane, ["text/uri-list"])).toBe(true);
  });
});
