import * as App from "../../../wailsjs/go/main/App";
import type { main, workspace } from "../../../wailsjs/go/models";
import { EventsOn } from "../../../wailsjs/runtime/runtime";
import { VaultOpened, type EventName, type EventPayloads } from "../events";
import { type Data, asGo } from "../wire";

// --- vaults, agentero:// links, exports (issue 15) ------------------------------

export type RecentVault = Data<workspace.RecentVault>;
export type LinkResult = Data<main.LinkResult>;
export type ExportRequest = Data<workspace.ExportRequest>;

/** recentVaults lists the vaults opened before, newest first, the open one marked. */
export async function recentVaults(): Promise<RecentVault[]> {
  return (await App.RecentVaults()) ?? [];
}
/** openVault switches to the vault at path. */
export const openVault = (path: string): Promise<void> => App.OpenVault(path);
/** forgetVault removes a vault from the recent ones. */
export const forgetVault = (path: string): Promise<void> => App.ForgetVault(path);
/** newVault asks for an empty folder and makes it a vault; "" when cancelled. */
export async function newVault(): Promise<string> {
  return (await App.NewVault()) ?? "";
}
/** exampleVault is where "Open the example vault" copies the example to; "" when none ships with the app. */
export async function exampleVault(): Promise<string> {
  return (await App.ExampleVault()) ?? "";
}
/** openExampleVault copies the example vault into the home folder (once) and opens it; it resolves to its path. */
export const openExampleVault = (): Promise<string> => App.OpenExampleVault();
/** takeLink is the agentero:// link the app was launched with, followed; null when none. */
export async function takeLink(): Promise<LinkResult | null> {
  return (await App.TakeLink()) ?? null;
}
/** followLink follows an agentero:// link as a later launch would hand it over. */
export const followLink = (link: string): Promise<LinkResult> => App.FollowLink(link);
/** openLinkVault follows a link whose vault is none of the user's vaults, once the user agreed to open it. */
export const openLinkVault = (link: string): Promise<LinkResult> => App.OpenLinkVault(link);
/** onLinkFollowed hears the links later launches hand to this window (app_links.go's LinkFollowed). */
export function onLinkFollowed(callback: (r: LinkResult) => void): () => void {
  return EventsOn("link:followed", (r: LinkResult | null) => r && callback(r));
}
/** onVaultOpened hears a vault a later launch (--vault DIR) opened, or why it could not. */
export function onVaultOpened(callback: (e: EventPayloads[typeof VaultOpened]) => void): () => void {
  return EventsOn(VaultOpened, (e: EventPayloads[typeof VaultOpened] | null) => e && callback(e));
}
/** exportText is an answer or conversation as Markdown, or its cited papers as BibTeX or CSL-JSON. */
export const exportText = (req: ExportRequest): Promise<string> => App.ExportText(asGo<workspace.ExportRequest>(req));
/** saveExport asks where to save the export and writes it; "" when cancelled. */
export async function saveExport(req: ExportRequest): Promise<string> {
  return (await App.SaveExport(asGo<workspace.ExportRequest>(req))) ?? "";
}

/** on subscribes to a backend event and returns the unsubscribe function. */
export function on<K extends EventName>(name: K, callback: (payload: EventPayloads[K]) => void): () => void {
  return EventsOn(name, (payload: EventPayloads[K] | null) => callback(payload ?? ({} as EventPayloads[K])));
}

/**
 * openExternal opens an https link in the system browser. It rejects (code
 * "invalid", with the reason) a link the backend will not open, and when the
 * browser cannot be started: callers show the message.
 */
export async function openExternal(url: string): Promise<void> {
  await App.OpenExternal(url);
}
