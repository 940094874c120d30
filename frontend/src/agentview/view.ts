// "What the agent sees" (Ctrl+Shift+A): for one conversation, first what
// its last turn actually sent (each part of the prompt, the tools the
// session could call, and the turn's tool calls and results, with the
// transcript one click away); then the frozen
// base context its session was given (the vault's guidance file and the
// always-on context documents), the problems found assembling it, and the
// history as it would be handed to a new session, with how it was
// compacted. All of it is worked out when the view opens; the transcript
// itself is never changed.

import { errorText, type AgentView } from "../lib/backend";
import { h } from "../lib/dom";
import "./agentview.css";
import { compactionLine, historyHeadline, historyTurns, toolStatusWord, turnDetail, type Decision } from "./summary";

export interface AgentViewDeps {
  whatAgentSees(conversationId: string): Promise<AgentView>;
  copy(text: string): Promise<void>;
  /** lastTurn is how the conversation's last turn stands in the window: its permission decisions, and whether it ended. */
  lastTurn?(conversationId: string): { decisions: Decision[]; ended: boolean };
}

export interface AgentViewDialog {
  /** open shows what the agent of a conversation sees; label names the conversation. */
  open(conversationId: string, label: string): void;
  isOpen(): boolean;
}

const partWords: Record<string, string> = {
  snapshot: "Base context, as this session got it",
  plan: "Context plan: what the turn may read, its selections and evidence",
  handover: "Handover: the conversation so far, compacted",
  question: "Question",
};

const sessionWords: Record<string, string> = {
  new: "new",
  warm: "new (from the warm pool)",
  resume: "resumed",
  load: "loaded",
  continue: "continued",
};

// How long "Copied" stays on a copy button.
const CopiedMs = 1500;
const CopyFailedMs = 5000;

