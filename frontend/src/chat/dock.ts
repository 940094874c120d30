// The right pane's dock: the open paper's chat, Quick Chat and the
// conversations, one shown at a time under a row of tabs. Quick Chat lives
// here rather than over the page, so opening a source from it leaves it
// open beside the PDF.

import { h } from "../lib/dom";
import "./dock.css";

export type DockTab = "paper" | "quick" | "conversations";

export interface Dock {
  el: HTMLElement;
  /** body is where the panels are mounted. */
  body: HTMLElement;
  /** add registers a panel; shown is called each time it is selected. */
  add(id: DockTab, label: string, panel: HTMLElement, shown?: () => void): void;
  select(id: DockTab): void;
  selected(): DockTab;
}

export function mountDock(host: HTMLElement): Dock {
  const tabs = h("div", { class: "dock-tabs", role: "tablist", "aria-label": "Chat panels" });
  const body = h("div", { class: "dock-body" });
  const el = h("div", { class: "dock" }, tabs, body);
  host.append(el);
  const panels = new Map<DockTab, { tab: HTMLButtonElement; panel: HTMLElement; shown?: () => void }>();
  let current: DockTab = "paper";

  function select(id: DockTab) {
    const p = panels.get(id);
    if (!p) return;
    current = id;
    for (const [k, v] of panels) {
      const on = k === id;
      v.tab.setAttribute("aria-selected", String(on));
      v.tab.tabIndex = on ? 0 : -1;
      v.panel.hidden = !on;
    }
    p.shown?.();
  }

  tabs.addEventListener("keydown", (e) => {
    const ids = [...panels.keys()];
    const i = ids.indexOf(current);
    let next = -1;
    if (e.key === "ArrowRight") next = (i + 1) % ids.length;
    else if (e.key === "ArrowLeft") next = (i - 1 + ids.length) % ids.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = ids.length - 1;
    if (next < 0) return;
    e.preventDefault();
    select(ids[next]);
    panels.get(ids[next])?.tab.focus();
  });

  return {
    el,
    body,
    add(id, label, panel, shown) {
      const tab = h("button", { type: "button", role: "tab", class: "dock-tab", "data-testid": `dock-${id}`, "aria-selected": "false", tabIndex: -1 }, label);
      panel.setAttribute("role", "tabpanel");
      if (!panel.id) panel.id = `dock-panel-${id}`;
      tab.setAttribute("aria-controls", panel.id);
      tab.addEventListener("click", () => select(id));
      tabs.append(tab);
      if (panel.parentElement !== body) body.append(panel);
      panels.set(id, { tab, panel, shown });
      if (panels.size === 1 || id === current) select(current);
      else panel.hidden = true;
    },
    select,
    selected: () => current,
  };
}
