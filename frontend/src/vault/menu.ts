// The vault menu in the top bar: the recent vaults (the open one marked,
// a missing one greyed with Forget), Open vault… and New vault…. It is a
// menu button: Enter, Space or ↓ open it, arrows move, Esc closes.

import "./menu.css";
import type { RecentVault } from "../lib/backend";
import { h } from "../lib/dom";

export interface VaultMenuDeps {
  recent(): Promise<RecentVault[]>;
  /** openRecent switches to a recent vault. */
  openRecent(path: string): Promise<void>;
  forget(path: string): Promise<void>;
  /** choose is "Open vault…" (a folder dialog). */
  choose(): Promise<void>;
  /** create is "New vault…" (a folder dialog; an empty folder becomes a vault). */
  create(): Promise<void>;
}

export interface VaultMenu {
  el: HTMLElement;
  open(): Promise<void>;
  close(): void;
}

export function createVaultMenu(deps: VaultMenuDeps): VaultMenu {
  const button = h(
    "button",
    {
      type: "button",
      class: "quiet vault-menu-button",
      title: "Recent vaults, open or make a vault",
      "aria-haspopup": "menu",
      "aria-expanded": "false",
      "data-testid": "vault-menu",
    },
    "Vaults ▾",
  );
  const list = h("div", { class: "vault-menu", role: "menu", "aria-label": "Vaults", hidden: true, "data-testid": "vault-menu-list" });
  const el = h("div", { class: "vault-menu-host" }, button, list);

  function items(): HTMLElement[] {
    return Array.from(list.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])'));
  }

  function close(focusButton = false) {
    list.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (focusButton) button.focus();
  }

  function act(run: () => Promise<void>) {
    return () => {
      close(true);
      void run();
    };
  }

  async function open() {
    let recent: RecentVault[] = [];
    let problem = "";
    try {
      recent = await deps.recent();
    } catch (err) {
      problem = `Couldn’t read the recent vaults: ${String(err)}`;
    }
    const rows: Node[] = [h("div", { class: "vault-menu-heading", role: "presentation" }, "Recent vaults")];
    if (problem) rows.push(h("p", { class: "vault-menu-note" }, problem));
    else if (recent.length === 0) rows.push(h("p", { class: "vault-menu-note" }, "None yet."));
    for (const v of recent) {
      const label = v.current ? `✓ ${v.name}` : v.name;
      const item = h(
        "button",
        {
          type: "button",
          role: "menuitem",
          class: `vault-menu-item${v.current ? " current" : ""}${v.missing ? " missing" : ""}`,
          title: v.missing ? `${v.path} is no longer there (or no longer a vault)` : v.path,
          "data-testid": "recent-vault",
          "data-path": v.path,
          disabled: v.current || v.missing,
          onClick: act(() => deps.openRecent(v.path)),
        },
        h("span", { class: "vault-menu-name" }, label),
        h("span", { class: "vault-menu-path" }, v.missing ? `${v.path} (missing)` : v.path),
      );
      const row: Node[] = [item];
      if (v.missing) {
        row.push(
          h(
            "button",
            {
              type: "button",
              role: "menuitem",
              class: "quiet vault-menu-forget",
              title: `Remove ${v.path} from this list`,
              "data-testid": "forget-vault",
              onClick: act(() => deps.forget(v.path)),
            },
            "Forget",
          ),
        );
      }
      rows.push(h("div", { class: "vault-menu-row", role: "presentation" }, ...row));
    }
    rows.push(
      h("hr", { role: "separator" }),
      h("button", { type: "button", role: "menuitem", class: "vault-menu-item", "data-testid": "open-vault", onClick: act(deps.choose) }, "Open vault…"),
      h("button", { type: "button", role: "menuitem", class: "vault-menu-item", "data-testid": "new-vault", title: "Choose an empty folder: it becomes a new vault", onClick: act(deps.create) }, "New vault…"),
    );
    list.replaceChildren(...rows);
    list.hidden = false;
    button.setAttribute("aria-expanded", "true");
    items()[0]?.focus();
  }

  button.addEventListener("click", () => (list.hidden ? void open() : close()));
  button.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown" && list.hidden) {
      e.preventDefault();
      void open();
    }
  });
  list.addEventListener("keydown", (e) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const next = e.key === "ArrowDown" ? (at + 1) % all.length : (at - 1 + all.length) % all.length;
      all[next]?.focus();
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      all[e.key === "Home" ? 0 : all.length - 1]?.focus();
    }
  });
  el.addEventListener("focusout", (e) => {
    if (!el.contains(e.relatedTarget as Node | null) && e.relatedTarget !== null) close();
  });
  document.addEventListener("mousedown", (e) => {
    if (!list.hidden && !el.contains(e.target as Node)) close();
  });

  return { el, open, close: () => close() };
}
