// Settings (Ctrl+,): the agents Agentero can ask (list, add, edit, test the
// connection, choose the default), the tools' reading budget, the vault's
// context documents and the theme.

import { errorText, type AgentCapabilities, type AgentConfig, type AgentList, type AgentReport } from "../lib/backend";
import { h } from "../lib/dom";
import { agentProblem, formatArgs, formatEnv, parseArgs, parseEnv } from "./agents";
import { createBudgetSection, type BudgetDeps } from "./budget-view";
import { createContextDocsSection, type ContextDocsDeps } from "./context-docs-view";
import { applyTheme, loadTheme, type ThemeChoice } from "./theme";

export interface SettingsDeps extends BudgetDeps, ContextDocsDeps {
  agents(): Promise<AgentList>;
  saveAgent(agent: AgentConfig, makeDefault: boolean): Promise<void>;
  setDefaultAgent(name: string): Promise<void>;
  deleteAgent(name: string): Promise<void>;
  testAgent(agent: AgentConfig): Promise<AgentReport>;
  /** agentsChanged is told when an agent was added, edited, removed or made the default. */
  agentsChanged(): void;
}

export interface SettingsView {
  open(): void;
}

const Builtin = "builtin";

export function mountSettings(host: HTMLElement, deps: SettingsDeps): SettingsView {
  const dialog = h("dialog", { class: "settings", "aria-label": "Settings", "data-testid": "settings" });
  const agentList = h("ul", { class: "agent-list", "aria-label": "Agents" });
  const status = h("p", { class: "settings-status", role: "status" });
  const form = h("div", { class: "agent-form", hidden: true });
  const add = h("button", { type: "button", "data-testid": "agent-add" }, "Add agent…");
  // closeForm hides the form and keeps the focus inside the dialog (Esc and Tab keep working).
  const closeForm = () => {
    form.hidden = true;
    add.focus();
  };
  host.append(dialog);

  let list: AgentList = { default: Builtin, agents: [] };

  function setStatus(text: string, tone = "") {
    status.textContent = text;
    status.className = `settings-status ${tone}`;
  }

  async function reload() {
    try {
      list = await deps.agents();
      renderAgents();
      deps.agentsChanged();
    } catch (err) {
      setStatus(`Couldn’t read the agent list: ${errorText(err)}`, "error");
    }
  }

  function renderAgents() {
    agentList.replaceChildren(
      ...list.agents.map((a) => {
        const builtin = a.name === Builtin;
        const isDefault = a.name === list.default;
        const result = h("span", { class: "agent-test", role: "status" });
        return h(
          "li",
          { class: "agent", "data-testid": "agent-row", "data-name": a.name },
          h(
            "div",
            { class: "agent-head" },
            h("strong", {}, builtin ? "Built-in agent" : a.name),
            isDefault ? h("span", { class: "badge badge-ok" }, "default") : null,
          ),
          h("code", { class: "agent-command" }, builtin ? "offline, quotes the passages that answer" : [a.command, formatArgs(a.args)].filter(Boolean).join(" ")),
          h(
            "div",
            { class: "agent-actions" },
            isDefault ? null : h("button", { type: "button", class: "quiet", onClick: () => void makeDefault(a.name) }, "Make default"),
            builtin ? null : h("button", { type: "button", class: "quiet", onClick: () => edit(a) }, "Edit"),
            h("button", { type: "button", class: "quiet", onClick: () => void test(a, result) }, "Test connection"),
            builtin ? null : h("button", { type: "button", class: "quiet danger", onClick: () => void remove(a.name) }, "Delete"),
          ),
          result,
        );
      }),
    );
  }

  async function makeDefault(name: string) {
    try {
      await deps.setDefaultAgent(name);
      setStatus(`${name === Builtin ? "The built-in agent" : name} now answers new questions.`);
      await reload();
    } catch (err) {
      setStatus(errorText(err), "error");
    }
  }

  async function remove(name: string) {
    if (!confirm(`Remove the agent “${name}”?`)) return;
    try {
      await deps.deleteAgent(name);
      setStatus(`Removed ${name}.`);
      await reload();
    } catch (err) {
      setStatus(errorText(err), "error");
    }
  }

  async function test(a: AgentConfig, out: HTMLElement) {
    out.textContent = "Starting the agent…";
    out.className = "agent-test busy";
    try {
      const report = await deps.testAgent(a);
      out.textContent = `Connected. ${capabilityText(report.capabilities)}`;
      out.className = "agent-test ok";
    } catch (err) {
      out.textContent = `Couldn’t connect: ${errorText(err)}`;
      out.className = "agent-test error";
    }
  }

  function edit(a: AgentConfig | null) {
    const editing = a?.name ?? "";
    const name = h("input", { type: "text", value: a?.name ?? "", placeholder: "claude", "aria-label": "Name", required: true });
    const command = h("input", { type: "text", value: a?.command ?? "", placeholder: "npx", "aria-label": "Command" });
    const args = h("input", { type: "text", value: formatArgs(a?.args ?? []), placeholder: "@zed-industries/claude-code-acp", "aria-label": "Arguments" });
    const env = h("textarea", { rows: 3, placeholder: "ANTHROPIC_API_KEY=…", "aria-label": "Environment" });
    env.value = formatEnv(a?.env ?? {});
    const makeDefaultBox = h("input", { type: "checkbox", checked: list.default === editing && editing !== "" });
    const result = h("p", { class: "agent-test", role: "status" });

    // What the form does not show (the context window) is kept as it was.
    const read = (): AgentConfig => ({ ...a, name: name.value.trim(), command: command.value.trim(), args: parseArgs(args.value), env: parseEnv(env.value) });
    const guard = (f: (cfg: AgentConfig) => Promise<void>) => async () => {
      try {
        const cfg = read();
        const problem = agentProblem(cfg, list.agents, editing);
        if (problem) {
          result.textContent = problem;
          result.className = "agent-test error";
          return;
        }
        await f(cfg);
      } catch (err) {
        result.textContent = errorText(err);
        result.className = "agent-test error";
      }
    };
    const save = guard(async (cfg) => {
      await deps.saveAgent(cfg, makeDefaultBox.checked);
      if (editing && editing !== cfg.name) await deps.deleteAgent(editing);
      closeForm();
      setStatus(`Saved ${cfg.name}.`);
      await reload();
    });

    form.replaceChildren(
      h("h3", {}, a ? `Edit ${a.name}` : "Add an agent"),
      h("p", { class: "detail" }, "Any agent that speaks the Agent Client Protocol over stdio: Claude Code (claude-code-acp), Gemini CLI (gemini --experimental-acp), …"),
      h("label", {}, "Name", name),
      h("label", {}, "Command", command),
      h("label", {}, "Arguments", args),
      h("label", {}, "Environment (KEY=VALUE, one per line)", env),
      h("label", { class: "inline" }, makeDefaultBox, "Use it for new questions (default)"),
      h(
        "div",
        { class: "form-actions" },
        h("button", { type: "button", onClick: guard((cfg) => test(cfg, result)) }, "Test connection"),
        h("button", { type: "button", onClick: closeForm }, "Cancel"),
        h("button", { type: "button", class: "primary", onClick: save }, "Save"),
      ),
      result,
    );
    form.hidden = false;
    name.focus();
  }

  const choice = loadTheme();
  const themes = h(
    "fieldset",
    { class: "theme-choice" },
    h("legend", {}, "Theme"),
    ...(["system", "light", "dark"] as ThemeChoice[]).map((t) =>
      h(
        "label",
        { class: "inline" },
        h("input", { type: "radio", name: "theme", value: t, checked: t === choice, onChange: () => applyTheme(t) }),
        t === "system" ? "Follow the system" : t === "light" ? "Light" : "Dark",
      ),
    ),
  );

  const budget = createBudgetSection(deps);
  const contextDocs = createContextDocsSection(deps);

  add.addEventListener("click", () => edit(null));
  dialog.append(
    h(
      "header",
      { class: "chat-header" },
      h("h2", {}, "Settings"),
      h("kbd", {}, "Ctrl+,"),
      h("button", { type: "button", class: "icon quiet", "aria-label": "Close settings (Esc)", onClick: () => dialog.close() }, "×"),
    ),
    h(
      "section",
      {},
      h("h3", {}, "Agents"),
      h("p", { class: "detail" }, "The default agent answers in the sidebar and in Quick Chat unless you pick another under the question box. Agents run on this computer and only read what each turn allows."),
      agentList,
      add,
      form,
    ),
    budget.el,
    contextDocs.el,
    h("section", {}, themes),
    status,
  );

  return {
    open() {
      if (dialog.open) return;
      setStatus("");
      form.hidden = true;
      dialog.showModal();
      void reload();
      void budget.load();
      void contextDocs.load();
    },
  };
}

function capabilityText(c: AgentCapabilities): string {
  const can = [c.resume ? "resume sessions" : "", c.loadSession ? "reload sessions" : ""].filter(Boolean);
  return can.length ? `It can ${can.join(" and ")}.` : "It starts a new session for every conversation change.";
}
