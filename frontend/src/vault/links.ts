// agentero:// links: the one the app was launched with and those a later
// launch hands over (a link clicked in a browser or an exported answer) open
// their paper at the page with the quote highlighted (or the figure
// outlined), switching vaults if
// need be; a link that cannot be followed says why. A link may come from
// anyone: one whose vault is none of the user's vaults is followed only
// when the user agrees to open that folder.

import type { LinkResult } from "../lib/backend";
import { parseCitation, type Region } from "../lib/citation";

export interface LinkDeps {
  takeLink(): Promise<LinkResult | null>;
  onLinkFollowed(callback: (r: LinkResult) => void): void;
  /** onVaultOpened hears a vault a later launch opened (--vault DIR). */
  onVaultOpened?(callback: (e: { path: string; error: string }) => void): void;
  /** vaultSwitched reloads what the window shows after the backend opened another vault. */
  vaultSwitched(): Promise<void>;
  /** open opens a vault PDF at a page with a quote highlighted, or a figure's region outlined. */
  open(path: string, page: number, quote: string, title: string, region?: Region): void;
  alert(text: string): void;
  /** confirm asks the user a yes-or-no question. */
  confirm(text: string): boolean | Promise<boolean>;
  /** openLinkVault follows a link whose vault the user agreed to open. */
  openLinkVault(link: string): Promise<LinkResult>;
}

/** startLinks follows the launch's link, then every handed-over one. */
export async function startLinks(deps: LinkDeps): Promise<void> {
  deps.onLinkFollowed((r) => void follow(r, deps));
  deps.onVaultOpened?.((e) => (e.error ? deps.alert(e.error) : void deps.vaultSwitched()));
  try {
    const first = await deps.takeLink();
    if (first) await follow(first, deps);
  } catch (err) {
    deps.alert(`Couldn’t open the link Agentero was started with: ${String(err)}`);
  }
}

export async function follow(r: LinkResult, deps: LinkDeps): Promise<void> {
  if (r.unknownVault) {
    const ask = `This link opens a folder that is none of your vaults:\n\n${vaultOf(r.link)}\n\nOpening it indexes that folder. Open it only if you trust where the link came from. Open it?`;
    if (!(await deps.confirm(ask))) {
      deps.alert(`The link was not followed: ${vaultOf(r.link)} is none of your vaults.`);
      return;
    }
    r = await deps.openLinkVault(r.link);
  }
  if (r.error || !r.target) {
    deps.alert(`Couldn’t open that link: ${sentence(r.error || "it leads nowhere")}`);
    return;
  }
  if (r.target.vaultChanged) await deps.vaultSwitched();
  // The citation the backend read from the link carries its figure's region, if any.
  const c = parseCitation(r.target.citationUri ?? "");
  const region = c?.kind === "vault" ? c.region : undefined;
  if (region) deps.open(r.target.pdfPath, r.target.page, r.target.quote, r.target.title, region);
  else deps.open(r.target.pdfPath, r.target.page, r.target.quote, r.target.title);
}

// vaultOf is the folder a link names, as the user should read it.
function vaultOf(link: string): string {
  try {
    return new URL(link).searchParams.get("vault") || link;
  } catch {
    return link;
  }
}

function sentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
