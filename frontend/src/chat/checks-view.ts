// The claim check drawn on an answer: a badge on each citation chip (an
// icon, the verdict's words in its tooltip and accessible name; a chip whose
// claim is on another page says "found on p. 6" and opens that page), and a
// one-line summary under the answer. See checks.ts for the words.

import type { CitationCheck } from "../lib/backend";
import { h } from "../lib/dom";
import { alignChecks, checkSummary, describeCheck, type CheckView } from "./checks";

// What a chip was before a badge was put on it: a chip drawn once keeps its
// node while the answer is drawn again, so a badge is always put on the
// chip as the answer's renderer made it.
interface Plain {
  title: string;
  aria: string;
}
const plain = new WeakMap<HTMLElement, Plain>();

/** ChipCheck is the check a chip shows, with how it is worded. */
export interface ChipCheck {
  check: CitationCheck;
  view: CheckView;
}

/**
 * markChips puts on each chip (in the order the answer writes them) the
 * badge of its check, pairing them with alignChecks; a chip left without a
 * check shows none. It returns each chip's check, for the clicks.
 */
export function markChips(chips: readonly HTMLElement[], checks: readonly CitationCheck[]): Map<HTMLElement, ChipCheck> {
  const out = new Map<HTMLElement, ChipCheck>();
  const paired = alignChecks(
    chips.map((c) => c.dataset.uri ?? ""),
    checks,
  );
  chips.forEach((chip, i) => {
    unmark(chip);
    const check = paired[i] >= 0 ? checks[paired[i]] : null;
    const view = check ? describeCheck(check) : null;
    if (!check || !view) return;
    mark(chip, check, view);
    out.set(chip, { check, view });
  });
  return out;
}

function unmark(chip: HTMLElement): void {
  const was = plain.get(chip);
  if (!was) return;
  chip.querySelectorAll(":scope > .cite-check").forEach((n) => n.remove());
  chip.classList.remove("checked");
  delete chip.dataset.verdict;
  delete chip.dataset.tone;
  delete chip.dataset.opensPage;
  chip.title = was.title;
  chip.setAttribute("aria-label", was.aria);
}

function mark(chip: HTMLElement, check: CitationCheck, view: CheckView): void {
  if (!plain.has(chip)) plain.set(chip, { title: chip.title, aria: chip.getAttribute("aria-label") ?? "" });
  const was = plain.get(chip)!;
  const visible = (chip.textContent ?? "").trim();
  chip.classList.add("checked");
  chip.dataset.verdict = view.verdict;
  chip.dataset.tone = view.tone;
  const badge = h("span", { class: "cite-check", "data-testid": "cite-check", "aria-hidden": "true" }, h("span", { class: "cite-icon" }, view.icon));
  let opens = "";
  if (view.opens > 0) {
    chip.dataset.opensPage = String(view.opens);
    badge.append(h("span", { class: "cite-found" }, `found on p. ${view.opens}`));
    opens = `Opens page ${view.opens}${check.passage ? " and marks the words found there" : check.quote ? " and marks the quote there" : ""}.`;
  }
  chip.append(badge);
  const why = check.why.trim();
  chip.title = [`${view.words}${why ? `: ${why}` : "."}`, opens, was.title].filter(Boolean).join("\n");
  // The accessible name starts with what the reader sees, then says what was checked.
  const shown = view.opens > 0 ? `${visible}, found on p. ${view.opens}` : visible;
  const described = was.aria.startsWith(`${visible}: `) ? was.aria.slice(visible.length + 2) : was.aria;
  const rest = view.opens > 0 ? opens : described;
  chip.setAttribute("aria-label", `${shown}: ${view.words}${why ? ` (${why})` : ""}. ${rest}`.trim());
}

/** checkLine is the summary under an answer ("5 citations: 3 quotes found, …"); null when nothing was checked. */
export function checkLine(checks: readonly CitationCheck[]): HTMLElement | null {
  const text = checkSummary(checks);
  if (!text) return null;
  const worst = checks.some((c) => c.verdict === "unsupported" || c.verdict === "broken")
    ? "missing"
    : checks.some((c) => c.verdict === "weak" || c.verdict === "wrong-page")
      ? "partial"
      : "found";
  return h(
    "p",
    {
      class: "check-summary",
      "data-testid": "check-summary",
      "data-tone": worst,
      role: "note",
      title: "Each citation was checked against the page it cites: whether its quote or its words are there. It says where the evidence is, not whether the claim is true.",
    },
    text,
  );
}
