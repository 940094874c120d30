// The reading budget in a form: one number per cap the agentero-context
// tools respect in a turn (SPEC §3). The limits mirror grant.Limits in
// backend/context/grant/grant.go, so a value the backend would refuse is
// caught before it is sent; SaveSettings checks again.

import type { ReadingBudget } from "../lib/backend";

export type BudgetKey = keyof ReadingBudget;

export interface BudgetField {
  key: BudgetKey;
  label: string;
  /** One line: what the agent's tools may return, per call or per turn. */
  help: string;
  /** The largest value the backend accepts (the smallest is 1). */
  max: number;
}

export const budgetFields: readonly BudgetField[] = [
  { key: "searchCards", label: "Search results", help: "Cards one search may return.", max: 50 },
  { key: "cardsPerPaper", label: "Results per paper", help: "Of those, at most this many from one paper or file.", max: 50 },
  { key: "excerptChars", label: "Excerpt characters", help: "Length of a search snippet or of the excerpt around a quote.", max: 20_000 },
  { key: "fullChars", label: "Full read characters", help: "Length of one read of a page, section, file or whole paper (a longer one continues in the next read). Past about 45,000 one result may pass the 25,000-token limit some agents put on a tool result.", max: 200_000 },
  { key: "dirEntries", label: "Folder listing entries", help: "Names one listing of a mentioned folder may return.", max: 5_000 },
  { key: "turnChars", label: "Turn total characters", help: "Everything the tools may return in one turn, counted afresh each turn (200,000 is three whole papers of typical length); then the agent answers with what it read.", max: 1_000_000 },
];

export type BudgetValues = Record<BudgetKey, string>;

export type BudgetErrors = Partial<Record<BudgetKey, string>>;

/** budgetValues is a budget as the form's text. */
export function budgetValues(b: ReadingBudget): BudgetValues {
  const out = {} as BudgetValues;
  for (const f of budgetFields) out[f.key] = String(b[f.key]);
  return out;
}

/**
 * readBudget checks the form: every value a whole number from 1 to its
 * limit ("20,000" and "20 000" are read as 20000). It returns the budget,
 * or null and what is wrong with each field.
 */
export function readBudget(values: BudgetValues): { budget: ReadingBudget | null; errors: BudgetErrors } {
  const budget = {} as ReadingBudget;
  const errors: BudgetErrors = {};
  for (const f of budgetFields) {
    const text = (values[f.key] ?? "").trim().replace(/[,\s_]/g, "");
    const range = `a whole number from 1 to ${f.max.toLocaleString("en-US")}`;
    if (text === "") {
      errors[f.key] = `${f.label}: enter ${range}.`;
      continue;
    }
    if (!/^[+-]?\d+$/.test(text)) {
      errors[f.key] = `${f.label} must be ${range}.`;
      continue;
    }
    const n = Number(text);
    if (n < 1 || n > f.max) {
      errors[f.key] = `${f.label} must be ${range}, not ${n.toLocaleString("en-US")}.`;
      continue;
    }
    budget[f.key] = n;
  }
  return Object.keys(errors).length ? { budget: null, errors } : { budget, errors };
}

/** sameBudget reports whether two budgets hold the same values. */
export function sameBudget(a: ReadingBudget, b: ReadingBudget): boolean {
  return budgetFields.every((f) => a[f.key] === b[f.key]);
}

/**
 * saveProblem words the backend's refusal for the form: "budget fullChars
 * must be …" names the field by its label. It also says which field, if any.
 */
export function saveProblem(message: string): { key: BudgetKey | null; text: string } {
  for (const f of budgetFields) {
    const name = new RegExp(`\\bbudget ${f.key}\\b`);
    if (name.test(message)) return { key: f.key, text: message.replace(name, f.label) };
  }
  return { key: null, text: message };
}
