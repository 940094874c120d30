// The question box shared by the sidebar and Quick Chat: a textarea with
// "@" completion over papers, folders and files, the mentioned items as
// chips, a line saying what the turn will be able to read (PreviewPlan, so a
// prompt-only turn is announced before it is sent), and Send / Cancel.

import { errorText, type Completion, type ContextPlan, type Mention, type SlashCommand } from "../lib/backend";
import { h } from "../lib/dom";
import { preview as planPreview } from "./context";
import { addMention, kindWord, literalMentions, mentionAt, mentionLabel, removeMention, removeToken, vaultOffered, VaultMention, type MentionToken } from "./mentions";

const CompleteDebounceMs = 120;
const PreviewDebounceMs = 200;
const CompleteLimit = 8;

export interface ComposerDeps {
  surface: "sidebar" | "quickChat";
  placeholder: string;
  complete(query: string, limit: number): Promise<Completion[]>;
  /** preview resolves the plan this turn would run with, given the chips. */
  preview(mentions: Mention[]): Promise<ContextPlan>;
  titleOfRef(ref: string): string;
  /** send starts the turn; it resolves to false when the turn could not start (the text is kept). */
  send(question: string, mentions: Mention[]): Promise<boolean>;
  cancel(): void;
  /** actions go in the row of Send and Cancel, before them (e.g. the agent picker). */
  actions?: Node[];
  /** notes go under the preview line. */
  notes?: Node[];
  /** commands lists what "/" offers: Agentero's own (builtin) and the agent's. Absent: no slash commands. */
  commands?(): Promise<SlashCommand[]>;
  /** runCommand runs one of Agentero's own commands; it resolves to what to tell the user. */
  runCommand?(name: string): Promise<string>;
}

/** slashQuery is the command name being typed ("/com" → "com"), or null when the box holds no command yet. */
export function slashQuery(text: string, caret: number): string | null {
  const m = /^\/([\w-]*)$/.exec(text.slice(0, caret));
  return m && !/\s/.test(text.slice(0, caret)) ? m[1] : null;
}

/** builtinCommand is the name of one of Agentero's commands the text is ("/compact", "/clear  "), or "". */
export function builtinCommand(text: string, commands: readonly SlashCommand[]): string {
  const m = /^\/([\w-]+)\s*$/.exec(text.trim());
  return m && commands.some((c) => c.builtin && c.name === m[1]) ? m[1] : "";
}

/** typedInFull reports whether the box holds exactly one of the listed commands ("/compact"), one that needs no argument. */
export function typedInFull(text: string, listed: readonly SlashCommand[]): boolean {
  const m = /^\/([\w-]+)$/.exec(text.trim());
  return m !== null && listed.some((c) => c.name === m[1] && (c.builtin || !c.hint));
}

export interface Composer {
  el: HTMLElement;
  focus(): void;
  setRunning(running: boolean, cancelling: boolean): void;
  /** setEnabled turns the box off with a reason shown in place of the preview. */
  setEnabled(enabled: boolean, reason?: string): void;
  /** refreshPreview asks again what the turn could read (the paper or anchors changed). */
  refreshPreview(): void;
  setNotice(text: string): void;
  /** clearMentions drops the chips (the typed text stays). */
  clearMentions(): void;
}

