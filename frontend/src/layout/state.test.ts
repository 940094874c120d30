import { describe, expect, it } from "vitest";
import { effective, fromStored, initial, MinChat, MinLibrary, MinViewer, onKey, Splitter, toStored } from "./state";

const viewer = (e: { library: number; chat: number }, width: number) => width - e.library - e.chat - 2 * Splitter;

describe("pane layout", () => {
  it("fits a 1024-pixel window with room for the PDF, and a wide one with wider panes", () => {
    expect(effective(initial, 1024)).toEqual({ library: 240, chat: 300 });
    expect(viewer(effective(initial, 1024), 1024)).toBe(472);
    expect(effective(initial, 1600)).toEqual({ library: 280, chat: 360 });
  });

  it("gives the PDF at least its minimum, the chat giving way first", () => {
    const l = { ...initial, library: 300, chat: 600 };
    const e = effective(l, 1024);
    expect(viewer(e, 1024)).toBe(MinViewer);
    expect(e.library).toBe(300);
    const tiny = effective(l, 700);
    expect(tiny.chat).toBe(MinChat);
    expect(tiny.library).toBe(MinLibrary);
  });

  it("collapsed panes take no room and keep their size for later", () => {
    const l = { ...initial, collapsed: { library: true, chat: false } };
    expect(effective(l, 1024).library).toBe(0);
    const back = onKey(l, "library", "Enter", false, 1024)!;
    expect(back.collapsed.library).toBe(false);
    expect(effective(back, 1024).library).toBe(240);
  });

  it("moves separators with the keyboard", () => {
    expect(onKey(initial, "library", "ArrowRight", false, 1024)!.library).toBe(264);
    expect(onKey(initial, "library", "ArrowLeft", true, 1024)!.library).toBe(MinLibrary);
    // The chat's separator is on its left: moving it left widens the chat.
    expect(onKey(initial, "chat", "ArrowLeft", false, 1024)!.chat).toBe(324);
    expect(onKey(initial, "chat", "End", false, 1024)!.chat).toBe(MinChat);
    const widest = onKey(initial, "library", "End", false, 1024)!;
    expect(viewer(effective(widest, 1024), 1024)).toBe(MinViewer);
    expect(onKey(initial, "library", "a", false, 1024)).toBeNull();
  });

  it("round-trips through what the backend stores, ignoring nonsense", () => {
    const l = { ...initial, library: 250, relations: 180, collapsed: { library: false, chat: true } };
    expect(fromStored(toStored(l))).toEqual(l);
    expect(toStored(initial)).toEqual({ sizes: {}, collapsed: { library: false, chat: false } });
    expect(fromStored({ sizes: { library: -3, chat: Number.NaN }, collapsed: {} })).toEqual(initial);
    expect(fromStored(null)).toEqual(initial);
  });
});
