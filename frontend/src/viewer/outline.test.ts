// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import { currentEntry, OutlinePanel, type OutlineEntry } from "./outline";

// Paxos Made Simple's sections as the index finds them on its pages.
const paxos: OutlineEntry[] = [
  { level: 1, title: "Abstract", page: 2 },
  { level: 1, title: "1 Introduction", page: 4 },
  { level: 1, title: "2 The Consensus Algorithm", page: 4 },
  { level: 2, title: "2.1 The Problem", page: 4 },
  { level: 2, title: "2.2 Choosing a Value", page: 5 },
  { level: 2, title: "2.3 Learning a Chosen Value", page: 9 },
  { level: 1, title: "3 Implementing a State Machine", page: 11 },
  { level: 1, title: "References", page: 14 },
];

function mount() {
  const actions = { open: vi.fn(), closed: vi.fn() };
  const panel = new OutlinePanel(actions);
  document.body.replaceChildren(panel.el);
  return { panel, actions, buttons: () => [...panel.el.querySelectorAll<HTMLButtonElement>("button.outline-entry")] };
}

function key(el: Element, k: string) {
  el.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
}

describe("currentEntry", () => {
  it("is the last section starting on or before the page", () => {
    expect(currentEntry(paxos, 1)).toBe(-1);
    expect(currentEntry(paxos, 4)).toBe(3); // three sections start on page 4: the last
    expect(currentEntry(paxos, 7)).toBe(4); // inside 2.2
    expect(currentEntry(paxos, 20)).toBe(7);
  });
});

describe("OutlinePanel", () => {
  it("lists the sections, indented by level, each opening its page", () => {
    const { panel, actions, buttons } = mount();
    panel.show(paxos);
    expect(buttons().map((b) => b.textContent)).toEqual(paxos.map((s) => `${s.title}${s.page}`));
    expect(buttons()[4].className).toContain("level-2");
    buttons()[4].click();
    expect(actions.open).toHaveBeenCalledWith(5);
  });

  it("marks the section being read, and makes it the one Tab reaches", () => {
    const { panel, buttons } = mount();
    panel.setPage(7);
    panel.show(paxos);
    const current = buttons().filter((b) => b.getAttribute("aria-current") === "location");
    expect(current.map((b) => b.title)).toEqual(["2.2 Choosing a Value (page 5)"]);
    expect(buttons().filter((b) => b.tabIndex === 0)).toEqual(current);
    panel.setPage(12);
    expect(buttons()[6].getAttribute("aria-current")).toBe("location");
    expect(buttons()[4].hasAttribute("aria-current")).toBe(false);
  });

  it("opens by the keyboard on the current section, moves with the arrows, and Escape hides it", () => {
    const { panel, actions, buttons } = mount();
    panel.show(paxos);
    panel.setPage(9);
    expect(panel.isOpen).toBe(false);
    panel.toggle(true);
    expect(panel.isOpen).toBe(true);
    expect(document.activeElement).toBe(buttons()[5]);
    key(document.activeElement!, "ArrowDown");
    expect(document.activeElement).toBe(buttons()[6]);
    key(document.activeElement!, "Home");
    expect(document.activeElement).toBe(buttons()[0]);
    key(document.activeElement!, "ArrowUp"); // stays on the first
    expect(document.activeElement).toBe(buttons()[0]);
    key(document.activeElement!, "End");
    expect(document.activeElement).toBe(buttons()[7]);
    key(document.activeElement!, "Escape");
    expect(panel.isOpen).toBe(false);
    expect(actions.closed).toHaveBeenCalledOnce();
  });

  it("says when a paper has no sections, or why they are not there", () => {
    const { panel, buttons } = mount();
    panel.show([]);
    expect(buttons()).toHaveLength(0);
    expect(panel.el.textContent).toContain("No sections were found in this paper.");
    panel.show([], "Couldn’t list the sections: the index is busy");
    expect(panel.el.textContent).toContain("the index is busy");
    panel.show(paxos);
    expect(panel.el.querySelector<HTMLElement>(".outline-status")!.hidden).toBe(true);
  });
});
