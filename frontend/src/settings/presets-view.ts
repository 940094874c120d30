// The known agents Settings offers (Claude Code, Gemini CLI, Codex, OpenCode,
// goose): each with its command, how to install it and log in, and whether
// its command is on PATH; "Add…" fills the agent form with it.

import { errorText, type AgentPreset } from "../lib/backend";
import { h } from "../lib/dom";
import { formatArgs } from "./agents";

export interface PresetList {
  el: HTMLElement;
  /** load reads the presets again (whether each is on PATH may have changed). */
  load(presets: () => Promise<AgentPreset[]>): Promise<void>;
}

export function createPresetList(add: (p: AgentPreset) => void): PresetList {
  const list = h("ul", { class: "preset-list", "aria-label": "Known agents" });
  const note = h("p", { class: "detail", role: "status" });
  const el = h(
    "details",
    { class: "presets", "data-testid": "presets", open: true },
    h("summary", {}, "Known agents"),
    note,
    list,
  );

  function row(p: AgentPreset): HTMLElement {
    return h(
      "li",
      { class: "preset", "data-testid": "preset", "data-id": p.id },
      h(
        "div",
        { class: "agent-head" },
        h("strong", {}, p.name),
        p.found
          ? h("span", { class: "badge badge-ok", title: p.path, "data-testid": "preset-found" }, "found on PATH")
          : h("span", { class: "badge badge-warn", "data-testid": "preset-found" }, "not found on PATH"),
        h("button", { type: "button", class: "quiet preset-add", "aria-label": `Add ${p.name}…`, onClick: () => add(p) }, "Add…"),
      ),
      h("code", { class: "agent-command" }, [p.command, formatArgs(p.args)].filter(Boolean).join(" ")),
      h("p", { class: "preset-line", "data-testid": "preset-install" }, h("span", { class: "preset-label" }, "Install: "), p.install),
      h("p", { class: "preset-line", "data-testid": "preset-login" }, h("span", { class: "preset-label" }, "Log in: "), p.login),
    );
  }

  return {
    el,
    async load(presets) {
      try {
        const found = await presets();
        note.textContent = "";
        list.replaceChildren(...found.map(row));
      } catch (err) {
        note.textContent = `Couldn’t list the known agents: ${errorText(err)}`;
      }
    },
  };
}
