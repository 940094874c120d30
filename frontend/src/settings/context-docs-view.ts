// Settings → Context documents (SPEC §8.2): the Markdown files under the
// vault's .agentero/context/ that agents are given. The user writes them
// here (agents never can): a list with each document's trigger, priority
// and description, the files that could not be used and why, and an editor
// for the whole file, front matter included. The backend checks the front
// matter on save; its refusal is shown next to the editor and nothing is
// written. A saved change applies to new conversations only: running ones
// keep the base context frozen when their session started.

import { errorText, type ContextDoc, type ContextDocList } from "../lib/backend";
import { h } from "../lib/dom";
import { contextDocTemplate, docIdProblem, normalizeDocId, sizeText, sortDocs, triggerLabel } from "./context-docs";

export interface ContextDocsDeps {
  contextDocs(): Promise<ContextDocList>;
  contextDocSource(id: string): Promise<string>;
  saveContextDoc(id: string, content: string): Promise<void>;
  deleteContextDoc(id: string): Promise<void>;
}

export interface ContextDocsSection {
  el: HTMLElement;
  /** load re-reads the list; an editor with unsaved changes is kept as it is. */
  load(): Promise<void>;
}

export function createContextDocsSection(deps: ContextDocsDeps): ContextDocsSection {
  let docs: ContextDoc[] = [];
  /** The document in the editor: its id, or null for a new one; undefined when the editor is closed. */
  let editing: string | null | undefined = undefined;
  /** The text last loaded or saved, to tell unsaved changes. */
  let savedText = "";

  const list = h("ul", { class: "context-doc-list", "aria-label": "Context documents", "data-testid": "context-doc-list" });
  const empty = h("p", { class: "detail", "data-testid": "context-doc-empty", hidden: true }, "No context documents yet.");
  const problems = h("div", { class: "context-doc-problems", "data-testid": "context-doc-problems", hidden: true });
  const listError = h("p", { class: "context-doc-error", role: "alert", hidden: true });
  const newButton = h("button", { type: "button", "data-testid": "context-doc-new" }, "New document…");

  const title = h("h4", { id: "context-doc-editor-title" });
  const idInput = h("input", {
    id: "context-doc-id",
    type: "text",
    placeholder: "citing.md",
    spellcheck: false,
    autocomplete: "off",
    "aria-describedby": "context-doc-id-help",
    "data-testid": "context-doc-id",
  });
  const idRow = h(
    "div",
    { class: "context-doc-id-row" },
    h("label", { for: "context-doc-id" }, "Document path"),
    idInput,
    h("span", { id: "context-doc-id-help", class: "detail" }, "Inside .agentero/context/; folders with /. “.md” is added when missing."),
  );
  const source = h("textarea", {
    id: "context-doc-source",
    class: "context-doc-source",
    rows: 14,
    spellcheck: false,
    "aria-label": "Document (front matter and Markdown)",
    "aria-describedby": "context-doc-note context-doc-error",
    "data-testid": "context-doc-source",
  });
  const error = h("p", { id: "context-doc-error", class: "context-doc-error", role: "alert", hidden: true, "data-testid": "context-doc-error" });
  const message = h("p", { class: "context-doc-message", role: "status", "data-testid": "context-doc-message" });
  const save = h("button", { type: "button", class: "primary", "data-testid": "context-doc-save" }, "Save");
  const remove = h("button", { type: "button", class: "danger", "data-testid": "context-doc-delete" }, "Delete");
  const close = h("button", { type: "button", "data-testid": "context-doc-close" }, "Close");
  const editor = h(
    "div",
    { class: "context-doc-editor", role: "group", "aria-labelledby": "context-doc-editor-title", hidden: true, "data-testid": "context-doc-editor" },
    title,
    idRow,
    source,
    h(
      "p",
      { id: "context-doc-note", class: "detail", "data-testid": "context-doc-note" },
      "Front matter: description, trigger (always_on, model_decision or manual), priority (critical, high, normal or low). Ctrl+S saves. Changes apply to new conversations; running ones keep the snapshot they started with.",
    ),
    error,
    h("div", { class: "form-actions" }, message, close, remove, save),
  );

  const el = h(
    "section",
    { class: "context-docs", "aria-labelledby": "context-docs-title", "data-testid": "context-docs" },
    h("h3", { id: "context-docs-title" }, "Context documents"),
    h(
      "p",
      { class: "detail" },
      "Markdown files in the vault’s .agentero/context/ folder that agents are given: always on ones in every new conversation, agent decides ones listed by their description for the agent to read when relevant, manual ones only when asked for.",
    ),
    list,
    empty,
    problems,
    listError,
    newButton,
    editor,
  );

  function showError(text: string) {
    error.textContent = text;
    error.hidden = text === "";
    source.setAttribute("aria-invalid", String(text !== ""));
  }

  function setMessage(text: string) {
    message.textContent = text;
  }

  function dirty(): boolean {
    return editing !== undefined && source.value !== savedText;
  }

  function confirmDiscard(): boolean {
    return !dirty() || confirm(`Discard the unsaved changes to ${editing ?? "the new document"}?`);
  }

  function render(l: ContextDocList) {
    docs = sortDocs(l.docs);
    list.replaceChildren(
      ...docs.map((d) =>
        h(
          "li",
          { class: "context-doc", "data-testid": "context-doc-row", "data-id": d.id },
          h(
            "button",
            {
              type: "button",
              class: "context-doc-open",
              "aria-current": d.id === editing ? "true" : undefined,
              "aria-label": `Edit ${d.id}: ${triggerLabel(d.trigger)}, ${d.priority} priority`,
              onClick: () => void open(d.id),
            },
            h(
              "span",
              { class: "context-doc-head" },
              h("code", { class: "context-doc-id" }, d.id),
              h("span", { class: `badge trigger-${d.trigger}`, "data-testid": "context-doc-trigger" }, triggerLabel(d.trigger)),
              h("span", { class: "badge badge-ok", "data-testid": "context-doc-priority" }, d.priority),
              d.preload ? h("span", { class: "badge badge-ok", title: "Named by preloadPaths in the context rules" }, "preloaded") : null,
              d.forbidden ? h("span", { class: "badge badge-warn", title: "Named by forbiddenLoad in the context rules: never given to agents" }, "forbidden") : null,
              h("span", { class: "context-doc-size" }, sizeText(d.bytes)),
            ),
            h("span", { class: "context-doc-description", "data-testid": "context-doc-description" }, d.description || "No description"),
          ),
        ),
      ),
    );
    empty.hidden = docs.length > 0;
    problems.hidden = l.problems.length === 0;
    problems.replaceChildren(
      h("h4", {}, l.problems.length === 1 ? "A file could not be used" : `${l.problems.length} files could not be used`),
      h(
        "ul",
        {},
        ...l.problems.map((p) =>
          h("li", { "data-testid": "context-doc-problem", "data-path": p.path }, h("code", {}, p.path), ": ", p.problem),
        ),
      ),
    );
  }

  async function reload() {
    try {
      render(await deps.contextDocs());
      listError.hidden = true;
    } catch (err) {
      listError.textContent = `Couldn’t read the context documents: ${errorText(err)}`;
      listError.hidden = false;
    }
  }

  /** setMode shows whether the editor holds a new document (with its file-name field) or the saved document id. */
  function setMode(id: string | null) {
    editing = id;
    idRow.hidden = id !== null;
    remove.hidden = id === null;
    title.textContent = id === null ? "New context document" : `Edit ${id}`;
    for (const b of list.querySelectorAll<HTMLButtonElement>(".context-doc-open")) {
      const rowId = b.closest<HTMLElement>("[data-id]")?.dataset.id;
      if (rowId === id) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    }
  }

  function showEditor(id: string | null, text: string) {
    setMode(id);
    savedText = text;
    source.value = text;
    idInput.value = "";
    idInput.removeAttribute("aria-invalid");
    showError("");
    setMessage("");
    editor.hidden = false;
  }

  async function open(id: string) {
    if (id === editing && !editor.hidden) {
      source.focus();
      return;
    }
    if (!confirmDiscard()) return;
    try {
      const text = await deps.contextDocSource(id);
      showEditor(id, text);
      source.focus();
      source.setSelectionRange(0, 0);
      source.scrollTop = 0;
    } catch (err) {
      listError.textContent = `Couldn’t open ${id}: ${errorText(err)}`;
      listError.hidden = false;
    }
  }

  function startNew() {
    if (!confirmDiscard()) return;
    showEditor(null, contextDocTemplate);
    idInput.focus();
  }

  function closeEditor() {
    if (!confirmDiscard()) return;
    editing = undefined;
    editor.hidden = true;
    for (const b of list.querySelectorAll(".context-doc-open")) b.removeAttribute("aria-current");
    newButton.focus();
  }

  async function doSave() {
    if (editing === undefined) return;
    let id = editing;
    if (id === null) {
      id = normalizeDocId(idInput.value);
      const problem = docIdProblem(
        id,
        docs.map((d) => d.id),
      );
      if (problem) {
        showError(problem);
        idInput.setAttribute("aria-invalid", "true");
        idInput.focus();
        return;
      }
    }
    idInput.removeAttribute("aria-invalid");
    const text = source.value;
    save.disabled = true;
    setMessage("Saving…");
    try {
      await deps.saveContextDoc(id, text);
      const created = editing === null;
      savedText = text;
      showError("");
      setMode(id);
      await reload();
      setMode(id);
      setMessage(`Saved ${id}${created ? " (new)" : ""}. New conversations get it; running ones keep their snapshot.`);
    } catch (err) {
      setMessage("");
      showError(`Not saved: ${errorText(err)}`);
      source.focus();
    } finally {
      save.disabled = false;
    }
  }

  async function doDelete() {
    if (!editing) return;
    const id = editing;
    if (!confirm(`Delete the context document ${id}? New conversations will no longer get it.`)) return;
    try {
      await deps.deleteContextDoc(id);
      editing = undefined;
      editor.hidden = true;
      await reload();
      listError.hidden = true;
      newButton.focus();
      setMessage("");
    } catch (err) {
      showError(`Couldn’t delete ${id}: ${errorText(err)}`);
    }
  }

  const saveKey = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "s") {
      e.preventDefault();
      e.stopPropagation();
      void doSave();
    }
  };
  source.addEventListener("keydown", saveKey);
  idInput.addEventListener("keydown", saveKey);
  idInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      source.focus();
    }
  });
  source.addEventListener("input", () => setMessage(dirty() ? "Not saved yet." : ""));
  idInput.addEventListener("input", () => {
    idInput.removeAttribute("aria-invalid");
    if (!error.hidden) showError("");
  });
  newButton.addEventListener("click", startNew);
  save.addEventListener("click", () => void doSave());
  remove.addEventListener("click", () => void doDelete());
  close.addEventListener("click", closeEditor);

  return {
    el,
    async load() {
      listError.hidden = true;
      await reload();
      // A document open without changes is re-read: the file may have changed on disk.
      if (typeof editing === "string" && !dirty()) {
        try {
          const text = await deps.contextDocSource(editing);
          if (!dirty()) {
            savedText = text;
            source.value = text;
          }
        } catch {
          editing = undefined;
          editor.hidden = true;
        }
      }
    },
  };
}
