import { describe, expect, it } from "vitest";
import { defaults, effective, fromStored, MinChat, MinLibrary, MinViewer, onKey, Splitter, toStored } from "./state";

describe("pane layout", () => {
  it("fits a 1024-pixel window with room for the PDF", () => {
    const l = defaults(1024);
    const e = effective(l, 1024);
    expect(1024 - e.library - e.chat - 2 * Splitter).toBeGreaterThanOrEqual(480);
  });

  it("gives the PDF at least its minimum, the chat giving way first", () => {
    const l = { ...defaults(1600), library: 300, chat: 600 };
    const e = effective(l, 1024);
    expect(1024 - e.library - e.chat - 2 * Splitter).toBe(MinViewer);
    expect(e.library).toBe(300);
    expect(e.chat).toBe(1024 - 300 - 2 * Splitter - MinViewer);
    const tiny = effective(l, 700);
    expect(tiny.chat).toBe(MinChat);
    expect(tiny.library).toBe(MinLibrary);
  });

  it("collapsed panes take no room and keep their size for later", () => {
    const l = { ...defaults(1024), collapsed: { library: true, chat: false } };
    expect(effective(l, 1024).library).toBe(0);
    const back = onKey(l, "library", "Enter", false, 1024)!;
    expect(back.collapsed.library).toBe(false);
    expect(effective(back, 1024).library).toBe(220);
  });

  it("moves separators with the keyboard", () => {
    const l = defaults(1024);
    expect(onKey(l, "library", "ArrowRight", false, 1024)!.library).toBe(244);
    expect(onKey(l, "library", "ArrowLeft", true, 1024)!.library).toBe(220 - 96 < MinLibrary ? MinLibrary : 124);
    // The chat's separator is on its left: moving it left widens the chat.
    expect(onKey(l, "chat", "ArrowLeft", false, 1024)!.chat).toBe(324);
    expect(onKey(l, "chat", "End", false, 1024)!.chat).toBe(MinChat);
    const widest = onKey(l, "library", "End", false, 1024)!;
    expect(1024 - widest.library - widest.chat - 2 * Splitter).toBe(MinViewer);
    expect(onKey(l, "library", "a", false, 1024)).toBeNull();
  });

  it("round-trips through what the backend stores, ignoring nonsense", () => {
    const l = { ...defaults(1024), library: 250, relations: 180, collapsed: { library: false, chat: true } };
    expect(fromStored(toStored(l), 1024)).toEqual(l);
    expect(fromStored({ sizes: { library: -3, chat: Number.NaN }, collapsed: {} }, 1024)).toEqual(defaults(1024));
    expect(fromStored(null, 1600)).toEqual(defaults(1600));
  });
});
