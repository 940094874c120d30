// The indexing progress bar across the top of the window.

import { h } from "../lib/dom";
import { progressFraction, progressText, type ProgressState } from "./state";

export interface ProgressView {
  render(state: ProgressState): void;
}

export function mountProgress(host: HTMLElement, titleOf: (ref: string) => string = () => ""): ProgressView {
  const fill = h("div", { class: "progress-fill" });
  const label = h("div", { class: "progress-label" });
  const bar = h(
    "div",
    { class: "progress", "data-testid": "progress", role: "progressbar", "aria-label": "Indexing progress", hidden: true },
    h("div", { class: "progress-track" }, fill),
    label,
  );
  host.append(bar);

  return {
    render(state) {
      bar.hidden = state.phase === "idle";
      bar.dataset.phase = state.phase;
      const fraction = progressFraction(state);
      bar.classList.toggle("indeterminate", fraction === null);
      fill.style.width = fraction === null ? "" : `${(fraction * 100).toFixed(1)}%`;
      if (fraction === null) {
        bar.removeAttribute("aria-valuenow");
      } else {
        bar.setAttribute("aria-valuenow", String(Math.round(fraction * 100)));
      }
      bar.classList.toggle("has-errors", (state.summary?.errors ?? 0) > 0);
      label.textContent = progressText(state, titleOf);
    },
  };
}
