import * as App from "../../../wailsjs/go/main/App";
import type { workspace } from "../../../wailsjs/go/models";
import { type Data } from "../wire";

// --- loopback MCP server (SPEC §9) ---------------------------------------------

/**
 * LoopbackStatus is the whole-vault MCP server for the user's own clients:
 * enabled (the setting), running (serving the open vault at url), the port,
 * the bearer token, the vault served, why it is on but not running (error),
 * and this program's path (command) for the stdio configurations.
 */
export type LoopbackStatus = Data<workspace.LoopbackStatus>;

export async function loopbackStatus(): Promise<LoopbackStatus> {
  return App.LoopbackStatus();
}

/** setLoopback switches the server on or off on a port (0: a free one, then kept); it rejects a port below 1024. */
export async function setLoopback(enabled: boolean, port: number): Promise<LoopbackStatus> {
  return App.SetLoopback(enabled, port);
}

/** rotateLoopbackToken makes a new token: clients with the old one are refused. */
export async function rotateLoopbackToken(): Promise<LoopbackStatus> {
  return App.RotateLoopbackToken();
}
