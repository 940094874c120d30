// The metadata editor's logic, apart from the DOM: the form a paper's
// metadata fills, what the user changed, and what is wrong with it, in
// sentences. The backend checks the same rules (backend/metadata) and marks
// the changed fields as the user's in metadata.json, so that importers and
// online lookups never overwrite them.

import type { MetadataValues, PaperSummary } from "../lib/backend";

/** Field is a metadata.json key the editor writes. */
export type Field = "title" | "authors" | "year" | "doi" | "arxiv_id" | "tags";

export const fields: readonly Field[] = ["title", "authors", "year", "doi", "arxiv_id", "tags"];

export const labels: Record<Field, string> = {
  title: "Title",
  authors: "Authors",
  year: "Year",
  doi: "DOI",
  arxiv_id: "arXiv id",
  tags: "Tags",
};

/** Form is what the editor's inputs hold: authors one per line, tags separated by commas. */
export type Form = Record<Field, string>;

/** Values is what SaveMetadata takes (the generated metadata.Values); abstract is not edited here (online lookups write it). */
export type Values = MetadataValues;

/** Shown is what the library shows of a paper (index.Paper), for the fields metadata.json leaves empty. */
export type Shown = Pick<PaperSummary, "title" | "authors" | "year" | "doi" | "arxivId">;

/** formOf fills the form: metadata.json's values, else what the library shows (derived from the PDF). */
export function formOf(saved: Omit<Values, "abstract">, shown: Shown): Form {
  const authors = saved.authors.length > 0 ? saved.authors : shown.authors;
  return {
    title: saved.title || shown.title,
    authors: authors.join("\n"),
    year: String(saved.year || shown.year || ""),
    doi: saved.doi || shown.doi,
    arxiv_id: saved.arxivId || shown.arxivId,
    tags: saved.tags.join(", "),
  };
}

function lines(s: string): string[] {
  return s
    .split("\n")
    .map((l) => l.trim().replace(/\s+/g, " "))
    .filter(Boolean);
}

function list(s: string): string[] {
  return s
    .split(/[,\n]/)
    .map((t) => t.trim().replace(/\s+/g, " "))
    .filter(Boolean);
}

/** normal is a field's value as it would be saved, to compare forms by. */
function normal(form: Form, f: Field): string {
  switch (f) {
    case "authors":
      return lines(form.authors).join("\n");
    case "tags":
      return list(form.tags).join(",");
    default:
      return form[f].trim().replace(/\s+/g, " ");
  }
}

/** changed lists the fields whose value differs from the form's first state. */
export function changed(initial: Form, form: Form): Field[] {
  return fields.filter((f) => normal(initial, f) !== normal(form, f));
}

/** valuesOf turns the form into what SaveMetadata takes. */
export function valuesOf(form: Form): Values {
  return {
    title: normal(form, "title"),
    authors: lines(form.authors),
    year: form.year.trim() === "" ? 0 : Number.parseInt(form.year.trim(), 10),
    doi: stripDoi(form.doi.trim()),
    arxivId: stripArxiv(form.arxiv_id.trim()),
    tags: list(form.tags),
    abstract: "",
  };
}

function stripDoi(s: string): string {
  return s.replace(/^(https?:\/\/)?(dx\.)?doi\.org\//i, "").replace(/^doi:\s*/i, "");
}

function stripArxiv(s: string): string {
  return s.replace(/^(https?:\/\/)?arxiv\.org\/(abs|pdf)\//i, "").replace(/^arxiv:\s*/i, "").replace(/\.pdf$/i, "");
}

/** Problems maps a field to what is wrong with it, as a sentence. */
export type Problems = Partial<Record<Field, string>>;

/** validate checks the fields the user changed (an untouched value read from the PDF is not theirs to fix). */
export function validate(form: Form, which: readonly Field[] = fields, thisYear = new Date().getFullYear()): Problems {
  const out: Problems = {};
  const v = valuesOf(form);
  for (const f of which) {
    switch (f) {
      case "title":
        if (v.title.length > 1000) out.title = "The title is longer than 1,000 characters.";
        break;
      case "authors":
        if (v.authors.some((a) => a.length > 300)) out.authors = "An author's name is longer than 300 characters. Put one author on each line.";
        break;
      case "year": {
        const y = form.year.trim();
        if (y !== "" && !/^\d{4}$/.test(y)) out.year = "The year must be four digits, such as 2017.";
        else if (y !== "" && v.year > thisYear + 1) out.year = `The year ${v.year} is in the future.`;
        break;
      }
      case "doi":
        if (v.doi !== "" && !/^10\.\d{4,9}\/\S+$/.test(v.doi)) {
          out.doi = "A DOI looks like 10.1145/3132747.3132765: “10.”, digits, a slash, then the item’s own part.";
        }
        break;
      case "arxiv_id":
        if (v.arxivId !== "" && !/^(\d{4}\.\d{4,5}|[a-z-]+(\.[a-z]{2})?\/\d{7})(v\d+)?$/i.test(v.arxivId)) {
          out.arxiv_id = "An arXiv id looks like 1706.03762 (or hep-th/9901001 for older papers).";
        }
        break;
      case "tags":
        if (list(form.tags).some((t) => t.length > 100)) out.tags = "A tag is at most 100 characters; separate tags with commas.";
        break;
    }
  }
  return out;
}

/** sourceNote says where a field's value came from, for the line under its input. */
export function sourceNote(field: Field, edited: readonly string[], source: Record<string, string>, inFile: boolean): string {
  if (edited.includes(field)) return "Set by you: imports and online lookups leave it alone.";
  switch (source[field]) {
    case "crossref":
      return "From Crossref.";
    case "arxiv":
      return "From arXiv.";
    case undefined:
    case "":
      return inFile ? "From metadata.json." : "Read from the PDF.";
    default:
      return `From ${source[field]}.`;
  }
}

/**
 * abstractNote says where the abstract Details shows came from: metadata.json's (the user's, an import's,
 * an online lookup's), which wins, or the one the index read from the PDF's first pages; "" when there is none.
 */
export function abstractNote(shown: string, saved: string, source: Record<string, string>): string {
  if (shown === "") return "The PDF's first pages print no abstract that could be read.";
  if (saved === "" || saved !== shown) return "Read from the PDF's first pages.";
  switch (source.abstract) {
    case "crossref":
      return "From Crossref.";
    case "arxiv":
      return "From arXiv.";
    case "pdf":
      return "Read from the PDF's first pages when the paper was added.";
    case undefined:
    case "":
      return "From metadata.json.";
    default:
      return `From ${source.abstract}.`;
  }
}
