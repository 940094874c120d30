import { describe, expect, it } from "vitest";
import type { ReadingBudget } from "../lib/backend";
import { budgetFields, budgetValues, readBudget, sameBudget, saveProblem } from "./budget";

const defaults: ReadingBudget = { searchCards: 8, cardsPerPaper: 3, excerptChars: 1500, fullChars: 40000, dirEntries: 200, turnChars: 200000 };

describe("reading budget form", () => {
  it("has one field per budget value, each explained", () => {
    expect(budgetFields.map((f) => f.key).sort()).toEqual(Object.keys(defaults).sort());
    for (const f of budgetFields) {
      expect(f.help.length).toBeGreaterThan(10);
      expect(f.max).toBeGreaterThan(defaults[f.key]);
    }
  });

  it("round-trips a budget through the form's text", () => {
    expect(readBudget(budgetValues(defaults))).toEqual({ budget: defaults, errors: {} });
  });

  it("reads thousands separators and spaces", () => {
    const got = readBudget({ ...budgetValues(defaults), fullChars: " 12,000 ", turnChars: "80 000" });
    expect(got.budget).toMatchObject({ fullChars: 12000, turnChars: 80000 });
  });

  const bad: [string, string, RegExp][] = [
    ["zero", "0", /Full read characters must be a whole number from 1 to 200,000, not 0\./],
    ["negative", "-5", /not -5/],
    ["over the limit", "200001", /from 1 to 200,000, not 200,001/],
    ["a fraction", "1.5", /must be a whole number/],
    ["not a number", "lots", /must be a whole number/],
    ["empty", "", /Full read characters: enter a whole number/],
  ];
  for (const [name, value, want] of bad) {
    it(`refuses ${name}`, () => {
      const got = readBudget({ ...budgetValues(defaults), fullChars: value });
      expect(got.budget).toBeNull();
      expect(Object.keys(got.errors)).toEqual(["fullChars"]);
      expect(got.errors.fullChars).toMatch(want);
    });
  }

  it("the limits match the backend's (grant.Limits)", () => {
    expect(Object.fromEntries(budgetFields.map((f) => [f.key, f.max]))).toEqual({
      searchCards: 50,
      cardsPerPaper: 50,
      excerptChars: 20000,
      fullChars: 200000,
      dirEntries: 5000,
      turnChars: 1000000,
    });
  });

  it("reports every bad field at once", () => {
    const got = readBudget({ ...budgetValues(defaults), searchCards: "0", dirEntries: "x" });
    expect(Object.keys(got.errors).sort()).toEqual(["dirEntries", "searchCards"]);
  });

  it("sameBudget compares values", () => {
    expect(sameBudget(defaults, { ...defaults })).toBe(true);
    expect(sameBudget(defaults, { ...defaults, fullChars: 8000 })).toBe(false);
  });

  it("names the field the backend refused by its label", () => {
    expect(saveProblem("budget fullChars must be between 1 and 200000, not 0")).toEqual({
      key: "fullChars",
      text: "Full read characters must be between 1 and 200000, not 0",
    });
    expect(saveProblem("budget cardsPerPaper must be between 1 and 50, not 99").key).toBe("cardsPerPaper");
    expect(saveProblem("permission denied")).toEqual({ key: null, text: "permission denied" });
  });
});