export function mountAgentView(host: HTMLElement, deps: AgentViewDeps): AgentViewDialog {
  const subtitle = h("span", { class: "agent-view-conversation", "data-testid": "agent-view-conversation" });
  const refresh = h("button", { type: "button", class: "quiet", title: "Work it out again", "data-testid": "agent-view-refresh" }, "Refresh");
  const status = h("p", { class: "agent-view-status", role: "status", "data-testid": "agent-view-status" });
  const body = h("div", { class: "agent-view-body" });
  const dialog = h(
    "dialog",
    { class: "agent-view", "aria-label": "What the agent sees", "data-testid": "agent-view" },
    h(
      "header",
      { class: "chat-header" },
      h("h2", {}, "What the agent sees"),
      h("kbd", {}, "Ctrl+Shift+A"),
      refresh,
      h("button", { type: "button", class: "icon quiet", "aria-label": "Close (Esc)", title: "Close (Esc)", onClick: () => dialog.close() }, "×"),
      subtitle,
    ),
    h(
      "p",
      { class: "agent-view-note", "data-testid": "agent-view-note" },
      "The transcript itself is never changed: compaction only changes what is sent to the agent. Everything it said and did stays in the transcript, whole.",
    ),
    status,
    body,
  );
  host.append(dialog);

  let current = "";
  let seq = 0;

  async function load() {
    const id = current;
    const mine = ++seq;
    status.textContent = "Working out what the agent is given…";
    status.className = "agent-view-status busy";
    body.setAttribute("aria-busy", "true");
    try {
      const view = await deps.whatAgentSees(id);
      if (mine !== seq) return;
      status.textContent = "";
      status.className = "agent-view-status";
      body.replaceChildren(...sections(view));
    } catch (err) {
      if (mine !== seq) return;
      status.textContent = `Couldn’t work out what the agent sees: ${errorText(err)}`;
      status.className = "agent-view-status error";
      body.replaceChildren();
    } finally {
      if (mine === seq) body.removeAttribute("aria-busy");
    }
  }

  function lastTurn(v: AgentView): HTMLElement {
    const p = v.lastPrompt;
    const transcript = h(
      "p",
      { class: "agent-view-transcript-link" },
      "Every turn whole is in the transcript: ",
      h("code", { class: "agent-view-path" }, v.transcript || "(none yet)"),
      " ",
      v.transcript ? copyButton("Copy transcript path", v.transcript, "copy-transcript-top") : null,
    );
    if (!p || !p.parts) {
      return h(
        "section",
        { class: "agent-view-section", "data-testid": "agent-view-last-turn" },
        h("h3", {}, "Last turn, as sent"),
        h("p", { class: "agent-view-empty", "data-testid": "last-prompt-empty" }, "Nothing sent yet: ask a question first."),
        transcript,
      );
    }
    const tools = v.lastTools ?? [];
    const turn = deps.lastTurn?.(current) ?? { decisions: [], ended: true };
    return h(
      "section",
      { class: "agent-view-section", "data-testid": "agent-view-last-turn" },
      h("div", { class: "agent-view-head" }, h("h3", {}, "Last turn, as sent"), copyButton("Copy prompt", p.parts.map((x) => x.text).join("\n"), "copy-last-prompt")),
      h(
        "p",
        { class: "detail", "data-testid": "last-prompt-session" },
        `Session ${sessionWords[p.action] ?? p.action}; tools it could call: ${p.tools.length ? p.tools.join(", ") : "none (the prompt only)"}.`,
      ),
      ...p.parts.map((part) =>
        h(
          "details",
          { class: "agent-view-part", open: part.kind === "plan", "data-testid": `last-prompt-${part.kind}` },
          h("summary", {}, partWords[part.kind] ?? part.kind),
          h("pre", { class: "agent-view-text", tabIndex: 0, "aria-label": partWords[part.kind] ?? part.kind }, part.text),
        ),
      ),
      h("h4", {}, tools.length ? `Tool calls (${tools.length})` : "Tool calls: none"),
      tools.length
        ? h(
            "ol",
            { class: "agent-view-tools", "data-testid": "last-turn-tools" },
            ...tools.map((t) =>
              h(
                "li",
                { "data-testid": "last-turn-tool" },
                h("details", {}, h("summary", {}, `${t.title || "a tool"} · ${toolStatusWord(t, turn.decisions, turn.ended)}`),
                  t.input ? h("pre", { class: "agent-view-text", tabIndex: 0 }, `input: ${t.input}`) : null,
                  ...(t.content ?? []).map((c) => h("pre", { class: "agent-view-text", tabIndex: 0 }, c.type === "diff" ? `diff of ${c.path}` : c.text || "")),
                ),
              ),
            ),
          )
        : null,
      transcript,
    );
  }

  function sections(v: AgentView): HTMLElement[] {
    const hist = v.history;
    const turns = historyTurns(hist);
    const detail = turnDetail(hist);
    return [
      lastTurn(v),
      h(
        "section",
        { class: "agent-view-section", "data-testid": "agent-view-snapshot" },
        h("div", { class: "agent-view-head" }, h("h3", {}, "Base context"), v.snapshot ? copyButton("Copy", v.snapshot, "copy-snapshot") : null),
        h(
          "p",
          { class: "detail" },
          "Frozen when the conversation’s session started: the vault’s guidance file (AGENTS.md, CLAUDE.md or .claude/AGENTS.md) and the always-on context documents. A change on disk applies to new sessions.",
        ),
        v.snapshot
          ? h("pre", { class: "agent-view-text", tabIndex: 0, "aria-label": "Base context", "data-testid": "snapshot-text" }, v.snapshot)
          : h("p", { class: "agent-view-empty", "data-testid": "snapshot-text" }, "Empty: this vault has no guidance file and no always-on context documents."),
      ),
      h(
        "section",
        { class: "agent-view-section", "data-testid": "agent-view-issues" },
        h("h3", {}, "Issues"),
        v.issues.length
          ? h("ul", { class: "agent-view-issues" }, ...v.issues.map((i) => h("li", { "data-testid": "agent-view-issue" }, i)))
          : h("p", { class: "agent-view-empty" }, "None: the base context was assembled without problems."),
      ),
      h(
        "section",
        { class: "agent-view-section", "data-testid": "agent-view-history" },
        h("div", { class: "agent-view-head" }, h("h3", {}, `History: ${historyHeadline(hist)}`), hist.text ? copyButton("Copy", hist.text, "copy-history") : null),
        h(
          "p",
          { class: "detail" },
          "What a new session of this conversation is handed (after a change of agent or of what the turn may read, or a lost session), as sent. A continued session keeps its own history.",
        ),
        h("p", { class: "agent-view-compaction", "data-testid": "compaction-summary" }, compactionLine(hist)),
        detail && turns > 0 ? h("p", { class: "agent-view-turns", "data-testid": "compaction-turns" }, detail) : null,
        hist.notes.length ? h("ul", { class: "agent-view-notes" }, ...hist.notes.map((n) => h("li", {}, n))) : null,
        hist.summary
          ? h(
              "details",
              { class: "agent-view-summary" },
              h("summary", {}, "Summary of the older turns"),
              h("pre", { class: "agent-view-text", tabIndex: 0, "data-testid": "summary-text" }, hist.summary),
            )
          : null,
        hist.text
          ? h("pre", { class: "agent-view-text", tabIndex: 0, "aria-label": "History as sent", "data-testid": "history-text" }, hist.text)
          : h("p", { class: "agent-view-empty", "data-testid": "history-text" }, "Nothing yet: ask a question first."),
      ),
      h(
        "section",
        { class: "agent-view-section agent-view-transcript" },
        h("div", { class: "agent-view-head" }, h("h3", {}, "Transcript"), v.transcript ? copyButton("Copy path", v.transcript, "copy-transcript") : null),
        h("p", { class: "detail" }, "Every turn, whole (questions, answers, tool calls and results), kept as it happened:"),
        h("code", { class: "agent-view-path", "data-testid": "transcript-path" }, v.transcript || "(none yet)"),
      ),
    ];
  }

  function copyButton(label: string, text: string, testid: string): HTMLElement {
    const button = h("button", { type: "button", class: "quiet", "data-testid": testid }, label);
    let timer: ReturnType<typeof setTimeout> | undefined;
    button.addEventListener("click", async () => {
      clearTimeout(timer);
      let ms = CopiedMs;
      try {
        await deps.copy(text);
        button.textContent = "Copied";
      } catch {
        button.textContent = "Couldn’t copy: select the text and press Ctrl+C";
        ms = CopyFailedMs;
      }
      timer = setTimeout(() => (button.textContent = label), ms);
    });
    return button;
  }

  refresh.addEventListener("click", () => void load());

  return {
    open(conversationId, label) {
      current = conversationId;
      subtitle.textContent = label;
      subtitle.title = conversationId;
      body.replaceChildren();
      if (!dialog.open) dialog.showModal();
      void load();
    },
    isOpen: () => dialog.open,
  };
}
