// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LoopbackStatus } from "../lib/backend";
import { createLoopbackSection, type LoopbackDeps } from "./loopback-view";

const token = "Zq3-secret-token-abcdefghijklmnopqrstuvwxyz01";
const off: LoopbackStatus = { enabled: false, running: false, port: 0, url: "", token, vault: "/home/ada/papers", error: "", command: "/opt/agentero" };
const on: LoopbackStatus = { ...off, enabled: true, running: true, port: 41234, url: "http://127.0.0.1:41234/mcp" };

let host: HTMLElement;
let calls: { set: [boolean, number][]; copied: string[]; rotated: number; changed: number };
let current: LoopbackStatus;
let deps: LoopbackDeps;

const flush = () => new Promise((r) => setTimeout(r, 0));
const q = <T extends Element>(id: string) => host.querySelector<T>(`[data-testid="${id}"]`)!;

beforeEach(() => {
  calls = { set: [], copied: [], rotated: 0, changed: 0 };
  current = off;
  host = document.createElement("div");
  document.body.append(host);
  deps = {
    loopbackStatus: async () => current,
    setLoopback: async (enabled, port) => {
      calls.set.push([enabled, port]);
      if (port !== 0 && port < 1024) throw new Error("port 80: choose a port between 1024 and 65535");
      current = enabled ? { ...on, port: port || on.port } : { ...off, port };
      return current;
    },
    rotateLoopbackToken: async () => {
      calls.rotated++;
      current = { ...current, token: "new-token-0123456789012345678901234567890" };
      return current;
    },
    copy: async (t) => void calls.copied.push(t),
    loopbackChanged: () => void calls.changed++,
  };
});

afterEach(() => host.remove());

async function mount() {
  const s = createLoopbackSection(deps);
  host.append(s.el);
  await s.load();
  return s;
}

describe("MCP server settings", () => {
  it("starts off, the token hidden, stdio configurations only", async () => {
    await mount();
    expect(q<HTMLInputElement>("loopback-enabled").checked).toBe(false);
    expect(q("loopback-state").textContent).toMatch(/^Off/);
    expect(q("loopback-token").textContent).not.toContain(token);
    expect(host.querySelector('[data-testid="loopback-config-claude-desktop-stdio"]')).not.toBeNull();
    expect(host.querySelector('[data-testid="loopback-config-cursor-http"]')).toBeNull();
    expect(host.textContent).not.toContain(token);
  });

  it("switches on at a free port, then shows where it serves and the HTTP configurations", async () => {
    await mount();
    const box = q<HTMLInputElement>("loopback-enabled");
    box.checked = true;
    box.dispatchEvent(new Event("change"));
    await flush();
    expect(calls.set).toEqual([[true, 0]]);
    expect(calls.changed).toBe(1);
    expect(q("loopback-state").textContent).toBe("On: serving /home/ada/papers at http://127.0.0.1:41234/mcp");
    expect(q<HTMLInputElement>("loopback-port").value).toBe("41234");
    const vscode = q("loopback-config-vs-code-http").querySelector("pre")!.textContent!;
    expect(JSON.parse(vscode).servers.agentero).toEqual({ type: "http", url: "http://127.0.0.1:41234/mcp", headers: { Authorization: `Bearer ${token}` } });
  });

  it("refuses a bad port before asking the backend, and shows the backend's refusal", async () => {
    await mount();
    const port = q<HTMLInputElement>("loopback-port");
    port.value = "http";
    q<HTMLButtonElement>("loopback-apply").click();
    await flush();
    expect(calls.set).toEqual([]);
    expect(q("loopback-message").textContent).toMatch(/whole number/);
    expect(port.getAttribute("aria-invalid")).toBe("true");
    port.value = "8765";
    q<HTMLButtonElement>("loopback-apply").click();
    await flush();
    expect(calls.set).toEqual([[false, 8765]]);
  });

  it("shows, copies and rotates the token", async () => {
    await mount();
    const show = [...host.querySelectorAll("button")].find((b) => b.textContent === "Show")!;
    show.click();
    expect(q("loopback-token").textContent).toBe(token);
    q<HTMLButtonElement>("loopback-copy-token").click();
    await flush();
    expect(calls.copied).toEqual([token]);
    globalThis.confirm = () => true;
    q<HTMLButtonElement>("loopback-rotate").click();
    await flush();
    expect(calls.rotated).toBe(1);
    expect(q("loopback-token").textContent).toBe("new-token-0123456789012345678901234567890");
    expect(q("loopback-message").textContent).toMatch(/New token/);
  });

  it("copies a configuration", async () => {
    await mount();
    const desktop = q("loopback-config-claude-desktop-stdio");
    desktop.querySelector("button")!.click();
    await flush();
    expect(JSON.parse(calls.copied[0])).toEqual({ mcpServers: { agentero: { command: "/opt/agentero", args: ["mcp", "/home/ada/papers"] } } });
  });
});
