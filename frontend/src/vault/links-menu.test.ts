// @vitest-environment jsdom

import { describe, expect, it, vi } from "vitest";
import type { LinkResult, RecentVault } from "../lib/backend";
import { follow, type LinkDeps } from "./links";
import { createVaultMenu } from "./menu";

function linkDeps(agree = false) {
  const calls: string[] = [];
  const deps: LinkDeps = {
    takeLink: async () => null,
    onLinkFollowed: () => {},
    vaultSwitched: async () => void calls.push("switched"),
    open: (path, page, quote, title, region) => void calls.push(`open ${path} ${page} ${quote} ${title}${region ? ` region ${JSON.stringify(region)}` : ""}`),
    alert: (text) => void calls.push(`alert ${text}`),
    confirm: (text) => {
      calls.push(`confirm ${text.split("\n\n")[1]}`);
      return agree;
    },
    openLinkVault: async (link) => {
      calls.push(`open vault of ${link}`);
      return target(true);
    },
  };
  return { deps, calls };
}

const target = (vaultChanged: boolean): LinkResult => ({
  link: "agentero://open?…",
  error: "",
  unknownVault: false,
  target: { vault: "/v", ref: "papers/raft", pdfPath: "papers/raft/raft.pdf", title: "Raft", page: 7, quote: "Raft decomposes", vaultChanged },
});

describe("following a link", () => {
  it("opens the page with the quote, after reloading a vault it switched to", async () => {
    const { deps, calls } = linkDeps();
    await follow(target(true), deps);
    expect(calls).toEqual(["switched", "open papers/raft/raft.pdf 7 Raft decomposes Raft"]);
    calls.length = 0;
    await follow(target(false), deps);
    expect(calls).toEqual(["open papers/raft/raft.pdf 7 Raft decomposes Raft"]);
  });

  it("a link to a figure opens its page with the region the backend read from it", async () => {
    const { deps, calls } = linkDeps();
    const r = target(false);
    await follow({ ...r, target: { ...r.target!, page: 2, quote: "", citationUri: "papers/raft/raft.pdf#page=2&region=69,36.6,243.8,196.7" } }, deps);
    expect(calls).toEqual(['open papers/raft/raft.pdf 2  Raft region {"x":69,"y":36.6,"width":243.8,"height":196.7}']);
  });

  it("asks before opening a folder that is none of the user's vaults, and follows the link only when told to", async () => {
    const unknown: LinkResult = {
      link: "agentero://open?vault=%2Fhome%2Fme%2Fdownloads&ref=papers/x",
      error: "the link opens /home/me/downloads, which is not one of your vaults: opening it would index that folder",
      target: undefined as never,
      unknownVault: true,
    };
    const no = linkDeps(false);
    await follow(unknown, no.deps);
    expect(no.calls).toEqual(["confirm /home/me/downloads", "alert The link was not followed: /home/me/downloads is none of your vaults."]);
    const yes = linkDeps(true);
    await follow(unknown, yes.deps);
    expect(yes.calls).toEqual([
      "confirm /home/me/downloads",
      `open vault of ${unknown.link}`,
      "switched",
      "open papers/raft/raft.pdf 7 Raft decomposes Raft",
    ]);
  });

  it("says why a link was refused, as a sentence", async () => {
    const { deps, calls } = linkDeps();
    await follow({ link: "x", error: "the paper papers/x is not in the vault /v (moved or deleted?)", target: undefined as never, unknownVault: false }, deps);
    expect(calls).toEqual(["alert Couldn’t open that link: the paper papers/x is not in the vault /v (moved or deleted?)."]);
  });
});

describe("the vault menu", () => {
  const recent: RecentVault[] = [
    { path: "/a/current", name: "current", missing: false, current: true },
    { path: "/a/other", name: "other", missing: false, current: false },
    { path: "/a/gone", name: "gone", missing: true, current: false },
  ];

  function mount() {
    const deps = {
      recent: vi.fn(async () => recent),
      openRecent: vi.fn(async () => {}),
      forget: vi.fn(async () => {}),
      choose: vi.fn(async () => {}),
      create: vi.fn(async () => {}),
    };
    const menu = createVaultMenu(deps);
    document.body.replaceChildren(menu.el);
    return { menu, deps, q: (s: string) => menu.el.querySelector<HTMLElement>(s)! };
  }

  it("lists the recent vaults: the open one marked and not openable, a missing one with Forget", async () => {
    const { menu, q } = mount();
    await menu.open();
    const items = Array.from(menu.el.querySelectorAll<HTMLButtonElement>('[data-testid="recent-vault"]'));
    expect(items.map((i) => i.dataset.path)).toEqual(["/a/current", "/a/other", "/a/gone"]);
    expect(items.map((i) => i.disabled)).toEqual([true, false, true]);
    expect(items[0].textContent).toContain("✓ current");
    expect(items[2].textContent).toContain("/a/gone (missing)");
    expect(menu.el.querySelectorAll('[data-testid="forget-vault"]').length).toBe(1);
    expect(q('[data-testid="vault-menu"]').getAttribute("aria-expanded")).toBe("true");
    expect(document.activeElement).toBe(items[1]);
  });

  it("is worked with the keyboard: arrows move, Enter opens, Esc closes", async () => {
    const { menu, deps, q } = mount();
    await menu.open();
    const key = (k: string) => document.activeElement!.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
    key("ArrowDown");
    expect((document.activeElement as HTMLElement).dataset.testid).toBe("forget-vault");
    key("ArrowDown");
    expect((document.activeElement as HTMLElement).dataset.testid).toBe("open-vault");
    key("ArrowDown");
    expect((document.activeElement as HTMLElement).dataset.testid).toBe("new-vault");
    key("ArrowDown");
    expect((document.activeElement as HTMLElement).dataset.path).toBe("/a/other");
    (document.activeElement as HTMLElement).click();
    expect(deps.openRecent).toHaveBeenCalledWith("/a/other");
    expect(q('[data-testid="vault-menu-list"]').hidden).toBe(true);
    await menu.open();
    key("Escape");
    expect(q('[data-testid="vault-menu-list"]').hidden).toBe(true);
    expect(document.activeElement).toBe(q('[data-testid="vault-menu"]'));
  });

  it("Open vault… and New vault… run their dialogs", async () => {
    const { menu, deps, q } = mount();
    await menu.open();
    q('[data-testid="new-vault"]').click();
    expect(deps.create).toHaveBeenCalledOnce();
    await menu.open();
    q('[data-testid="open-vault"]').click();
    expect(deps.choose).toHaveBeenCalledOnce();
  });
});
