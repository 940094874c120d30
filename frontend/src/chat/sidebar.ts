// The paper's sidebar chat: one conversation per paper, the anchors selected
// in it, and the question box. Turns carry the paper, the anchors and the
// @-mentions (SPEC §3, surface "sidebar").

import type { AgentList, Completion, ContextPlan, ContextRequest, Mention } from "../lib/backend";
import { h } from "../lib/dom";
import { createAgentPicker } from "./agent-picker";
import { selectionsOf } from "./anchors";
import { createAnchorsView } from "./anchors-view";
import { createComposer } from "./composer";
import { slashDeps, type SlashBackend } from "./slash";
import { paperConversationId } from "./ids";
import type { SourceLink } from "./sources";
import type { ChatStore } from "./store";
import { conversationExport, type Exporter } from "./export-actions";
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
  /** openExternal opens an https: link of an answer in the system browser. */
  openExternal(url: string): void;
  complete(query: string, limit: number): Promise<Completion[]>;
  preview(request: ContextRequest): Promise<ContextPlan>;
  /** agents lists the configured agents, for the per-turn agent picker. */
  agents(): Promise<AgentList>;
  /** showAgentView opens "What the agent sees" for a conversation; label names it. */
  showAgentView(conversationId: string, label: string): void;
  /** exporter exports answers and conversations (export-actions.ts); none in tests that do not need it. */
  exporter?: Exporter;
  /** slash runs /compact and /clear and lists the agent's commands; absent: no slash commands. */
  slash?: SlashBackend;
  /** conversationTitle is a stored conversation's title, when known. */
  conversationTitle?(id: string): string;
}

export interface Sidebar {
  el: HTMLElement;
  setPaper(paper: OpenPaper | null): void;
  focus(): void;
  /** conversationId is the open paper's thread, null when no paper is open. */
  conversationId(): string | null;
  /** showAgentView opens "What the agent sees" for the open paper's thread. */
  showAgentView(): void;
  /** refreshAgents reads the agents again (Settings changed them). */
  refreshAgents(): void;
}

export function mountSidebar(host: HTMLElement, deps: ChatDeps): Sidebar {
  const { store } = deps;
  let paper: OpenPaper | null = null;

  const title = h("span", { class: "chat-paper", "data-testid": "chat-paper" });
  const seeAgent = h(
    "button",
    { type: "button", class: "quiet agent-view-open", title: "What the agent sees for this conversation (Ctrl+Shift+A)", "data-testid": "agent-view-open", disabled: true },
    "What the agent sees",
  );
  const exportButton = deps.exporter ? conversationExport(() => (paper ? paperConversationId(paper.ref) : null), deps.exporter) : null;
  const header = h("header", { class: "chat-header" }, h("h2", {}, "Ask about this paper"), seeAgent, exportButton, title);
  function showAgentView() {
    if (paper) deps.showAgentView(paperConversationId(paper.ref), `About ${paper.title || paper.ref}`);
  }
  seeAgent.addEventListener("click", showAgentView);
  const anchors = createAnchorsView((e) => store.anchor(e), deps.titleOfPath);
  const picker = createAgentPicker("sidebar", deps.agents);
  const thread = createThreadView({
    titleOfPath: deps.titleOfPath,
    titleOfRef: deps.titleOfRef,
    openSource: async (link) => {
      const ok = await deps.openSource(link);
      if (paper) store.dispatch({ type: "sources-checked", id: paperConversationId(paper.ref), exists: { [link.uri]: ok } });
      return ok;
    },
    openExternal: deps.openExternal,
    exporter: deps.exporter,
    answerPermission: (requestId, optionId) => paper && store.answerPermission(paperConversationId(paper.ref), requestId, optionId),
    retry: () => {
      if (!paper) return;
      const id = paperConversationId(paper.ref);
      void picker.refresh().then((agent) => store.retry(id, request([]), agent));
    },
  });
  const composer = createComposer({
    surface: "sidebar",
    placeholder: "Ask about this paper…  (Ctrl+I)",
    complete: deps.complete,
    preview: (mentions) => deps.preview(request(mentions)),
    titleOfRef: deps.titleOfRef,
    cancel: () => paper && store.cancel(paperConversationId(paper.ref)),
    actions: [picker.el],
    notes: [picker.notice],
    ...slashDeps(deps.slash, () => (paper ? paperConversationId(paper.ref) : null)),
    send: async (question, mentions) => {
      if (!paper) return false;
      const id = paperConversationId(paper.ref);
      const req = request(mentions);
      const agent = await picker.refresh();
      const ok = await store.ask(id, { question, request: req, agent });
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
      seeAgent.disabled = paper === null;
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
    conversationId: () => (paper ? paperConversationId(paper.ref) : null),
    showAgentView,
    refreshAgents: () => void picker.refresh(),
  };
}
