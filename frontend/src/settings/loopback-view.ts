// Settings → MCP server for your other apps (SPEC §9): the whole open vault
// for the user's own MCP clients (Claude Desktop, Claude Code, Cursor,
// VS Code), read-only. Off by default. On: a streamable HTTP server on
// 127.0.0.1 only, a bearer token (shown, copied, rotated), and the
// configurations to paste, stdio and HTTP.

import "./loopback.css";
import { errorText, type LoopbackStatus } from "../lib/backend";
import { h } from "../lib/dom";
import { clientConfigs, parsePort } from "./loopback";

export interface LoopbackDeps {
  loopbackStatus(): Promise<LoopbackStatus>;
  setLoopback(enabled: boolean, port: number): Promise<LoopbackStatus>;
  rotateLoopbackToken(): Promise<LoopbackStatus>;
  copy(text: string): Promise<void>;
  /** loopbackChanged is told after the server was switched or its token rotated (the status bar follows). */
  loopbackChanged(): void;
}

export interface LoopbackSection {
  el: HTMLElement;
  load(): Promise<void>;
}

export function createLoopbackSection(deps: LoopbackDeps): LoopbackSection {
  let status: LoopbackStatus | null = null;
  let showToken = false;

  const enabled = h("input", { type: "checkbox", "data-testid": "loopback-enabled" });
  const port = h("input", {
    type: "text",
    inputMode: "numeric",
    placeholder: "any free port",
    "aria-label": "Port",
    "data-testid": "loopback-port",
    class: "loopback-port",
  });
  const apply = h("button", { type: "button", "data-testid": "loopback-apply" }, "Apply");
  const state = h("p", { class: "loopback-state", role: "status", "data-testid": "loopback-state" });
  const token = h("code", { class: "loopback-token", "data-testid": "loopback-token" });
  const reveal = h("button", { type: "button", class: "quiet", "aria-pressed": "false" }, "Show");
  const copyToken = h("button", { type: "button", class: "quiet", "data-testid": "loopback-copy-token" }, "Copy token");
  const rotate = h("button", { type: "button", class: "quiet danger", "data-testid": "loopback-rotate" }, "New token");
  const configs = h("div", { class: "loopback-configs", "data-testid": "loopback-configs" });
  const message = h("p", { class: "loopback-message", role: "status", "data-testid": "loopback-message" });

  function say(text: string, tone = "") {
    message.textContent = text;
    message.className = `loopback-message ${tone}`;
  }

  function render() {
    const s = status;
    if (!s) return;
    enabled.checked = s.enabled;
    if (document.activeElement !== port) port.value = s.port ? String(s.port) : "";
    if (s.running) state.textContent = `On: serving ${s.vault} at ${s.url}`;
    else if (s.enabled && s.error) state.textContent = `On, but not running: ${s.error}`;
    else state.textContent = "Off: no other app can reach your vault through Agentero.";
    state.className = `loopback-state ${s.running ? "on" : s.enabled && s.error ? "error" : ""}`;
    token.textContent = showToken ? s.token : "•".repeat(24);
    reveal.textContent = showToken ? "Hide" : "Show";
    reveal.setAttribute("aria-pressed", String(showToken));
    const list = s.vault ? clientConfigs({ command: s.command, vault: s.vault, url: s.url, token: s.token }) : [];
    configs.replaceChildren(
      ...(list.length === 0
        ? [h("p", { class: "detail" }, "Open a vault to see the configurations for your apps.")]
        : list.map((c) => {
            const pre = h("pre", { class: "loopback-config" }, c.text);
            return h(
              "details",
              { class: "loopback-client", "data-testid": `loopback-config-${c.client.replace(/\s+/g, "-").toLowerCase()}-${c.transport}` },
              h("summary", {}, `${c.client} — ${c.transport === "http" ? "HTTP (this app’s server, with the token)" : "stdio (starts its own server)"}`),
              h("p", { class: "detail" }, `Paste into ${c.where}.`),
              pre,
              h("button", { type: "button", class: "quiet", onClick: () => void copy(c.text, `${c.client} configuration`) }, "Copy"),
            );
          })),
    );
    if (!s.url && list.length > 0) {
      configs.append(h("p", { class: "detail" }, "Switch the server on for the HTTP configurations (Claude Code, Cursor, VS Code)."));
    }
  }

  async function copy(text: string, what: string) {
    try {
      await deps.copy(text);
      say(`Copied the ${what}.`);
    } catch (err) {
      say(`Couldn’t copy: ${errorText(err)}`, "error");
    }
  }

  async function run(f: () => Promise<LoopbackStatus>, done: string) {
    try {
      status = await f();
      render();
      say(done);
    } catch (err) {
      say(errorText(err), "error");
      await load();
    }
    deps.loopbackChanged();
  }

  async function load() {
    try {
      status = await deps.loopbackStatus();
      render();
    } catch (err) {
      say(`Couldn’t read the MCP server settings: ${errorText(err)}`, "error");
    }
  }

  function applySettings() {
    const p = parsePort(port.value);
    if ("error" in p) {
      port.setAttribute("aria-invalid", "true");
      say(p.error, "error");
      port.focus();
      return;
    }
    port.removeAttribute("aria-invalid");
    void run(() => deps.setLoopback(enabled.checked, p.port), enabled.checked ? "The MCP server is on." : "The MCP server is off.");
  }

  enabled.addEventListener("change", applySettings);
  apply.addEventListener("click", applySettings);
  port.addEventListener("keydown", (e) => {
    if ((e as KeyboardEvent).key === "Enter") applySettings();
  });
  reveal.addEventListener("click", () => {
    showToken = !showToken;
    render();
  });
  copyToken.addEventListener("click", () => status && void copy(status.token, "token"));
  rotate.addEventListener("click", () => {
    if (!confirm("Make a new token? Apps using the old one will be refused until you update their configuration.")) return;
    void run(() => deps.rotateLoopbackToken(), "New token made: update the HTTP configurations of your apps.");
  });

  const el = h(
    "section",
    { class: "loopback", "data-testid": "loopback" },
    h("h3", {}, "MCP server for your other apps"),
    h(
      "p",
      { class: "detail" },
      "Lets your own MCP clients (Claude Desktop, Claude Code, Cursor, VS Code) list, search and read the whole open vault — never .agentero — with the same page citations and budgets as Agentero’s agents. Read-only. The HTTP server listens on 127.0.0.1 only and asks for the token on every request.",
    ),
    h("div", { class: "loopback-row" }, h("label", { class: "inline" }, enabled, "Serve the open vault over HTTP"), h("label", { class: "inline" }, "Port ", port), apply),
    state,
    h("div", { class: "loopback-row" }, h("span", {}, "Token "), token, reveal, copyToken, rotate),
    h("h4", {}, "Configuration for your apps"),
    configs,
    message,
  );
  return { el, load };
}
