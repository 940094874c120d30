// The vault header (name, switch folder, reindex) and the banner that tells
// the user when changes on disk are only picked up by periodic rescans, or
// that the index the vault came with was not Agentero's and was rebuilt.

import type { VaultState } from "../lib/backend";
import { h } from "../lib/dom";

export interface VaultActions {
  choose(): void;
  reindex(): void;
  quickChat(): void;
  settings(): void;
  /** menu, when given, replaces the "Open vault…" button (the vault menu, menu.ts). */
  menu?: HTMLElement;
}

export interface VaultHeader {
  render(vault: VaultState | null): void;
  /** alert shows a failure the user should see (a link that did not open) until clicked or for a while. */
  alert(text: string): void;
}

/** AlertMs is how long an alert stays. */
const AlertMs = 10_000;

export function mountVaultHeader(header: HTMLElement, bannerHost: HTMLElement, actions: VaultActions): VaultHeader {
  const name = h("h1", { class: "vault-name" }, "Agentero");
  const reindex = h(
    "button",
    { type: "button", class: "quiet", title: "Read every PDF in the vault again", onClick: () => actions.reindex() },
    "Reindex",
  );
  const choose = h(
    "button",
    { type: "button", class: "quiet", title: "Open another folder of papers", onClick: () => actions.choose() },
    "Open vault…",
  );
  const quick = h(
    "button",
    { type: "button", class: "quiet", title: "Ask across your vault (Ctrl+K)", "data-testid": "open-quick-chat", onClick: () => actions.quickChat() },
    "Quick Chat ",
    h("kbd", {}, "Ctrl+K"),
  );
  const settings = h(
    "button",
    { type: "button", class: "icon quiet", title: "Settings: agents, theme (Ctrl+,)", "aria-label": "Settings", "data-testid": "open-settings", onClick: () => actions.settings() },
    "⚙",
  );
  header.append(name, h("div", { class: "vault-actions" }, reindex, actions.menu ?? choose, settings));
  header.after(h("div", { class: "vault-quick" }, quick));

  const banner = h("div", { class: "banner", role: "status", "data-testid": "watch-banner", hidden: true });
  const alertBanner = h("div", {
    class: "banner alert",
    role: "alert",
    "data-testid": "alert-banner",
    title: "Click to dismiss",
    hidden: true,
    onClick: () => (alertBanner.hidden = true),
  });
  bannerHost.append(banner, alertBanner);
  let alertTimer: ReturnType<typeof setTimeout> | undefined;

  return {
    render(vault) {
      name.textContent = vault?.name || "Agentero";
      name.title = vault?.path ?? "";
      reindex.disabled = !vault?.path;
      const notice = vault ? [vault.indexNotice, watchNotice(vault)].filter(Boolean).join(" ") : "";
      banner.textContent = notice;
      banner.hidden = notice === "";
    },
    alert(text) {
      alertBanner.textContent = text;
      alertBanner.hidden = false;
      clearTimeout(alertTimer);
      alertTimer = setTimeout(() => (alertBanner.hidden = true), AlertMs);
    },
  };
}

function watchNotice(vault: VaultState): string {
  if (vault.watchNotice) return vault.watchNotice;
  if (!vault.path) return "";
  if (vault.watchMode === "off") return "Not watching this folder for changes; use Reindex after adding papers.";
  if (vault.watchMode === "polling") return "Changes on disk are picked up by periodic rescans.";
  return "";
}
