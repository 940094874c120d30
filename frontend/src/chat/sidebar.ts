// The paper's sidebar chat: one conversation per paper, the anchors selected
// in it, and the question box. Turns carry the paper, the anchors and the
// @-mentions (SPEC §3, surface "sidebar").

import type { Completion, ContextPlan, ContextRequest, Mention } from "../lib/backend";
import { h } from "../lib/dom";
import { selectionsOf } from "./anchors";
import { createAnchorsView } from "./anchors-view";
import { createComposer } from "./composer";
import { paperConversationId } from "./ids";
import type { SourceLink } from "./sources";
import type { ChatStore } from "./store";
import { createThreadView } from "./thread-view";

export interface OpenPaper {
  ref: string;
  pdfPath: string;
  title: string;
}

export interface ChatDeps {
  store: ChatStore;
  titleOfPath(path: string): string;
  titleOfRef(ref: string): string;
  openSource(link: SourceLink): Promise<boolean>;
  complete(query: string, limit: number): Promise<Completion[]>;
  preview(request: ContextRequest): Promise<ContextPlan>;
}

export interface Sidebar {
  el: HTMLElement;
  setPaper(paper: OpenPaper | null): void;
  focus(): void;
}

export function mountSidebar(host: HTMLElement, deps: ChatDeps): Sidebar {
  const { store } = deps;
  let paper: OpenPaper | null = null;

  const title = h("span", { class: "chat-paper", "data-testid": "chat-paper" });
  const header = h("header", { class: "chat-header" }, h("h2", {}, "Ask about this paper"), title);
  const anchors = createAnchorsView((e) => store.anchor(e), deps.titleOfPath);
  const thread = createThreadView({
    titleOfPath: deps.titleOfPath,
    titleOfRef: deps.titleOfRef,
    openSource: async (link) => {
      const ok = await deps.openSource(link);
      if (paper) store.dispatch({ type: "sources-checked", id: paperConversationId(paper.ref), exists: { [link.uri]: ok } });
      return ok;
    },
    retry: () => {
      if (paper) void store.retry(paperConversationId(paper.ref), request([]));
    },
  });
  const composer = createComposer({
    surface: "sidebar",
    placeholder: "Ask about this paper…  (Ctrl+I)",
    complete: deps.complete,
    preview: (mentions) => deps.preview(request(mentions)),
    titleOfRef: deps.titleOfRef,
    cancel: () => paper && store.cancel(paperConversationId(paper.ref)),
    send: async (question, mentions) => {
      if (!paper) return false;
      const ok = await store.ask(paperConversationId(paper.ref), { question, request: request(mentions), agent: "" });
      if (ok) store.anchor({ type: "sent" });
      return ok;
    },
  });
  const el = h("section", { class: "chat", "data-testid": "sidebar-chat", "aria-label": "Chat about this paper" }, header, thread.el, anchors.el, composer.el);
  host.append(el);

  function request(mentions: Mention[]): ContextRequest {
    return {
      surface: "sidebar",
      currentPaper: paper?.ref,
      selections: selectionsOf(store.anchors()),
      mentions,
      remote: false,
    };
  }

  let renderedAnchors = store.anchors();
  function render() {
    const id = paper ? paperConversationId(paper.ref) : "";
    const t = id ? store.chats()[id] ?? null : null;
    thread.render(t, paper ? "No questions yet. Select a passage in the paper, or just ask." : "Open a paper to ask about it. For questions across papers, use Quick Chat (Ctrl+K).");
    anchors.render(store.anchors());
    composer.setRunning(t?.running ?? false, t?.cancelling ?? false);
    composer.setEnabled(paper !== null, "Open a paper from the library first.");
    if (store.anchors() !== renderedAnchors) {
      renderedAnchors = store.anchors();
      composer.refreshPreview();
    }
  }
  store.subscribe(render);
  render();

  return {
    el,
    setPaper(next) {
      const same = next?.ref === paper?.ref;
      paper = next;
      title.textContent = paper?.title ?? "";
      title.title = paper?.ref ?? "";
      if (same) return;
      // Mentions belong to the paper they were made for.
      composer.clearMentions();
      if (paper) store.load(paperConversationId(paper.ref));
      render();
      composer.refreshPreview();
    },
    focus() {
      composer.focus();
    },
  };
}
