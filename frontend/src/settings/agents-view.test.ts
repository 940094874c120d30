// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentConfig, AgentPreset, AgentReport, AppSettings } from "../lib/backend";
import { mountSettings, type SettingsDeps, type SettingsView } from "./view";

// jsdom has no modal dialogs; Settings only needs one that opens.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});

const presets: AgentPreset[] = [
  {
    id: "claude",
    name: "Claude Code",
    command: "npx",
    args: ["-y", "@agentclientprotocol/claude-agent-acp"],
    install: "Needs Node.js 18 or later.",
    login: "Run claude in a terminal and log in with /login.",
    website: "https://github.com/agentclientprotocol/claude-agent-acp",
    path: "/usr/bin/npx",
    found: true,
  },
  { id: "goose", name: "goose", command: "goose", args: ["acp"], install: "curl … | bash", login: "Run goose configure.", website: "", path: "", found: false },
];

const report: AgentReport = {
  command: "/usr/bin/npx",
  name: "claude-agent-acp",
  title: "Claude Code",
  version: "0.5.1",
  protocolVersion: 1,
  capabilities: { loadSession: true, resume: false, close: false, mcpStdio: true, mcpHttp: false, mcpSse: false },
  authMethods: [
    { id: "claude-login", name: "Log in with Claude", kind: "terminal", command: "claude /login" },
    { id: "key", name: "API key", kind: "env_var", vars: ["ANTHROPIC_API_KEY"] },
  ],
  seconds: 2.3,
};

// settled is a promise that the test resolves or rejects when it wants to.
function settled<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const loopbackOff = { enabled: false, running: false, port: 0, url: "", token: "t".repeat(43), vault: "/v", error: "", command: "/app/agentero" };

let host: HTMLElement;
let view: SettingsView;
let deps: SettingsDeps;
// saved holds both kinds of store, via says which: "add" (a new agent) or "save" (an edit).
let calls: { saved: [AgentConfig, boolean, boolean, string][]; via: ("add" | "save")[]; cancelled: string[]; tested: [AgentConfig, string][] };
let testing: ReturnType<typeof settled<AgentReport>>;
let saving: ReturnType<typeof settled<void>>[];

beforeEach(() => {
  calls = { saved: [], via: [], cancelled: [], tested: [] };
  testing = settled<AgentReport>();
  saving = [];
  host = document.createElement("div");
  document.body.append(host);
  const settings = { budget: {} } as AppSettings;
  deps = {
    agents: async () => ({ default: "builtin", agents: [{ name: "builtin", command: "/app/agentero", args: ["--builtin-agent"] }] }),
    saveAgent: (agent, makeDefault, force, checkId) => store("save", agent, makeDefault, force, checkId),
    addAgent: (agent, makeDefault, force, checkId) => store("add", agent, makeDefault, force, checkId),
    setDefaultAgent: async () => {},
    deleteAgent: async () => {},
    testAgent: (agent, testId) => {
      calls.tested.push([agent, testId]);
      return testing.promise;
    },
    cancelTestAgent: async (testId) => void calls.cancelled.push(testId),
    agentPresets: async () => presets,
    agentsChanged: () => {},
    settings: async () => settings,
    defaultSettings: async () => settings,
    saveSettings: async () => {},
    contextDocs: async () => ({ docs: [], problems: [] }),
    contextDocSource: async () => "",
    saveContextDoc: async () => {},
    deleteContextDoc: async () => {},
    loopbackStatus: async () => loopbackOff,
    setLoopback: async () => loopbackOff,
    rotateLoopbackToken: async () => loopbackOff,
    copy: async () => {},
    loopbackChanged: () => {},
    lookupMetadata: async () => ({ running: false, started: "", finished: "", papers: 0, updated: 0, failed: 0, reports: [] }),
    metadataLookup: async () => ({ running: false, started: "", finished: "", papers: 0, updated: 0, failed: 0, reports: [] }),
  };
  view = mountSettings(host, deps);
});

function store(via: "add" | "save", agent: AgentConfig, makeDefault: boolean, force: boolean, checkId: string): Promise<void> {
  calls.saved.push([agent, makeDefault, force, checkId]);
  calls.via.push(via);
  const s = settled<void>();
  saving.push(s);
  return s.promise;
}

