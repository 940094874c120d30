// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import { currentEntry, figureText, OutlinePanel, type OutlineEntry } from "./outline";

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
  const actions = { open: vi.fn(), closed: vi.fn(), openFigure: vi.fn() };
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

describe("figures", () => {
  const attention = { ref: "papers/1706.03762", title: "Attention Is All You Need", pageLabel: "3", citationUri: "papers/1706.03762/1706.03762.pdf#page=3" };
  const fig1 = {
    ...attention,
    page: 3,
    kind: "figure",
    label: "Figure 1",
    caption: "Figure 1: The Transformer - model architecture.",
    region: { x: 104.6, y: 36.6, width: 403.6, height: 380.9 },
    box: { x: 209, y: 404.5, width: 194, height: 11 },
  };
  const table2 = { ...fig1, page: 8, kind: "table", label: "Table 2", caption: "Table 2: The Transformer achieves better BLEU scores" };

  it("lists the figures and tables under the sections; a click opens the figure", () => {
    const { panel, actions } = mount();
    const figures = () => [...panel.el.querySelectorAll<HTMLButtonElement>("[data-testid=figure-entry]")];
    panel.show(paxos);
    expect(panel.el.querySelector<HTMLElement>("[data-testid=figures]")?.hidden).toBe(true);
    panel.showFigures([fig1, table2]);
    expect(figures().map((b) => b.textContent)).toEqual(["Figure 1: The Transformer - model architecture.3", "Table 2: The Transformer achieves better BLEU scores8"]);
    expect(figures()[1].classList.contains("table")).toBe(true);
    figures()[0].click();
    expect(actions.openFigure).toHaveBeenCalledWith(fig1);
    expect(actions.open).not.toHaveBeenCalled();
    panel.showFigures([]);
    expect(figures()).toHaveLength(0);
    expect(panel.el.querySelector<HTMLElement>("[data-testid=figures]")?.hidden).toBe(true);
  });

  it("names a figure by its label and caption", () => {
    expect(figureText({ label: "Figure 3", caption: "Figure 3. Results on CIFAR-10" })).toBe("Figure 3: Results on CIFAR-10");
    expect(figureText({ label: "Table II", caption: "Table II" })).toBe("Table II");
    expect(figureText({ label: "Figure 2", caption: "Fig. 2 | Overview" })).toBe("Figure 2: Fig. 2 | Overview");
  });
});
