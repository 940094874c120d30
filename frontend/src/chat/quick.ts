// Quick Chat: a panel docked beside the paper (Ctrl+K) for questions across
// the vault; opening a source from it leaves it open. It
// follows the sidebar's context rules: it carries the open paper and the
// anchors when there are any, plus what is @-mentioned, and nothing else —
// with nothing pointed at, the turn is prompt-only and the box says so
// before it is sent.

import type { ContextRequest, Mention } from "../lib/backend";
import { h } from "../lib/dom";
import { createAgentPicker } from "./agent-picker";
import { selectionsOf } from "./anchors";
import { createAnchorsView } from "./anchors-view";
import { createComposer } from "./composer";
import { slashDeps } from "./slash";
import { quickConversationId } from "./ids";
import type { ChatDeps, OpenPaper } from "./sidebar";
import { conversationExport } from "./export-actions";
import { createThreadView } from "./thread-view";

const CountKey = "agentero.quickChats";

export interface QuickChat {
  el: HTMLElement;
  open(): void;
  close(): void;
  toggle(): void;
  isOpen(): boolean;
  setPaper(paper: OpenPaper | null): void;
  /** showAgentView opens "What the agent sees" for the Quick Chat thread shown. */
  showAgentView(): void;
  /** refreshAgents reads the agents again (Settings changed them). */
  refreshAgents(): void;
  /** activate renders the panel once its dock shows it. */
  activate(): void;
  /** showConversation opens a stored conversation here (a Quick Chat's, or a paper's whose paper is gone). */
  showConversation(id: string): void;
}

/** QuickDock shows and hides the panel (the right pane's dock). */
export interface QuickDock {
  show(): void;
  hide(): void;
}