afterEach(() => {
  host.remove();
  vi.useRealTimers();
});

const q = <T extends Element = HTMLElement>(selector: string) => host.querySelector<T>(selector);
const button = (root: ParentNode, text: string) => Array.from(root.querySelectorAll("button")).find((b) => b.textContent === text)!;
const input = (label: string) => q<HTMLInputElement>(`[aria-label="${label}"]`)!;
const flush = () => new Promise((r) => setTimeout(r, 0));

describe("known agents", () => {
  it("each shows its command, how to install it and log in, and whether it is on PATH", async () => {
    view.open();
    await vi.waitFor(() => expect(host.querySelectorAll('[data-testid="preset"]')).toHaveLength(2));
    const [claude, goose] = Array.from(host.querySelectorAll<HTMLElement>('[data-testid="preset"]'));
    expect(claude.querySelector(".agent-command")?.textContent).toBe("npx -y @agentclientprotocol/claude-agent-acp");
    expect(claude.querySelector('[data-testid="preset-found"]')?.textContent).toBe("found on PATH");
    expect(claude.querySelector('[data-testid="preset-install"]')?.textContent).toBe("Install: Needs Node.js 18 or later.");
    expect(claude.querySelector('[data-testid="preset-login"]')?.textContent).toBe("Log in: Run claude in a terminal and log in with /login.");
    expect(goose.querySelector('[data-testid="preset-found"]')?.textContent).toBe("not found on PATH");
  });

  it("Add… fills the form with the preset", async () => {
    view.open();
    await vi.waitFor(() => expect(host.querySelectorAll('[data-testid="preset"]')).toHaveLength(2));
    button(host.querySelector('[data-testid="preset"]')!, "Add…").click();
    expect(input("Name").value).toBe("Claude Code");
    expect(input("Command").value).toBe("npx");
    expect(input("Arguments").value).toBe("-y @agentclientprotocol/claude-agent-acp");
    expect(q(".agent-form h3")?.textContent).toBe("Add Claude Code");
  });
});

describe("Test connection", () => {
  it("shows a clock against its deadline and a Cancel while it runs, then what the agent is and can do", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    view.open();
    await vi.waitFor(() => expect(host.querySelector('[data-testid="agent-row"]')).not.toBeNull());
    const row = host.querySelector<HTMLElement>('[data-testid="agent-row"]')!;
    button(row, "Test connection").click();
    const line = row.querySelector<HTMLElement>('[data-testid="agent-test"]')!;
    expect(line.querySelector('[data-testid="check-clock"]')?.textContent).toBe("0 s of at most 60 s");
    vi.advanceTimersByTime(3000);
    expect(line.querySelector('[data-testid="check-clock"]')?.textContent).toBe("3 s of at most 60 s");
    button(line, "Cancel").click();
    expect(calls.cancelled).toEqual(["agent:builtin"]);

    testing.resolve(report);
    await vi.waitFor(() => expect(line.querySelector('[data-testid="check-who"]')).not.toBeNull());
    expect(line.querySelector('[data-testid="check-who"]')?.textContent).toBe("Connected to Claude Code 0.5.1");
    expect(Array.from(line.querySelectorAll("[data-can]"), (li) => [li.textContent, (li as HTMLElement).dataset.can])).toEqual([
      ["✓ MCP over stdio", "true"],
      ["✗ resume", "false"],
      ["✓ load", "true"],
    ]);
    expect(line.querySelector('[data-testid="check-auth"]')?.textContent).toBe(
      "Log in: Log in with Claude: run claude /login in a terminal; API key: set ANTHROPIC_API_KEY in the agent’s environment.",
    );
    expect(line.querySelector('[data-testid="check-cancel"]')).toBeNull();
  });

  it("a failure is told in the backend's words", async () => {
    view.open();
    await vi.waitFor(() => expect(host.querySelector('[data-testid="agent-row"]')).not.toBeNull());
    const row = host.querySelector<HTMLElement>('[data-testid="agent-row"]')!;
    button(row, "Test connection").click();
    testing.reject({ code: "not-configured", message: "claude-agent-acp is not an ACP agent: it does not answer initialize" });
    await vi.waitFor(() => expect(row.querySelector('[data-testid="check-problem"]')).not.toBeNull());
    expect(row.querySelector('[data-testid="check-problem"]')?.textContent).toBe("Couldn’t connect: claude-agent-acp is not an ACP agent: it does not answer initialize");
  });
});