export function createComposer(deps: ComposerDeps): Composer {
  const id = `composer-${deps.surface}`;
  const input = h("textarea", {
    class: "composer-input",
    rows: 2,
    placeholder: deps.placeholder,
    "aria-label": deps.surface === "sidebar" ? "Ask about this paper" : "Ask in Quick Chat",
    "aria-autocomplete": "list",
    "aria-controls": `${id}-completions`,
    "aria-expanded": "false",
    spellcheck: true,
    "data-testid": "composer-input",
  });
  const completions = h("ul", { id: `${id}-completions`, class: "completions", role: "listbox", "aria-label": "Mention suggestions", hidden: true, "data-testid": "completions" });
  const chips = h("ul", { class: "chips", "aria-label": "Mentioned", "data-testid": "mention-chips" });
  // The preview: one line, and behind "show all" the sources it only counts (capped in height).
  const previewLine = h("span", { class: "composer-context-line" });
  const previewMore = h("button", { type: "button", class: "quiet composer-context-more", "aria-expanded": "false", hidden: true, "data-testid": "context-preview-more" }, "show all");
  const previewList = h("ul", { class: "composer-context-all", hidden: true, "data-testid": "context-preview-all" });
  const preview = h("div", { class: "composer-context empty", role: "status", "data-testid": "context-preview" }, previewLine, previewMore, previewList);
  const notice = h("p", { class: "composer-notice", role: "alert", hidden: true });
  const status = h("p", { class: "composer-command", role: "status", hidden: true, "data-testid": "command-result" });
  const send = h("button", { type: "button", class: "primary", title: "Send (Enter; Shift+Enter for a new line)", "data-testid": "send" }, "Send");
  const cancel = h("button", { type: "button", hidden: true, title: "Stop this answer", "data-testid": "cancel" }, "Cancel");
  const el = h(
    "div",
    { class: "composer", "data-surface": deps.surface },
    chips,
    h("div", { class: "composer-box" }, completions, input),
    preview,
    notice,
    status,
    ...(deps.notes ?? []),
    h("div", { class: "composer-actions" }, h("span", { class: "composer-hint" }, deps.commands ? "@ to mention · / for commands · Enter to send" : "@ to mention · Enter to send"), ...(deps.actions ?? []), cancel, send),
  );

  let mentions: Mention[] = [];
  const titles = new Map<string, string>();
  let options: Completion[] = [];
  let active = -1;
  let token: MentionToken | null = null;
  let slash: SlashCommand[] | null = null; // the commands listed, while "/" is being typed
  let known: SlashCommand[] = [];
  let completeSeq = 0;
  let completeTimer: ReturnType<typeof setTimeout> | undefined;
  let previewSeq = 0;
  let previewTimer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let enabled = true;
  let disabledReason = "";
  let sending = false;

  function setPreview(line: string, more: readonly string[] = []) {
    previewLine.textContent = line;
    preview.classList.toggle("empty", line === "");
    previewMore.hidden = more.length === 0;
    previewList.replaceChildren(...more.map((m) => h("li", {}, m)));
    if (more.length === 0) showAll(false);
  }

  function showAll(on: boolean) {
    previewList.hidden = !on;
    previewMore.setAttribute("aria-expanded", String(on));
    previewMore.textContent = on ? "hide" : `show all ${previewList.childElementCount}`;
  }
  previewMore.addEventListener("click", () => showAll(previewList.hidden));

  function setNotice(text: string) {
    notice.textContent = text;
    notice.hidden = text === "";
  }

  function updateButtons() {
    send.disabled = !enabled || running || sending || input.value.trim() === "";
    cancel.hidden = !running;
  }

  // --- completion --------------------------------------------------------

  function closeCompletion() {
    completeSeq++;
    clearTimeout(completeTimer);
    token = null;
    slash = null;
    options = [];
    active = -1;
    completions.hidden = true;
    completions.replaceChildren();
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  }

  function onInput() {
    setNotice("");
    updateButtons();
    autosize();
    const q = deps.commands ? slashQuery(input.value, input.selectionStart ?? input.value.length) : null;
    if (q !== null && deps.commands) {
      const mine = ++completeSeq;
      deps.commands().then(
        (cmds) => {
          if (mine !== completeSeq) return;
          known = cmds;
          showCommands(cmds.filter((c) => c.name.startsWith(q)));
        },
        (err) => mine === completeSeq && setNotice(`Couldn’t list the commands: ${errorText(err)}`),
      );
      return;
    }
    const t = mentionAt(input.value, input.selectionStart ?? input.value.length);
    if (!t) {
      closeCompletion();
      return;
    }
    token = t;
    clearTimeout(completeTimer);
    const mine = ++completeSeq;
    completeTimer = setTimeout(async () => {
      try {
        const found = await deps.complete(t.query, CompleteLimit);
        if (mine !== completeSeq) return;
        // @vault: the whole vault for this turn, offered first while it fits what is typed.
        showOptions(vaultOffered(t.query) ? [{ kind: "vault", path: "", title: "Whole vault — every paper, folder and file, for this turn" }, ...found] : found);
      } catch (err) {
        if (mine === completeSeq) setNotice(`Couldn’t list papers and files: ${errorText(err)}`);
      }
    }, CompleteDebounceMs);
  }

  function showOptions(found: Completion[]) {
    options = found;
    active = found.length > 0 ? 0 : -1;
    completions.hidden = false;
    input.setAttribute("aria-expanded", "true");
    if (found.length === 0) {
      completions.replaceChildren(h("li", { class: "completion-empty" }, `Nothing in the vault matches “${token?.query ?? ""}”`));
      return;
    }
    completions.replaceChildren(
      ...found.map((c, i) =>
        h(
          "li",
          { id: `${id}-option-${i}`, class: "completion", role: "option", "data-index": i, "data-kind": c.kind, "data-path": c.path, "data-testid": "completion" },
          h("span", { class: "completion-kind" }, kindWord(c.kind)),
          h("span", { class: "completion-title" }, c.title || c.path),
          c.title ? h("span", { class: "completion-path" }, c.path) : null,
        ),
      ),
    );
    markActive();
  }

  function showCommands(found: SlashCommand[]) {
    token = null;
    slash = found;
    options = found.map((c) => ({ kind: "command", path: c.name, title: c.description }) as unknown as Completion);
    active = found.length > 0 ? 0 : -1;
    completions.hidden = false;
    input.setAttribute("aria-expanded", "true");
    if (found.length === 0) {
      completions.replaceChildren(h("li", { class: "completion-empty" }, "No command starts so"));
      return;
    }
    completions.replaceChildren(
      ...found.map((c, i) =>
        h(
          "li",
          { id: `${id}-option-${i}`, class: "completion", role: "option", "data-index": i, "data-command": c.name, "data-testid": "slash-command" },
          h("span", { class: "completion-kind" }, c.builtin ? "Agentero" : "agent"),
          h("span", { class: "completion-title" }, `/${c.name}${c.hint ? ` ${c.hint}` : ""}`),
          h("span", { class: "completion-path" }, c.description),
        ),
      ),
    );
    markActive();
  }

  function markActive() {
    for (const li of completions.querySelectorAll<HTMLElement>("[data-index]")) {
      const on = Number(li.dataset.index) === active;
      li.setAttribute("aria-selected", String(on));
      if (on) li.scrollIntoView({ block: "nearest" });
    }
    if (active >= 0) input.setAttribute("aria-activedescendant", `${id}-option-${active}`);
    else input.removeAttribute("aria-activedescendant");
  }

  function choose(i: number) {
    if (slash) {
      const cmd = slash[i];
      if (!cmd) return;
      input.value = `/${cmd.name} `;
      input.setSelectionRange(input.value.length, input.value.length);
      closeCompletion();
      updateButtons();
      input.focus();
      return;
    }
    const c = options[i];
    if (!c || !token) return;
    const { text, caret } = removeToken(input.value, token);
    input.value = text;
    input.setSelectionRange(caret, caret);
    if (c.title) titles.set(`${c.kind}:${c.path}`, c.title);
    setMentions(addMention(mentions, { kind: c.kind, path: c.path }));
    closeCompletion();
    updateButtons();
    input.focus();
  }

  completions.addEventListener("mousedown", (e) => e.preventDefault()); // keep focus in the box
  completions.addEventListener("click", (e) => {
    const li = (e.target as HTMLElement).closest<HTMLElement>("[data-index]");
    if (li) choose(Number(li.dataset.index));
  });

  // --- chips and preview ---------------------------------------------------

  function setMentions(next: Mention[]) {
    mentions = next;
    chips.replaceChildren(
      ...mentions.map((m) => {
        const label = mentionLabel(m, titles.get(`${m.kind}:${m.path}`) ?? (m.kind === "paper" ? deps.titleOfRef(m.path) : ""));
        return h(
          "li",
          { class: "chip", "data-kind": m.kind, "data-path": m.path, "data-testid": "mention-chip", title: `${kindWord(m.kind)}: ${m.path}` },
          h("span", { class: "chip-kind" }, kindWord(m.kind)),
          h("span", { class: "chip-label" }, label),
          h(
            "button",
            {
              type: "button",
              class: "chip-remove",
              "aria-label": `Remove ${label}`,
              onClick: () => {
                setMentions(removeMention(mentions, m));
                input.focus();
              },
            },
            "×",
          ),
        );
      }),
    );
    chips.hidden = mentions.length === 0;
    refreshPreview();
  }

  function refreshPreview() {
    clearTimeout(previewTimer);
    if (!enabled) return;
    const mine = ++previewSeq;
    previewTimer = setTimeout(async () => {
      try {
        const plan = await deps.preview(mentions);
        if (mine !== previewSeq || !enabled) return;
        const p = planPreview(plan, deps.titleOfRef);
        setPreview(p.line, p.more);
        preview.classList.toggle("prompt-only", plan.mode !== "mcp" || plan.allowed.length === 0);
        preview.dataset.mode = plan.mode;
        preview.dataset.allowed = plan.allowed.map((a) => a.ref).join(" ");
        if (plan.refused.length > 0) {
          setNotice(plan.refused.map((r) => `Can’t grant ${r.path}: ${r.reason}`).join(" · "));
        }
      } catch (err) {
        if (mine !== previewSeq) return;
        setPreview(`Couldn’t work out what this turn may read: ${errorText(err)}`);
        preview.classList.add("prompt-only");
        delete preview.dataset.mode;
      }
    }, PreviewDebounceMs);
  }

  // --- sending -------------------------------------------------------------

  // resolveTyped turns mentions typed out in full ("@papers/raft") into chips;
  // it returns the ones that match nothing.
  async function resolveTyped(question: string): Promise<string[]> {
    const unknown: string[] = [];
    let next = mentions;
    for (const lit of literalMentions(question)) {
      if (next.some((m) => m.path === lit.path || (m.kind === "vault" && lit.path.toLowerCase() === "vault"))) continue;
      const found = await deps.complete(lit.path, CompleteLimit);
      const exact = found.find((c) => c.path === lit.path);
      if (exact) next = addMention(next, { kind: exact.kind, path: exact.path });
      else if (lit.path.toLowerCase() === "vault") next = addMention(next, VaultMention);
      else unknown.push(lit.path);
    }
    if (next !== mentions) setMentions(next);
    return unknown;
  }

  async function submit() {
    const question = input.value.trim();
    if (!question || running || sending || !enabled) return;
    closeCompletion();
    sending = true;
    updateButtons();
    try {
      if (deps.runCommand && deps.commands && question.startsWith("/")) {
        if (known.length === 0) known = await deps.commands();
        const name = builtinCommand(question, known);
        if (name) {
          setNotice("");
          const said = await deps.runCommand(name);
          input.value = "";
          autosize();
          status.textContent = said;
          status.hidden = false;
          return;
        }
      }
      status.hidden = true;
      const unknown = await resolveTyped(question);
      if (unknown.length > 0) {
        setNotice(`${unknown.map((u) => `“@${u}”`).join(", ")} isn’t a paper, folder or file in this vault. Pick one from the @ list, or remove the @.`);
        return;
      }
      setNotice("");
      if (await deps.send(question, mentions)) {
        input.value = "";
        autosize();
        // @vault is for one turn: its chip goes with the question.
        if (mentions.some((m) => m.kind === "vault")) setMentions(mentions.filter((m) => m.kind !== "vault"));
      }
    } catch (err) {
      setNotice(errorText(err));
    } finally {
      sending = false;
      updateButtons();
    }
  }

  function autosize() {
    input.style.height = "auto";
    input.style.height = `${Math.min(input.scrollHeight + 2, 180)}px`;
  }

  input.addEventListener("input", onInput);
  input.addEventListener("click", onInput);
  input.addEventListener("blur", () => setTimeout(() => document.activeElement !== input && closeCompletion(), 150));
  input.addEventListener("keydown", (e) => {
    if (!completions.hidden && options.length > 0) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        active = (active + (e.key === "ArrowDown" ? 1 : -1) + options.length) % options.length;
        markActive();
        return;
      }
      // A command typed in full runs on Enter; nothing is left to complete.
      if (e.key === "Enter" && slash && typedInFull(input.value, slash)) {
        e.preventDefault();
        closeCompletion();
        void submit();
        return;
      }
      if (e.key === "Enter" || e.key === "Tab") {
        e.preventDefault();
        choose(Math.max(0, active));
        return;
      }
    }
    if (e.key === "Escape" && !completions.hidden) {
      e.preventDefault();
      e.stopPropagation();
      closeCompletion();
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void submit();
    }
  });
  send.addEventListener("click", () => void submit());
  cancel.addEventListener("click", () => deps.cancel());
  chips.hidden = true;
  updateButtons();

  return {
    el,
    focus() {
      input.focus();
    },
    setRunning(on, cancelling) {
      running = on;
      cancel.disabled = cancelling;
      cancel.textContent = cancelling ? "Cancelling…" : "Cancel";
      updateButtons();
    },
    setEnabled(on, reason = "") {
      if (on === enabled && reason === disabledReason) return;
      enabled = on;
      disabledReason = reason;
      input.disabled = !on;
      if (!on) {
        previewSeq++;
        setPreview(reason);
        preview.classList.remove("prompt-only");
        delete preview.dataset.mode;
      } else {
        refreshPreview();
      }
      updateButtons();
    },
    refreshPreview,
    setNotice,
    clearMentions() {
      setNotice("");
      if (mentions.length > 0) setMentions([]);
    },
  };
}
