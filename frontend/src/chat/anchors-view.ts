// The anchors above the question box: the passage selected last (which the
// next turn carries) and up to three pinned passages, each removable.

import type { Selection } from "../lib/backend";
import { h } from "../lib/dom";
import { anchorPreview, MaxPinned, type AnchorEvent, type AnchorsState } from "./anchors";

export interface AnchorsView {
  el: HTMLElement;
  render(state: AnchorsState): void;
}

export function createAnchorsView(dispatch: (e: AnchorEvent) => void, titleOfPath: (path: string) => string): AnchorsView {
  const el = h("div", { class: "anchors", "aria-label": "Selected passages", "data-testid": "anchors" });

  function where(s: Selection): string {
    const title = titleOfPath(s.sourcePath) || s.sourcePath.split("/").pop() || s.sourcePath;
    return s.page ? `${title}, p. ${s.page}` : title;
  }

  return {
    el,
    render(state) {
      const rows: HTMLElement[] = [];
      state.pinned.forEach((s, i) => {
        rows.push(
          h(
            "div",
            { class: "anchor pinned", "data-testid": "anchor-pinned", title: s.text },
            h("span", { class: "anchor-where" }, `Pinned · ${where(s)}`),
            h("q", { class: "anchor-text" }, anchorPreview(s.text)),
            h("button", { type: "button", class: "icon quiet", "aria-label": `Unpin passage from ${where(s)}`, onClick: () => dispatch({ type: "unpin", index: i }) }, "×"),
          ),
        );
      });
      const cur = state.current;
      if (cur) {
        rows.push(
          h(
            "div",
            { class: "anchor current", "data-testid": "anchor-current", title: cur.text },
            h("span", { class: "anchor-where" }, `Selection · ${where(cur)}`),
            h("q", { class: "anchor-text" }, anchorPreview(cur.text)),
            h(
              "button",
              {
                type: "button",
                class: "quiet",
                disabled: state.pinned.length >= MaxPinned,
                title: state.pinned.length >= MaxPinned ? `At most ${MaxPinned} passages can be pinned` : "Keep this passage for later questions",
                "data-testid": "anchor-pin",
                onClick: () => dispatch({ type: "pin" }),
              },
              "Pin",
            ),
            h("button", { type: "button", class: "icon quiet", "aria-label": "Forget this selection", onClick: () => dispatch({ type: "drop-current" }) }, "×"),
          ),
        );
      }
      if (state.pinned.length + (cur ? 1 : 0) > 1) {
        rows.push(h("button", { type: "button", class: "quiet anchors-clear", "data-testid": "anchors-clear", onClick: () => dispatch({ type: "clear" }) }, "Clear all"));
      }
      if (state.full) rows.push(h("p", { class: "anchors-full", role: "status" }, `At most ${MaxPinned} passages can be pinned; unpin one first.`));
      el.replaceChildren(...rows);
      el.hidden = rows.length === 0;
    },
  };
}
