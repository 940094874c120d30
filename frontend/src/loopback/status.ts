// The status bar's note that the MCP server for other apps is on (SPEC §9):
// shown only while it is switched on, with where it listens, or why it is
// not running; a click opens Settings.

import type { LoopbackStatus } from "../lib/backend";
import { h } from "../lib/dom";
import "../settings/loopback.css";

export interface LoopbackIndicator {
  refresh(): Promise<void>;
}

/** PollMs is how often the note checks the server (a vault switch restarts it). */
const PollMs = 10_000;

export function mountLoopbackStatus(host: HTMLElement, deps: { loopbackStatus(): Promise<LoopbackStatus>; open(): void }): LoopbackIndicator {
  const note = h("button", { type: "button", class: "loopback-status", hidden: true, "data-testid": "loopback-status", onClick: () => deps.open() });
  host.append(note);

  async function refresh() {
    let s: LoopbackStatus;
    try {
      s = await deps.loopbackStatus();
    } catch {
      note.hidden = true;
      return;
    }
    note.hidden = !s.enabled;
    note.classList.toggle("error", s.enabled && !s.running);
    note.textContent = s.running ? `MCP server on · 127.0.0.1:${s.port}` : "MCP server not running";
    note.title = s.running ? `Your MCP clients can read ${s.vault} at ${s.url}. Settings to switch it off.` : `Switched on, but not running: ${s.error}`;
  }
  void refresh();
  setInterval(() => void refresh(), PollMs);
  return { refresh };
}
