// The metadata editor: a dialog to correct a paper's title, authors, year,
// DOI, arXiv id and tags, saved to its metadata.json as the user's own.
// Keyboard: Tab moves through the fields, Enter in a one-line field saves,
// Escape cancels (nothing is written).

import { errorText, type MetadataDetails, type MetadataValues, type PaperSummary } from "../lib/backend";
import { h } from "../lib/dom";
import { abstractNote, changed, fields, formOf, labels, sourceNote, validate, valuesOf, type Field, type Form } from "./editor";
import "./metadata.css";

export interface MetadataEditorDeps {
  load(ref: string): Promise<MetadataDetails>;
  save(ref: string, values: MetadataValues, fields: string[]): Promise<PaperSummary>;
  /** saved is told the paper as the library shows it after the save. */
  saved(paper: PaperSummary): void;
}

export interface MetadataEditor {
  open(paper: PaperSummary): void;
  isOpen(): boolean;
}

const hints: Record<Field, string> = {
  title: "",
  authors: "One author on each line, in the paper's order.",
  year: "Four digits.",
  doi: "Such as 10.1145/3132747.3132765.",
  arxiv_id: "Such as 1706.03762.",
  tags: "Separated by commas.",
};

export function mountMetadataEditor(host: HTMLElement, deps: MetadataEditorDeps): MetadataEditor {
  const heading = h("h2", { id: "metadata-editor-title" }, "Edit details");
  const status = h("p", { class: "metadata-status", role: "status", "data-testid": "metadata-status" });
  const inputs = {} as Record<Field, HTMLInputElement | HTMLTextAreaElement>;
  const errors = {} as Record<Field, HTMLElement>;
  const notes = {} as Record<Field, HTMLElement>;
  const rows = fields.map((f) => {
    const id = `metadata-${f}`;
    const input =
      f === "authors"
        ? h("textarea", { id, name: f, rows: 4, "data-testid": id })
        : h("input", { id, name: f, type: "text", "data-testid": id, inputMode: f === "year" ? "numeric" : undefined });
    inputs[f] = input;
    errors[f] = h("p", { id: `${id}-error`, class: "metadata-error", "data-testid": `${id}-error` });
    notes[f] = h("p", { id: `${id}-note`, class: "metadata-note" });
    input.setAttribute("aria-describedby", `${id}-note ${id}-error`);
    return h(
      "div",
      { class: "metadata-row" },
      h("label", { htmlFor: id }, labels[f]),
      input,
      hints[f] ? h("p", { class: "metadata-hint" }, hints[f]) : null,
      notes[f],
      errors[f],
    );
  });
  // The abstract is shown, not edited: metadata.json's (an import's, an online lookup's) or the one read
  // from the PDF's first pages.
  const abstractText = h("p", { id: "metadata-abstract", class: "metadata-abstract", "data-testid": "metadata-abstract" });
  const abstractSource = h("p", { id: "metadata-abstract-note", class: "metadata-note", "data-testid": "metadata-abstract-note" });
  const abstractRow = h(
    "section",
    { class: "metadata-row", "aria-labelledby": "metadata-abstract-label" },
    h("h3", { id: "metadata-abstract-label", class: "metadata-abstract-label" }, "Abstract"),
    abstractText,
    abstractSource,
  );
  const save = h("button", { type: "submit", class: "primary", "data-testid": "metadata-save" }, "Save");
  const cancel = h("button", { type: "button", "data-testid": "metadata-cancel", onClick: () => dialog.close() }, "Cancel");
  const form = h(
    "form",
    { method: "dialog", class: "metadata-form", novalidate: true },
    ...rows,
    abstractRow,
    status,
    h("div", { class: "metadata-actions" }, cancel, save),
  );
  const dialog = h(
    "dialog",
    { class: "metadata-editor", "aria-labelledby": "metadata-editor-title", "data-testid": "metadata-editor" },
    h(
      "header",
      { class: "chat-header" },
      heading,
      h("button", { type: "button", class: "icon quiet", "aria-label": "Cancel (Esc)", title: "Cancel (Esc)", onClick: () => dialog.close() }, "×"),
    ),
    h("p", { class: "metadata-intro" }, "Saved to the paper's metadata.json. What you change here is yours: imports and online lookups never overwrite it."),
    form,
  );
  host.append(dialog);

  let paper: PaperSummary | null = null;
  let initial: Form | null = null;
  let busy = false;
  let seq = 0;

  const current = (): Form => {
    const out = {} as Form;
    for (const f of fields) out[f] = inputs[f].value;
    return out;
  };

  function showProblems(which: readonly Field[]): boolean {
    const problems = validate(current(), which);
    let first: Field | null = null;
    for (const f of fields) {
      const msg = problems[f] ?? "";
      errors[f].textContent = msg;
      inputs[f].setAttribute("aria-invalid", String(msg !== ""));
      if (msg && first === null) first = f;
    }
    if (first) inputs[first].focus();
    return first === null;
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void submit();
  });
  for (const f of fields) {
    inputs[f].addEventListener("input", () => {
      if (errors[f].textContent) {
        const msg = validate(current(), [f])[f] ?? "";
        errors[f].textContent = msg;
        inputs[f].setAttribute("aria-invalid", String(msg !== ""));
      }
    });
  }

  async function submit() {
    if (!paper || !initial || busy) return;
    const which = changed(initial, current());
    if (which.length === 0) {
      dialog.close();
      return;
    }
    if (!showProblems(which)) {
      status.textContent = "Some fields need fixing before saving.";
      status.className = "metadata-status error";
      return;
    }
    busy = true;
    save.disabled = true;
    status.textContent = "Saving…";
    status.className = "metadata-status busy";
    try {
      const updated = await deps.save(paper.ref, valuesOf(current()), [...which]);
      status.textContent = "";
      dialog.close();
      deps.saved(updated);
    } catch (err) {
      status.textContent = `Couldn’t save: ${errorText(err)}`;
      status.className = "metadata-status error";
    } finally {
      busy = false;
      save.disabled = false;
    }
  }

  function fill(d: MetadataDetails, p: PaperSummary) {
    const form = formOf(d.values, { title: p.title, authors: p.authors, year: p.year, doi: p.doi, arxivId: p.arxivId });
    initial = form;
    for (const f of fields) {
      inputs[f].value = form[f];
      errors[f].textContent = "";
      inputs[f].removeAttribute("aria-invalid");
      notes[f].textContent = form[f] ? sourceNote(f, d.edited, d.source, d.exists && d.values !== undefined && hasValue(d.values, f)) : "";
    }
    abstractText.textContent = p.abstract;
    abstractSource.textContent = abstractNote(p.abstract, d.values?.abstract ?? "", d.source);
  }

  return {
    open(p) {
      paper = p;
      initial = null;
      const mine = ++seq;
      heading.textContent = `Edit details: ${p.title || p.ref}`;
      abstractText.textContent = p.abstract;
      abstractSource.textContent = "";
      status.textContent = "Reading metadata.json…";
      status.className = "metadata-status busy";
      for (const f of fields) inputs[f].disabled = true;
      save.disabled = true;
      if (!dialog.open) dialog.showModal();
      deps.load(p.ref).then(
        (d) => {
          if (mine !== seq) return;
          fill(d, p);
          status.textContent = "";
          status.className = "metadata-status";
          for (const f of fields) inputs[f].disabled = false;
          save.disabled = false;
          inputs.title.focus();
        },
        (err) => {
          if (mine !== seq) return;
          status.textContent = `Couldn’t read this paper's metadata: ${errorText(err)}`;
          status.className = "metadata-status error";
          cancel.focus();
        },
      );
    },
    isOpen: () => dialog.open,
  };
}

function hasValue(v: MetadataValues, f: Field): boolean {
  switch (f) {
    case "title":
      return v.title !== "";
    case "authors":
      return v.authors.length > 0;
    case "year":
      return v.year !== 0;
    case "doi":
      return v.doi !== "";
    case "arxiv_id":
      return v.arxivId !== "";
    case "tags":
      return v.tags.length > 0;
  }
}
