// The question asked at the first import (Zotero, BibTeX / CSL, Add papers,
// a dropped PDF, arranging a folder): may Agentero look the papers' details
// up online? It says exactly what is sent where, and the answer is kept in
// the settings (metadataOnline, metadataOnlineAsked), so it is asked once;
// Settings → Metadata online changes it later. Escape answers nothing: the
// import goes on offline and the question comes back at the next one.

import { errorText, type AppSettings } from "../lib/backend";
import { h } from "../lib/dom";

export interface ConsentDeps {
  settings(): Promise<AppSettings>;
  saveSettings(s: AppSettings): Promise<void>;
}

export interface Consent {
  /** ask shows the question when it was never answered and resolves once it is (or dismissed); at once otherwise. */
  ask(): Promise<void>;
}

/** needsAsking says whether the first-import question is still to be asked. */
export function needsAsking(s: AppSettings): boolean {
  return !s.metadataOnline && !s.metadataOnlineAsked;
}

export function createConsent(dialogs: HTMLElement, deps: ConsentDeps): Consent {
  const problem = h("p", { class: "intake-status error", role: "alert", hidden: true, "data-testid": "consent-problem" });
  // The focused answer is the primary one: Enter keeps everything on this computer.
  const offline = h("button", { type: "button", class: "primary", "data-testid": "consent-offline" }, "Stay offline");
  const online = h("button", { type: "button", "data-testid": "consent-online" }, "Look up online");
  const dialog = h(
    "dialog",
    { class: "intake-dialog", "aria-labelledby": "consent-title", "aria-describedby": "consent-what", "data-testid": "metadata-consent" },
    h("h2", { id: "consent-title" }, "Look up the papers’ details online?"),
    h(
      "div",
      { id: "consent-what", class: "intake-consent" },
      h("p", {}, "Agentero can complete each paper’s title, authors, year and abstract from two public services. Only identifiers are sent:"),
      h(
        "ul",
        {},
        h("li", {}, "a paper’s DOI, to Crossref (api.crossref.org);"),
        h("li", {}, "a paper’s arXiv id, to arXiv (export.arxiv.org)."),
      ),
      h(
        "p",
        {},
        "Nothing else leaves your computer: no titles, no PDFs, no notes. What the services answer is written to the paper’s metadata.json with its source, never over what you edited, and only after indexing, which it never holds up.",
      ),
      h("p", { class: "detail" }, "You can change this at any time in Settings → Metadata online."),
    ),
    problem,
    h("div", { class: "intake-actions" }, offline, online),
  );
  dialogs.append(dialog);

  let answer: ((allow: boolean | null) => void) | null = null;
  offline.addEventListener("click", () => answer?.(false));
  online.addEventListener("click", () => answer?.(true));
  // Escape (the dialog's cancel) answers nothing.
  dialog.addEventListener("cancel", (e) => {
    e.preventDefault();
    answer?.(null);
  });

  async function ask(): Promise<void> {
    let s: AppSettings;
    try {
      s = await deps.settings();
    } catch {
      return; // the settings cannot be read: the import goes on with lookups as they are (off by default)
    }
    if (!needsAsking(s)) return;
    problem.hidden = true;
    if (!dialog.open) dialog.showModal();
    offline.focus(); // Enter keeps everything on this computer
    for (;;) {
      const allow = await new Promise<boolean | null>((r) => (answer = r));
      if (allow === null) break;
      offline.disabled = online.disabled = true;
      try {
        // the other settings as saved now (Settings may have changed them)
        await deps.saveSettings({ ...(await deps.settings()), metadataOnline: allow, metadataOnlineAsked: true });
        break;
      } catch (err) {
        problem.textContent = `Couldn’t save your answer: ${errorText(err)} Try again, or press Escape to go on offline.`;
        problem.hidden = false;
      } finally {
        offline.disabled = online.disabled = false;
      }
    }
    answer = null;
    dialog.close();
  }

  return { ask };
}
