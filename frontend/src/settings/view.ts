// Settings (Ctrl+,): the agents Agentero can ask (list, add one of the
// known agents or any other, edit, test the connection, choose the
// default), the tools' reading budget, the vault's context documents and
// the theme. Test connection and Save's check of an agent show a clock
// against their deadline and a Cancel button; an agent that fails the check
// is saved only with "Save anyway".

import { errorText, type AgentConfig, type AgentList, type AgentPreset, type AgentReport } from "../lib/backend";
import { h } from "../lib/dom";
import { agentProblem, formatArgs, formatEnv, parseArgs, parseEnv } from "./agents";
import { createBudgetSection, type BudgetDeps } from "./budget-view";
import { createCheckLine, type CheckLine } from "./check-view";
import { createContextDocsSection, type ContextDocsDeps } from "./context-docs-view";
import { createLoopbackSection, type LoopbackDeps } from "./loopback-view";
import { createOnlineSection, type OnlineDeps } from "./online-view";
import { createPresetList } from "./presets-view";
import { applyTheme, loadTheme, type ThemeChoice } from "./theme";

export interface SettingsDeps extends BudgetDeps, ContextDocsDeps, LoopbackDeps, OnlineDeps {
  agents(): Promise<AgentList>;
  /** saveAgent checks the agent first unless force; checkId names the check for cancelTestAgent. */
  saveAgent(agent: AgentConfig, makeDefault: boolean, force: boolean, checkId: string): Promise<void>;
  /** addAgent adds a new agent (refusing a name taken), checked first unless force, as saveAgent. */
  addAgent(agent: AgentConfig, makeDefault: boolean, force: boolean, checkId: string): Promise<void>;
  setDefaultAgent(name: string): Promise<void>;
  deleteAgent(name: string): Promise<void>;
  testAgent(agent: AgentConfig, testId: string): Promise<AgentReport>;
  cancelTestAgent(testId: string): Promise<void>;
  agentPresets(): Promise<AgentPreset[]>;
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
  // The agent form: Enter in a field saves, Escape cancels it (and only it:
  // the dialog stays open); every field has its label.
  const form = h("form", { class: "agent-form", hidden: true, noValidate: true, "data-testid": "agent-form", "aria-label": "Agent" });
  const add = h("button", { type: "button", "data-testid": "agent-add" }, "Add agent…");
  // closeForm hides the form and keeps the focus inside the dialog (Esc and Tab keep working).
  const closeForm = () => {
    form.hidden = true;
    add.focus();
  };
  let escapedForm = false;
  form.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || form.hidden) return;
    e.preventDefault();
    e.stopPropagation();
    escapedForm = true; // the dialog's own cancel, if the browser still sends it, closes nothing
    setTimeout(() => (escapedForm = false), 0);
    closeForm();
  });
  dialog.addEventListener("cancel", (e) => {
    if (escapedForm) e.preventDefault();
  });
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
        const result = createCheckLine("agent-test");
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
            h("button", { type: "button", class: "quiet", onClick: () => void test(a, result, `agent:${a.name}`) }, "Test connection"),
            builtin ? null : h("button", { type: "button", class: "quiet danger", onClick: () => void remove(a.name) }, "Delete"),
          ),
          result.el,
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

  async function test(a: AgentConfig, out: CheckLine, testId: string) {
    const got = await out.run("Testing the connection", () => deps.testAgent(a, testId), () => void deps.cancelTestAgent(testId));
    if ("ok" in got) out.report(got.ok);
    else if (got.failed.code === "cancelled") out.problem("Cancelled: the agent was stopped.");
    else out.problem(`Couldn’t connect: ${got.failed.message}`);
  }

  // edit opens the form for an agent, or for a new one (from a preset when given).
  function edit(a: AgentConfig | null, preset?: AgentPreset) {
    const editing = a?.name ?? "";
    const start = a ?? (preset ? { name: preset.name, command: preset.command, args: preset.args } : null);
    const name = h("input", { type: "text", value: start?.name ?? "", placeholder: "claude", "aria-label": "Name", required: true });
    const command = h("input", { type: "text", value: start?.command ?? "", placeholder: "npx", "aria-label": "Command" });
    const args = h("input", { type: "text", value: formatArgs(start?.args ?? []), placeholder: "-y @agentclientprotocol/claude-agent-acp", "aria-label": "Arguments" });
    const env = h("textarea", { rows: 3, placeholder: "ANTHROPIC_API_KEY=…", "aria-label": "Environment" });
    env.value = formatEnv(a?.env ?? {});
    const makeDefaultBox = h("input", { type: "checkbox", checked: list.default === editing && editing !== "" });
    // Both off by default: a grant only reads, and the agent's model is taken to run elsewhere.
    const writeDocsBox = h("input", { type: "checkbox", checked: a?.writeDocs ?? false, "data-testid": "agent-write-docs" });
    const localBox = h("input", { type: "checkbox", checked: a?.local ?? false, "data-testid": "agent-local" });
    // How the agent is confined (backend/sandbox): automatic unless the user chooses.
    const sandbox = h(
      "select",
      { "aria-label": "Confinement", "data-testid": "agent-sandbox" },
      ...sandboxModes.map((m) => h("option", { value: m.value, selected: (a?.sandbox ?? "") === m.value }, m.label)),
    );
    const sandboxWarning = h("p", { class: "detail warning", "data-testid": "agent-sandbox-warning" }, "Unconfined, the agent can read every file your user can: the whole vault, whatever a turn granted, and your home folder.");
    const showWarning = () => (sandboxWarning.hidden = sandbox.value !== "off");
    sandbox.addEventListener("change", showWarning);
    showWarning();
    const paths = h("textarea", { rows: 2, placeholder: "~/.config/my-agent", "aria-label": "Paths" });
    paths.value = (a?.paths ?? []).join("\n");
    const result = createCheckLine("agent-form-result");

    // What the form does not show (the context window) is kept as it was.
    const read = (): AgentConfig => ({
      ...a,
      name: name.value.trim(),
      command: command.value.trim(),
      args: parseArgs(args.value),
      env: parseEnv(env.value),
      writeDocs: writeDocsBox.checked,
      local: localBox.checked,
      sandbox: sandbox.value,
      paths: paths.value
        .split("\n")
        .map((p) => p.trim())
        .filter(Boolean),
    });
    const guard = (f: (cfg: AgentConfig) => Promise<void>) => async () => {
      try {
        const cfg = read();
        const problem = agentProblem(cfg, list.agents, editing);
        if (problem) {
          result.problem(problem);
          return;
        }
        await f(cfg);
      } catch (err) {
        result.problem(errorText(err));
      }
    };
    // save checks the agent first; one that fails the check is saved only
    // when the user says so after reading why.
    const save = (force: boolean) =>
      guard(async (cfg) => {
        // A new agent is added (its name must be free); an edited one saved over itself.
        const store = a ? deps.saveAgent : deps.addAgent;
        const got = await result.run(
          force ? "Saving" : "Checking the agent before saving it",
          () => store(cfg, makeDefaultBox.checked, force, "save"),
          () => void deps.cancelTestAgent("save"),
        );
        if ("failed" in got) {
          const f = got.failed;
          if (f.code === "unverified") {
            const anyway = h("button", { type: "button", class: "danger", "data-testid": "agent-save-anyway", onClick: save(true) }, "Save anyway");
            result.problem(`Not saved: ${sentence(f.message)} Fix it and save again, or save it anyway.`, anyway);
            anyway.focus();
          } else if (f.code === "cancelled") {
            result.problem("Cancelled: nothing was saved.");
          } else {
            result.problem(`Not saved: ${f.message}`);
          }
          return;
        }
        if (editing && editing !== cfg.name) await deps.deleteAgent(editing);
        closeForm();
        setStatus(a ? `Saved ${cfg.name}.` : `Added ${cfg.name}: it can answer now.`);
        await reload();
      });

    form.replaceChildren(
      h("h3", {}, a ? `Edit ${a.name}` : preset ? `Add ${preset.name}` : "Add an agent"),
      preset
        ? h("p", { class: "detail" }, preset.install, h("br"), preset.login)
        : h("p", { class: "detail" }, "Any agent that speaks the Agent Client Protocol over stdio, or one of the known agents below."),
      h("label", {}, "Name", name),
      h("label", {}, "Command", command),
      h("label", {}, "Arguments", args),
      h("label", {}, "Environment (KEY=VALUE, one per line)", env),
      h("label", { class: "inline" }, makeDefaultBox, "Use it for new questions (default)"),
      h(
        "label",
        { class: "inline", title: "Off: the agent only reads. On: it may write the vault's context documents, each write approved by you in the thread." },
        writeDocsBox,
        "Let it write context documents (you approve each write)",
      ),
      h(
        "label",
        { class: "inline", title: "Off: documents marked sensitive are never put in its prompts, as its model may run on someone else's computer." },
        localBox,
        "Its model runs on this computer (sensitive context documents may be sent to it)",
      ),
      h("label", { title: "Confined, the agent sees the system, its own installation and configuration and a scratch folder: the vault only through each turn's grant." }, "Confinement", sandbox),
      sandboxWarning,
      h("label", {}, "More folders it may use (its configuration; one per line)", paths),
      h(
        "div",
        { class: "form-actions" },
        h("button", { type: "button", onClick: guard((cfg) => test(cfg, result, "form")) }, "Test connection"),
        h("button", { type: "button", onClick: closeForm }, "Cancel"),
        h("button", { type: "submit", class: "primary" }, "Save"),
      ),
      result.el,
    );
    const submit = save(false);
    form.onsubmit = (e) => {
      e.preventDefault();
      void submit();
    };
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
  const loopback = createLoopbackSection(deps);
  const online = createOnlineSection(deps);

  const presets = createPresetList((p) => edit(null, p));
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
      presets.el,
      form,
    ),
    budget.el,
    contextDocs.el,
    loopback.el,
    online.el,
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
      void presets.load(deps.agentPresets);
      void budget.load();
      void contextDocs.load();
      void loopback.load();
      void online.load();
    },
  };
}

// sentence ends a message from the backend with a full stop, if it has none.
function sentence(text: string): string {
  return /[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

/** sandboxModes are the confinements an agent can be set to run in (the backend's Agent.sandbox). */
export const sandboxModes = [
  { value: "", label: "Automatic (bubblewrap, else Landlock)" },
  { value: "bubblewrap", label: "bubblewrap" },
  { value: "landlock", label: "Landlock" },
  { value: "off", label: "Off: not confined" },
];
