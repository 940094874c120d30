// Export buttons: under a finished answer, "Copy as Markdown" (its sources
// as agentero:// links, with doi.org / arxiv.org links and a reference
// list), "BibTeX" and "CSL-JSON" (its cited papers, saved where the user
// says); in a conversation's header, "Export" (the whole conversation as
// Markdown). Each says what happened next to it.

import "./export.css";
import { h } from "../lib/dom";

export type ExportFormat = "markdown" | "bibtex" | "csl-json";

export interface Exporter {
  /** copyAnswer puts an answer, as Markdown, on the clipboard. */
  copyAnswer(conversationId: string, messageId: string): Promise<void>;
  /** save asks where to save and writes; resolves to the file ("" when cancelled). messageId "" = the whole conversation. */
  save(conversationId: string, messageId: string, format: ExportFormat): Promise<string>;
  /** errorText is a failed call's message. */
  errorText(err: unknown): string;
}

/** StatusMs is how long "Copied" or "Saved to …" stays. */
const StatusMs = 6000;

function statusLine(): { el: HTMLElement; show(text: string, error?: boolean): void } {
  const el = h("span", { class: "export-status", role: "status", "data-testid": "export-status" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    el,
    show(text, error = false) {
      el.textContent = text;
      el.classList.toggle("error", error);
      clearTimeout(timer);
      if (!error) timer = setTimeout(() => (el.textContent = ""), StatusMs);
    },
  };
}

/** answerExports is the row of export buttons under an answer. */
export function answerExports(conversationId: string, messageId: string, hasPapers: boolean, exporter: Exporter): HTMLElement {
  const status = statusLine();
  const run = (work: () => Promise<string>) => async () => {
    try {
      const text = await work();
      if (text) status.show(text);
    } catch (err) {
      status.show(exporter.errorText(err), true);
    }
  };
  const copy = h(
    "button",
    {
      type: "button",
      class: "quiet",
      title: "Copy this answer as Markdown, its sources as agentero:// links",
      "data-testid": "copy-markdown",
      onClick: run(async () => {
        await exporter.copyAnswer(conversationId, messageId);
        return "Copied as Markdown.";
      }),
    },
    "Copy as Markdown",
  );
  const save = (format: ExportFormat, label: string, title: string) =>
    h(
      "button",
      {
        type: "button",
        class: "quiet",
        title,
        "data-testid": `export-${format}`,
        disabled: !hasPapers,
        onClick: run(async () => {
          const file = await exporter.save(conversationId, messageId, format);
          return file ? `Saved to ${file}.` : "";
        }),
      },
      label,
    );
  return h(
    "div",
    { class: "msg-exports", "data-testid": "answer-exports" },
    copy,
    save("bibtex", "BibTeX", hasPapers ? "Save the cited papers as BibTeX" : "No paper of the library is cited"),
    save("csl-json", "CSL-JSON", hasPapers ? "Save the cited papers as CSL-JSON" : "No paper of the library is cited"),
    status.el,
  );
}

/** conversationExport is the header's "Export" button: the whole conversation as Markdown. */
export function conversationExport(conversationId: () => string | null, exporter: Exporter): HTMLElement {
  const status = statusLine();
  const button = h(
    "button",
    {
      type: "button",
      class: "quiet",
      title: "Save this whole conversation as Markdown",
      "data-testid": "export-conversation",
      onClick: async () => {
        const id = conversationId();
        if (!id) return;
        try {
          const file = await exporter.save(id, "", "markdown");
          if (file) status.show(`Saved to ${file}.`);
        } catch (err) {
          status.show(exporter.errorText(err), true);
        }
      },
    },
    "Export",
  );
  return h("span", { class: "conversation-export" }, button, status.el);
}
