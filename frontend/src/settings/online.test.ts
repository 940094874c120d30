import { describe, expect, it } from "vitest";
import { emailProblem, reportProblems, reportSummary } from "./online";

const base = { running: false, started: "", finished: "2026-12-01T10:00:00Z", papers: 0, updated: 0, failed: 0, reports: [] };

describe("emailProblem", () => {
  it("accepts nothing or one address", () => {
    expect(emailProblem("")).toBe("");
    expect(emailProblem(" me@example.org ")).toBe("");
  });
  it("says what is wrong in a sentence", () => {
    for (const bad of ["me", "@example.org", "me@", "a b@example.org", "a@b.org, c@d.org"]) {
      expect(emailProblem(bad)).toBe("The contact email must be one address, such as name@example.org.");
    }
  });
});

describe("report", () => {
  it("summarises a lookup", () => {
    expect(reportSummary({ ...base })).toBe("No lookup has run since the vault was opened.");
    expect(reportSummary({ ...base, papers: 3, updated: 2, failed: 1 })).toBe("Looked up 3 papers: 2 updated, 1 failed.");
    expect(reportSummary({ ...base, running: true, papers: 1 })).toBe("Looking up… 1 papers so far.");
  });
  it("lists what failed", () => {
    const r = { ...base, papers: 2, failed: 1, reports: [
      { ref: "papers/a", source: "crossref", id: "10.1/x", wrote: [], error: "Crossref did not answer within 10s" },
      { ref: "papers/b", source: "arxiv", id: "1706.03762", wrote: ["title"], error: "" },
    ] };
    expect(reportProblems(r)).toEqual(["papers/a (10.1/x): Crossref did not answer within 10s."]);
  });
});
