// The conversations panel: every stored conversation of the vault (a
// paper's, Quick Chat's), titled by its first question or the name the user
// gave it, with where, which agent and when; searched across titles and
// messages; renamed and deleted in place; reopened as it was.

import type { ConversationSummary } from "../lib/backend";
import { h } from "../lib/dom";
import { metaLine, paperMissing } from "./state";

export interface ConversationsDeps {
  list(query: string): Promise<ConversationSummary[]>;
  rename(id: string, title: string): Promise<ConversationSummary>;
  remove(id: string): Promise<void>;
  /** open shows the conversation as it was (its paper opened, when it has one in the library). */
  open(c: ConversationSummary): void;
  titleOfRef(ref: string): string;
  hasPaper(ref: string): boolean;
  /** deleted tells the chats a conversation is gone, so a thread showing it empties. */
  deleted(id: string): void;
  errorText(err: unknown): string;
}

export interface ConversationsPanel {
  el: HTMLElement;
  /** refresh lists the conversations again (after a turn, or when the panel is shown). */
  refresh(): void;
  focus(): void;
}

const SearchDelayMs = 150;

export function mountConversations(host: HTMLElement, deps: ConversationsDeps): ConversationsPanel {
  const search = h("input", {
    type: "search",
    class: "conv-search",
    placeholder: "Search titles and messages…",
    "aria-label": "Search conversations",
    "data-testid": "conv-search",
  });
  const status = h("p", { class: "conv-status", role: "status", "data-testid": "conv-status" });
  const list = h("ul", { class: "conv-list", "aria-label": "Conversations", "data-testid": "conv-list" });
  const el = h(
    "section",
    { class: "conversations", "aria-label": "Conversations", "data-testid": "conversations", hidden: true },
    h("header", { class: "chat-header" }, h("h2", {}, "Conversations")),
    h("div", { class: "conv-tools" }, search),
    status,
    list,
  );
  host.append(el);

  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let items: ConversationSummary[] = [];
  // A rename or a delete being confirmed holds the list still: a refresh
  // that arrives meanwhile is drawn when it ends.
  let editing = 0;
  let pending = false;
  const hold = () => editing++;
  const release = () => {
    editing = Math.max(0, editing - 1);
    if (editing === 0 && pending) {
      pending = false;
      render(search.value.trim());
    }
  };

  async function refresh() {
    const mine = ++seq;
    const query = search.value.trim();
    try {
      const got = await deps.list(query);
      if (mine !== seq) return;
      items = got;
      render(query);
    } catch (err) {
      if (mine !== seq) return;
      status.textContent = `Couldn’t list the conversations: ${deps.errorText(err)}`;
    }
  }

  function render(query: string) {
    if (editing > 0) {
      pending = true;
      return;
    }
    if (items.length === 0) {
      status.textContent = query ? `No conversation mentions “${query}”.` : "No conversations yet. Ask about a paper, or use Quick Chat (Ctrl+K).";
    } else {
      status.textContent = query ? `${items.length} matching “${query}”` : items.length === 1 ? "1 conversation" : `${items.length} conversations`;
    }
    list.replaceChildren(...items.map(row));
  }

  function row(c: ConversationSummary): HTMLElement {
    const missing = paperMissing(c, deps.hasPaper);
    const title = h("span", { class: "conv-title", "data-testid": "conv-title" }, c.title);
    const open = h(
      "button",
      { type: "button", class: "conv-open", "data-testid": "conv-open", title: "Reopen this conversation" },
      title,
      h("span", { class: "conv-meta", "data-testid": "conv-meta" }, metaLine(c, deps.titleOfRef)),
      missing ? h("span", { class: "conv-missing" }, "Its paper is no longer in the library; the conversation still opens.") : null,
      c.match ? h("span", { class: "conv-match", "data-testid": "conv-match" }, c.match) : null,
    );
    open.addEventListener("click", () => deps.open(c));
    const renameBtn = h("button", { type: "button", class: "quiet", "data-testid": "conv-rename", "aria-label": `Rename “${c.title}”` }, "Rename");
    const deleteBtn = h("button", { type: "button", class: "quiet danger", "data-testid": "conv-delete", "aria-label": `Delete “${c.title}”` }, "Delete");
    const actions = h("div", { class: "conv-actions" }, renameBtn, deleteBtn);
    const note = h("p", { class: "conv-error", role: "alert" });
    note.hidden = true;
    const li = h("li", { class: "conv-item", "data-testid": "conv-item", "data-id": c.id }, open, actions, note);

    const fail = (what: string, err: unknown) => {
      note.textContent = `Couldn’t ${what}: ${deps.errorText(err)}`;
      note.hidden = false;
    };

    renameBtn.addEventListener("click", () => {
      const input = h("input", { type: "text", class: "conv-rename-input", value: c.title, "aria-label": "New title (Enter saves, Esc cancels; empty = the first question)", "data-testid": "conv-rename-input", maxLength: 200 });
      open.hidden = true;
      actions.hidden = true;
      hold();
      li.prepend(input);
      input.focus();
      input.select();
      let done = false;
      const finish = async (save: boolean) => {
        if (done) return;
        done = true;
        if (save && input.value.trim() !== c.title) {
          try {
            const s = await deps.rename(c.id, input.value);
            Object.assign(c, s);
            title.textContent = s.title;
          } catch (err) {
            fail("rename it", err);
          }
        }
        input.remove();
        open.hidden = false;
        actions.hidden = false;
        open.focus();
        release();
      };
      input.addEventListener("keydown", (e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          void finish(true);
        } else if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          void finish(false);
        }
      });
      input.addEventListener("blur", () => void finish(true));
    });

    deleteBtn.addEventListener("click", () => {
      const yes = h("button", { type: "button", class: "danger", "data-testid": "conv-delete-confirm" }, "Delete");
      const no = h("button", { type: "button", class: "quiet" }, "Keep");
      const ask = h("div", { class: "conv-confirm", role: "group", "aria-label": "Confirm delete" }, h("span", {}, "Delete this conversation and its transcript from the vault?"), yes, no);
      actions.hidden = true;
      hold();
      li.append(ask);
      no.focus();
      no.addEventListener("click", () => {
        ask.remove();
        actions.hidden = false;
        deleteBtn.focus();
        release();
      });
      yes.addEventListener("click", async () => {
        try {
          await deps.remove(c.id);
          deps.deleted(c.id);
          const i = items.findIndex((x) => x.id === c.id);
          items = items.filter((x) => x.id !== c.id);
          li.remove();
          release();
          render(search.value.trim());
          (list.querySelectorAll<HTMLElement>(".conv-open")[Math.min(i, items.length - 1)] ?? search).focus();
        } catch (err) {
          ask.remove();
          actions.hidden = false;
          release();
          fail("delete it", err);
        }
      });
    });
    return li;
  }

  search.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), SearchDelayMs);
  });

  return {
    el,
    refresh: () => void refresh(),
    focus: () => search.focus(),
  };
}
