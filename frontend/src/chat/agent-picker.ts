// The per-turn agent picker of a chat surface: a small select of the
// configured agents (the default preselected, the last pick remembered in
// localStorage per surface) and a line that says when a remembered agent
// was removed and the default answers instead.

import type { AgentList } from "../lib/backend";
import { h } from "../lib/dom";
import { agentOptions, agentStorageKey, chooseAgent, fallbackNotice, rememberPick } from "./agent-choice";

export interface AgentPicker {
  /** el is the labelled select, for the question box's action row. */
  el: HTMLElement;
  /** notice says when the remembered agent is gone; hidden otherwise. */
  notice: HTMLElement;
  /** agent is the name to pass to Ask ("" asks the backend's default). */
  agent(): string;
  /** refresh reads the agents again and resolves to the agent to ask (the default when the chosen one is gone). */
  refresh(): Promise<string>;
}

export function createAgentPicker(surface: "sidebar" | "quickChat", agents: () => Promise<AgentList>): AgentPicker {
  const key = agentStorageKey(surface);
  const id = `agent-picker-${surface}`;
  const select = h("select", {
    id,
    class: "agent-picker",
    title: "The agent that answers the next question",
    "data-testid": "agent-picker",
  });
  const el = h("span", { class: "agent-pick" }, h("label", { for: id }, "Agent"), select);
  const notice = h("p", { class: "agent-fallback", role: "status", hidden: true, "data-testid": "agent-fallback" });
  let list: AgentList = { default: "", agents: [] };
  // The last pick, mirrored in localStorage (null: follow the default).
  let remembered = load(key);
  let seq = 0;

  function render(name: string) {
    select.replaceChildren(...agentOptions(list).map((o) => h("option", { value: o.name, selected: o.name === name }, o.label)));
    select.value = name;
  }

  function say(text: string) {
    notice.textContent = text;
    notice.hidden = text === "";
  }

  async function refresh(): Promise<string> {
    const mine = ++seq;
    try {
      const next = await agents();
      if (mine !== seq) return select.value;
      list = next;
    } catch {
      // Keep what is shown: the backend checks the name when the turn starts.
      return select.value;
    }
    const choice = chooseAgent(list, remembered);
    if (choice.missing) {
      remembered = null;
      store(key, null);
      say(fallbackNotice(choice.missing, list));
    }
    render(choice.name);
    return choice.name;
  }

  select.addEventListener("change", () => {
    remembered = rememberPick(list, select.value);
    store(key, remembered);
    say("");
  });
  // An agent added while the app runs (agents.json edited by hand) is listed when the picker is opened.
  select.addEventListener("focus", () => void refresh());
  render("");
  void refresh();

  return { el, notice, agent: () => select.value, refresh };
}

function load(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Private mode or storage off: the pick lasts for this session.
  }
}
