import { describe, expect, it } from "vitest";
import { abstractNote, changed, formOf, sourceNote, validate, valuesOf, type Form } from "./editor";

const empty = { title: "", authors: [], year: 0, doi: "", arxivId: "", tags: [] };
const shown = { title: "Attention Is All You Need", authors: ["Ashish Vaswani", "Noam Shazeer"], year: 2017, doi: "", arxivId: "1706.03762" };

describe("formOf", () => {
  it("shows what the library shows when metadata.json is empty", () => {
    const f = formOf(empty, shown);
    expect(f).toEqual({ title: "Attention Is All You Need", authors: "Ashish Vaswani\nNoam Shazeer", year: "2017", doi: "", arxiv_id: "1706.03762", tags: "" });
  });
  it("prefers metadata.json's values", () => {
    const f = formOf({ ...empty, title: "Attention", tags: ["nlp", "transformers"] }, shown);
    expect(f.title).toBe("Attention");
    expect(f.tags).toBe("nlp, transformers");
  });
});

describe("changed", () => {
  const initial = formOf(empty, shown);
  it("is empty for an untouched form and for spacing only", () => {
    expect(changed(initial, { ...initial })).toEqual([]);
    expect(changed(initial, { ...initial, title: "  Attention  Is All You Need ", authors: "Ashish Vaswani\n\n Noam Shazeer\n" })).toEqual([]);
  });
  it("names the fields the user changed", () => {
    expect(changed(initial, { ...initial, year: "2018", tags: "nlp" })).toEqual(["year", "tags"]);
  });
});

describe("valuesOf", () => {
  it("splits authors by line and tags by comma, and strips resolver prefixes", () => {
    const f: Form = { title: " T ", authors: "A. One\n B. Two \n", year: "2020", doi: "https://doi.org/10.1145/1.2", arxiv_id: "arXiv:1706.03762v5", tags: "a, b,,c" };
    expect(valuesOf(f)).toEqual({ title: "T", authors: ["A. One", "B. Two"], year: 2020, doi: "10.1145/1.2", arxivId: "1706.03762v5", tags: ["a", "b", "c"], abstract: "" });
  });
  it("an empty year is none", () => {
    expect(valuesOf({ ...formOf(empty, shown), year: "" }).year).toBe(0);
  });
});

describe("validate", () => {
  const ok = formOf(empty, shown);
  it("accepts good values", () => {
    expect(validate({ ...ok, doi: "10.48550/arXiv.1706.03762" })).toEqual({});
  });
  it("says in sentences what is wrong", () => {
    const p = validate({ ...ok, year: "17", doi: "doi.org/abc", arxiv_id: "attention" }, undefined, 2026);
    expect(p.year).toBe("The year must be four digits, such as 2017.");
    expect(p.doi).toMatch(/^A DOI looks like 10\./);
    expect(p.arxiv_id).toMatch(/^An arXiv id looks like 1706\.03762/);
    for (const m of Object.values(p)) expect(m).toMatch(/^[A-Z].*\.$/);
  });
  it("refuses a year in the future", () => {
    expect(validate({ ...ok, year: "2990" }, ["year"], 2026).year).toBe("The year 2990 is in the future.");
  });
  it("checks only the fields asked", () => {
    expect(validate({ ...ok, year: "x" }, ["title"])).toEqual({});
  });
});

describe("sourceNote", () => {
  it("says whose a value is", () => {
    expect(sourceNote("title", ["title"], { title: "user" }, true)).toMatch(/Set by you/);
    expect(sourceNote("doi", [], { doi: "crossref" }, true)).toBe("From Crossref.");
    expect(sourceNote("year", [], {}, false)).toBe("Read from the PDF.");
  });
});

describe("abstractNote", () => {
  it("says whose the abstract is", () => {
    expect(abstractNote("We present.", "", {})).toBe("Read from the PDF's first pages.");
    expect(abstractNote("We present.", "We present.", {})).toBe("From metadata.json.");
    expect(abstractNote("We present.", "We present.", { abstract: "crossref" })).toBe("From Crossref.");
    expect(abstractNote("We present.", "We present.", { abstract: "zotero" })).toBe("From zotero.");
    expect(abstractNote("", "", {})).toMatch(/no abstract/);
  });
});
