// @vitest-environment jsdom

import { describe, expect, it } from "vitest";
import type { VaultState } from "../lib/backend";
import { mountVaultHeader } from "./header";

function mount() {
  const header = document.createElement("header");
  const bannerHost = document.createElement("div");
  document.body.append(header, bannerHost);
  const view = mountVaultHeader(header, bannerHost, { choose() {}, reindex() {}, quickChat() {}, settings() {} });
  return { view, bannerHost };
}

const vault: VaultState = { path: "/v", name: "v", watchMode: "inotify", watchNotice: "", indexNotice: "", indexing: false };

describe("the vault header's banners", () => {
  it("says why the index was rebuilt", () => {
    const { view, bannerHost } = mount();
    view.render({ ...vault, indexNotice: "The index of this vault was not one Agentero made." });
    const banner = bannerHost.querySelector<HTMLElement>('[data-testid="watch-banner"]')!;
    expect(banner.hidden).toBe(false);
    expect(banner.textContent).toContain("not one Agentero made");
  });

  it("shows a link that did not open until clicked", () => {
    const { view, bannerHost } = mount();
    const alert = bannerHost.querySelector<HTMLElement>('[data-testid="alert-banner"]')!;
    expect(alert.hidden).toBe(true);
    view.alert("Couldn’t open https://doi.org/x: only https links open in the browser");
    expect(alert.hidden).toBe(false);
    expect(alert.getAttribute("role")).toBe("alert");
    expect(alert.textContent).toContain("only https links");
    alert.click();
    expect(alert.hidden).toBe(true);
  });
});