describe("Save", () => {
  async function fill() {
    view.open();
    await flush();
    button(host, "Add agent…").click();
    input("Name").value = "broken";
    input("Command").value = "/nonexistent/agent";
  }

  it("an agent that fails the check is saved only with Save anyway", async () => {
    await fill();
    button(host.querySelector(".agent-form")!, "Save").click();
    await vi.waitFor(() => expect(calls.saved).toHaveLength(1));
    expect(calls.saved[0].slice(1)).toEqual([false, false, "save"]);
    expect(q('[data-testid="agent-form-result"] [data-testid="check-clock"]')).not.toBeNull();
    saving[0].reject({ code: "unverified", message: "/nonexistent/agent was not found" });
    await vi.waitFor(() => expect(q('[data-testid="agent-save-anyway"]')).not.toBeNull());
    expect(q('[data-testid="check-problem"]')?.textContent).toBe("Not saved: /nonexistent/agent was not found. Fix it and save again, or save it anyway.");
    expect(document.activeElement).toBe(q('[data-testid="agent-save-anyway"]'));
    q<HTMLButtonElement>('[data-testid="agent-save-anyway"]')!.click();
    await vi.waitFor(() => expect(calls.saved).toHaveLength(2));
    expect(calls.saved[1][0]).toMatchObject({ name: "broken", command: "/nonexistent/agent" });
    expect(calls.saved[1].slice(1)).toEqual([false, true, "save"]);
    expect(calls.via).toEqual(["add", "add"]);
    saving[1].resolve();
    await vi.waitFor(() => expect(q<HTMLElement>(".agent-form")?.hidden).toBe(true));
    expect(q(".settings-status")?.textContent).toBe("Added broken: it can answer now.");
  });

  it("a new agent only reads and is taken as remote unless the user says otherwise", async () => {
    await fill();
    const write = q<HTMLInputElement>('[data-testid="agent-write-docs"]')!;
    const local = q<HTMLInputElement>('[data-testid="agent-local"]')!;
    expect([write.checked, local.checked]).toEqual([false, false]);
    button(host.querySelector(".agent-form")!, "Save").click();
    await vi.waitFor(() => expect(calls.saved).toHaveLength(1));
    expect(calls.saved[0][0]).toMatchObject({ name: "broken", writeDocs: false, local: false });
    saving[0].reject({ code: "cancelled", message: "cancelled" });
    await vi.waitFor(() => expect(q('[data-testid="check-problem"]')).not.toBeNull());
    write.checked = true;
    local.checked = true;
    button(host.querySelector(".agent-form")!, "Save").click();
    await vi.waitFor(() => expect(calls.saved).toHaveLength(2));
    expect(calls.saved[1][0]).toMatchObject({ name: "broken", writeDocs: true, local: true });
  });

  it("a new agent runs confined unless the user switches it off, which says what that means", async () => {
    await fill();
    const mode = q<HTMLSelectElement>('[data-testid="agent-sandbox"]')!;
    const warning = q<HTMLElement>('[data-testid="agent-sandbox-warning"]')!;
    expect(mode.value).toBe("");
    expect(warning.hidden).toBe(true);
    mode.value = "off";
    mode.dispatchEvent(new Event("change"));
    expect(warning.hidden).toBe(false);
    expect(warning.textContent).toContain("can read every file your user can");
    q<HTMLTextAreaElement>('textarea[aria-label="Paths"]')!.value = "~/.config/my-agent\n\n/opt/tools ";
    button(host.querySelector(".agent-form")!, "Save").click();
    await vi.waitFor(() => expect(calls.saved).toHaveLength(1));
    expect(calls.saved[0][0]).toMatchObject({ name: "broken", sandbox: "off", paths: ["~/.config/my-agent", "/opt/tools"] });
  });

  it("the check can be cancelled", async () => {
    await fill();
    button(host.querySelector(".agent-form")!, "Save").click();
    await vi.waitFor(() => expect(calls.saved).toHaveLength(1));
    button(q('[data-testid="agent-form-result"]')!, "Cancel").click();
    expect(calls.cancelled).toEqual(["save"]);
    saving[0].reject({ code: "cancelled", message: "cancelled" });
    await vi.waitFor(() => expect(q('[data-testid="check-problem"]')?.textContent).toBe("Cancelled: nothing was saved."));
  });
});

