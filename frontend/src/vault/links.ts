// agentero:// links: the one the app was launched with and those a later
// launch hands over (a link clicked in a browser or an exported answer) open
// their paper at the page with the quote highlighted, switching vaults if
// need be; a link that cannot be followed says why.

import type { LinkResult } from "../lib/backend";

export interface LinkDeps {
  takeLink(): Promise<LinkResult | null>;
  onLinkFollowed(callback: (r: LinkResult) => void): void;
  /** onVaultOpened hears a vault a later launch opened (--vault DIR). */
  onVaultOpened?(callback: (e: { path: string; error: string }) => void): void;
  /** vaultSwitched reloads what the window shows after the backend opened another vault. */
  vaultSwitched(): Promise<void>;
  /** open opens a vault PDF at a page with a quote highlighted. */
  open(path: string, page: number, quote: string, title: string): void;
  alert(text: string): void;
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
  if (r.error || !r.target) {
    deps.alert(`Couldn’t open that link: ${sentence(r.error || "it leads nowhere")}`);
    return;
  }
  if (r.target.vaultChanged) await deps.vaultSwitched();
  deps.open(r.target.pdfPath, r.target.page, r.target.quote, r.target.title);
}

function sentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