export function mountQuickChat(host: HTMLElement, deps: ChatDeps, dock?: QuickDock): QuickChat {
  const { store } = deps;
  let paper: OpenPaper | null = null;
  let withPaper = true;
  let count = Math.max(1, Number(localStorage.getItem(CountKey)) || 1);
  let currentId = quickConversationId(count);
  let returnFocus: HTMLElement | null = null;

  const picker = h("select", { class: "quick-threads", "aria-label": "Quick Chat conversation", "data-testid": "quick-threads" });
  const newChat = h("button", { type: "button", class: "quiet", title: "Start a new Quick Chat conversation", "data-testid": "quick-new" }, "New chat");
  const closeButton = h("button", { type: "button", class: "icon quiet", "aria-label": "Close Quick Chat (Esc)", title: "Close (Esc)" }, "×");
  const seeAgent = h(
    "button",
    { type: "button", class: "quiet agent-view-open", title: "What the agent sees for this conversation (Ctrl+Shift+A)", "data-testid": "agent-view-open" },
    "What the agent sees",
  );
  const paperChip = h("div", { class: "quick-paper", "data-testid": "quick-paper" });
  const anchors = createAnchorsView((e) => store.anchor(e), deps.titleOfPath);
  const agentPicker = createAgentPicker("quickChat", deps.agents);
  const thread = createThreadView({
    titleOfPath: deps.titleOfPath,
    titleOfRef: deps.titleOfRef,
    openSource: async (link) => {
      const ok = await deps.openSource(link);
      store.dispatch({ type: "sources-checked", id: id(), exists: { [link.uri]: ok } });
      return ok;
    },
    openExternal: deps.openExternal,
    exporter: deps.exporter,
    answerPermission: (requestId, optionId) => store.answerPermission(id(), requestId, optionId),
    retry: () => {
      const conv = id();
      void agentPicker.refresh().then((agent) => store.retry(conv, request([]), agent));
    },
  });
  const composer = createComposer({
    surface: "quickChat",
    placeholder: "Ask across your vault… @ mentions papers, folders and files",
    complete: deps.complete,
    preview: (mentions) => deps.preview(request(mentions)),
    titleOfRef: deps.titleOfRef,
    cancel: () => store.cancel(id()),
    actions: [agentPicker.el],
    notes: [agentPicker.notice],
    ...slashDeps(deps.slash, id),
    send: async (question, mentions) => {
      const conv = id();
      const req = request(mentions);
      const agent = await agentPicker.refresh();
      const ok = await store.ask(conv, { question, request: req, agent });
      if (ok) store.anchor({ type: "sent" });
      return ok;
    },
  });
  const el = h(
    "section",
    { class: "quick-chat", "aria-label": "Quick Chat", hidden: true, "data-testid": "quick-chat" },
    h("header", { class: "chat-header" }, h("h2", {}, "Quick Chat"), h("kbd", {}, "Ctrl+K"), picker, newChat, seeAgent, deps.exporter ? conversationExport(() => id(), deps.exporter) : null, closeButton),
    thread.el,
    paperChip,
    anchors.el,
    composer.el,
  );
  host.append(el);

  function id(): string {
    return currentId;
  }

  // quickNumber is n of "quick.<n>", 0 for another conversation shown here.
  function quickNumber(conv: string): number {
    const m = /^quick\.(\d+)$/.exec(conv);
    return m ? Number(m[1]) : 0;
  }

  function request(mentions: Mention[]): ContextRequest {
    return {
      surface: "quickChat",
      currentPaper: paper && withPaper ? paper.ref : undefined,
      selections: selectionsOf(store.anchors()),
      mentions,
      remote: false,
    };
  }

  function renderPicker() {
    const options = Array.from({ length: count }, (_, i) => {
      const conv = quickConversationId(i + 1);
      const title = deps.conversationTitle?.(conv) ?? "";
      return h("option", { value: conv, selected: conv === currentId }, title ? `Chat ${i + 1}: ${title}` : `Chat ${i + 1}`);
    });
    if (quickNumber(currentId) === 0) options.push(h("option", { value: currentId, selected: true }, `${deps.conversationTitle?.(currentId) || currentId}`));
    picker.replaceChildren(...options);
  }

  function renderPaper() {
    if (!paper) {
      paperChip.replaceChildren();
      paperChip.hidden = true;
      return;
    }
    paperChip.hidden = false;
    const toggle = h(
      "button",
      {
        type: "button",
        class: "quiet",
        "data-testid": "quick-paper-toggle",
        onClick: () => {
          withPaper = !withPaper;
          renderPaper();
          composer.refreshPreview();
        },
      },
      withPaper ? "Leave out" : "Include",
    );
    paperChip.replaceChildren(
      h("span", { class: withPaper ? "" : "excluded" }, withPaper ? "Open paper: " : "Not included: ", h("strong", {}, paper.title || paper.ref)),
      toggle,
    );
  }

  let renderedAnchors = store.anchors();
  function render() {
    if (el.hidden) return;
    const t = store.chats()[id()] ?? null;
    thread.render(t, "Ask about anything in your vault. @-mention the papers, folders or files the agent may read.");
    anchors.render(store.anchors());
    composer.setRunning(t?.running ?? false, t?.cancelling ?? false);
    if (store.anchors() !== renderedAnchors) {
      renderedAnchors = store.anchors();
      composer.refreshPreview();
    }
  }
  store.subscribe(render);

  function switchTo(conv: string) {
    // Mentions belong to the conversation they were made for.
    if (conv !== currentId) composer.clearMentions();
    currentId = conv;
    const n = quickNumber(conv);
    if (n > count) {
      count = n;
      localStorage.setItem(CountKey, String(count));
    }
    store.load(id());
    renderPicker();
    render();
  }

  function activate() {
    store.load(id());
    renderPicker();
    renderPaper();
    render();
    composer.refreshPreview();
  }

  function open() {
    if (!el.hidden) {
      composer.focus();
      return;
    }
    returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dock) dock.show();
    else {
      el.hidden = false;
      activate();
    }
    composer.focus();
  }

  function close() {
    if (el.hidden) return;
    if (dock) dock.hide();
    else el.hidden = true;
    if (returnFocus?.isConnected && !returnFocus.closest("[hidden]")) returnFocus.focus();
  }

  picker.addEventListener("change", () => switchTo(picker.value));
  newChat.addEventListener("click", () => {
    count++;
    localStorage.setItem(CountKey, String(count));
    switchTo(quickConversationId(count));
    composer.focus();
  });
  closeButton.addEventListener("click", close);
  const showAgentView = () => deps.showAgentView(id(), quickNumber(id()) ? `Quick Chat ${quickNumber(id())}` : deps.conversationTitle?.(id()) || id());
  seeAgent.addEventListener("click", showAgentView);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  });

  return {
    el,
    open,
    close,
    toggle: () => (el.hidden ? open() : close()),
    isOpen: () => !el.hidden,
    showAgentView,
    refreshAgents: () => void agentPicker.refresh(),
    activate,
    showConversation(conv) {
      if (el.hidden) open();
      switchTo(conv);
    },
    setPaper(next) {
      if (next?.ref !== paper?.ref) withPaper = true;
      paper = next;
      renderPaper();
      if (!el.hidden) composer.refreshPreview();
    },
  };
}