describe("the Add agent form", () => {
  const form = () => q<HTMLFormElement>('[data-testid="agent-form"]')!;
  async function openAdd() {
    view.open();
    await flush();
    button(host, "Add agent…").click();
  }

  it("names every field, and Enter (the form's submit) adds the agent", async () => {
    await openAdd();
    expect(form().tagName).toBe("FORM");
    const fields = Array.from(form().querySelectorAll<HTMLElement>("input, textarea, select"));
    expect(fields.length).toBeGreaterThan(5);
    for (const f of fields) expect(f.closest("label")?.textContent?.trim(), f.outerHTML).toBeTruthy();
    expect(document.activeElement).toBe(input("Name"));
    input("Name").value = "peer";
    input("Command").value = "/usr/bin/node";
    input("Arguments").value = "agent.mjs --style 'claude code'";
    q<HTMLTextAreaElement>('textarea[aria-label="Environment"]')!.value = "PEER_STYLE=claude";
    // Enter in a text field submits its form: the browser calls requestSubmit, which the Save button is the submitter of.
    expect(form().querySelector<HTMLButtonElement>('button[type="submit"]')?.textContent).toBe("Save");
    form().requestSubmit();
    await vi.waitFor(() => expect(calls.saved).toHaveLength(1));
    expect(calls.via).toEqual(["add"]);
    expect(calls.saved[0][0]).toMatchObject({ name: "peer", command: "/usr/bin/node", args: ["agent.mjs", "--style", "claude code"], env: { PEER_STYLE: "claude" } });
  });

  it("shows the backend's refusal in its own sentence, and keeps the form", async () => {
    await openAdd();
    input("Name").value = "peer";
    input("Command").value = "./agent";
    form().requestSubmit();
    await vi.waitFor(() => expect(calls.saved).toHaveLength(1));
    saving[0].reject({ code: "invalid", message: 'the command "./agent" is a relative path: give its absolute path, or a command name found on PATH' });
    await vi.waitFor(() => expect(q('[data-testid="check-problem"]')).not.toBeNull());
    expect(q('[data-testid="check-problem"]')?.textContent).toBe('Not saved: the command "./agent" is a relative path: give its absolute path, or a command name found on PATH');
    expect(q('[data-testid="agent-save-anyway"]')).toBeNull();
    expect(form().hidden).toBe(false);
  });

  it("Escape cancels the form and nothing else: the dialog stays, the focus goes back to Add agent…", async () => {
    await openAdd();
    input("Name").value = "half-typed";
    const esc = new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true });
    input("Name").dispatchEvent(esc);
    expect(esc.defaultPrevented).toBe(true);
    expect(form().hidden).toBe(true);
    expect(q<HTMLDialogElement>('[data-testid="settings"]')!.open).toBe(true);
    expect(document.activeElement).toBe(q('[data-testid="agent-add"]'));
    // The dialog's own cancel that the same key may send is refused once.
    const cancel = new Event("cancel", { cancelable: true });
    q('[data-testid="settings"]')!.dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expect(calls.saved).toHaveLength(0);
  });

  it("an edited agent is saved over itself, not added", async () => {
    deps.agents = async () => ({ default: "builtin", agents: [{ name: "builtin", command: "/app/agentero", args: ["--builtin-agent"] }, { name: "peer", command: "/usr/bin/node", args: [] }] });
    view.open();
    await vi.waitFor(() => expect(host.querySelector('[data-testid="agent-row"][data-name="peer"]')).not.toBeNull());
    button(host.querySelector('[data-testid="agent-row"][data-name="peer"]')!, "Edit").click();
    form().requestSubmit();
    await vi.waitFor(() => expect(calls.saved).toHaveLength(1));
    expect(calls.via).toEqual(["save"]);
  });
});
