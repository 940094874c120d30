// Settings → Reading budget: a number per cap the agent's tools respect in
// a turn, checked before it is sent, with Reset to defaults and Save. The
// budget is part of every plan's fingerprint, so changing it starts new
// agent sessions; the section says so.

import { errorText, type AppSettings, type ReadingBudget } from "../lib/backend";
import { h } from "../lib/dom";
import { budgetFields, budgetValues, readBudget, sameBudget, saveProblem, type BudgetErrors, type BudgetKey, type BudgetValues } from "./budget";

export interface BudgetDeps {
  settings(): Promise<AppSettings>;
  defaultSettings(): Promise<AppSettings>;
  saveSettings(s: AppSettings): Promise<void>;
}

export interface BudgetSection {
  el: HTMLElement;
  /** load reads the saved budget into the form (dropping unsaved edits). */
  load(): Promise<void>;
}

export function createBudgetSection(deps: BudgetDeps): BudgetSection {
  let saved: AppSettings | null = null;
  const inputs = new Map<BudgetKey, HTMLInputElement>();
  const problems = new Map<BudgetKey, HTMLElement>();

  const message = h("p", { class: "budget-message", role: "status", "data-testid": "budget-message" });
  const error = h("p", { class: "budget-error", role: "alert", hidden: true, "data-testid": "budget-error" });
  const reset = h("button", { type: "button", "data-testid": "budget-reset" }, "Reset to defaults");
  const save = h("button", { type: "submit", class: "primary", "data-testid": "budget-save" }, "Save budget");

  const rows = budgetFields.map((f) => {
    const id = `budget-${f.key}`;
    const input = h("input", {
      id,
      type: "number",
      inputMode: "numeric",
      min: 1,
      max: f.max,
      step: 1,
      required: true,
      "aria-describedby": `${id}-help ${id}-problem`,
      "data-testid": id,
      "data-key": f.key,
    });
    const problem = h("span", { id: `${id}-problem`, class: "budget-problem", hidden: true });
    inputs.set(f.key, input);
    problems.set(f.key, problem);
    return h(
      "div",
      { class: "budget-row" },
      h("label", { for: id }, f.label),
      input,
      h("span", { id: `${id}-help`, class: "budget-help" }, `${f.help} Up to ${f.max.toLocaleString("en-US")}.`),
      problem,
    );
  });

  const form = h(
    "form",
    { class: "budget-form", "aria-label": "Reading budget", "data-testid": "budget-form", novalidate: true },
    h("div", { class: "budget-grid" }, ...rows),
    h(
      "p",
      { class: "detail budget-note", "data-testid": "budget-note" },
      "Changing the budget starts new agent sessions: it is part of what each turn may read, so conversations continue in a fresh session with the new caps.",
    ),
    error,
    h("div", { class: "form-actions" }, message, reset, save),
  );

  const el = h(
    "section",
    { class: "budget", "data-testid": "budget" },
    h("h3", { id: "budget-title" }, "Reading budget"),
    h("p", { class: "detail" }, "What the agent’s tools may return per call and per turn when they read your vault. Larger values let it read more but fill its context window faster."),
    form,
  );
  form.setAttribute("aria-labelledby", "budget-title");

  function values(): BudgetValues {
    const out = {} as BudgetValues;
    for (const [key, input] of inputs) out[key] = input.value;
    return out;
  }

  function fill(b: ReadingBudget) {
    const v = budgetValues(b);
    for (const [key, input] of inputs) input.value = v[key];
  }

  // showErrors marks the fields with errors (or those in invalid) and shows the summary next to the form.
  function showErrors(errors: BudgetErrors, summary: string, invalid: BudgetKey[] = []) {
    for (const [key, input] of inputs) {
      const text = errors[key] ?? "";
      input.setAttribute("aria-invalid", String(text !== "" || invalid.includes(key)));
      problems.get(key)!.textContent = text;
      problems.get(key)!.hidden = text === "";
    }
    error.textContent = summary;
    error.hidden = summary === "";
  }

  function setMessage(text: string) {
    message.textContent = text;
  }

  function dirty(): boolean {
    const { budget } = readBudget(values());
    return !saved || !budget || !sameBudget(budget, saved.budget);
  }

  form.addEventListener("input", () => {
    setMessage(dirty() ? "Not saved yet." : "");
  });

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const { budget, errors } = readBudget(values());
    if (!budget) {
      const first = budgetFields.find((f) => errors[f.key]);
      const n = Object.keys(errors).length;
      showErrors(errors, `Nothing was saved: ${n === 1 ? "one value is" : `${n} values are`} out of range (marked above).`);
      setMessage("");
      if (first) inputs.get(first.key)!.focus();
      return;
    }
    showErrors({}, "");
    if (saved && sameBudget(budget, saved.budget)) {
      setMessage("Nothing changed.");
      return;
    }
    save.disabled = true;
    setMessage("Saving…");
    try {
      // the other settings as saved now (another section may have changed them)
      const next = { ...(await deps.settings()), budget };
      await deps.saveSettings(next);
      saved = next;
      setMessage("Saved. The next turns read with this budget, in new agent sessions.");
    } catch (err) {
      const p = saveProblem(errorText(err));
      showErrors({}, `Couldn’t save: ${p.text}`, p.key ? [p.key] : []);
      setMessage("");
      if (p.key) inputs.get(p.key)!.focus();
    } finally {
      save.disabled = false;
    }
  });

  reset.addEventListener("click", async () => {
    try {
      const d = await deps.defaultSettings();
      fill(d.budget);
      showErrors({}, "");
      setMessage(dirty() ? "Defaults filled in. Save to use them." : "These are the defaults.");
    } catch (err) {
      showErrors({}, `Couldn’t read the defaults: ${errorText(err)}`);
    }
  });

  return {
    el,
    async load() {
      showErrors({}, "");
      setMessage("");
      try {
        saved = await deps.settings();
        fill(saved.budget);
      } catch (err) {
        saved = null;
        showErrors({}, `Couldn’t read the settings: ${errorText(err)}`);
      }
    },
  };
}
