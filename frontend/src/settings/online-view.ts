// Settings → Metadata online: the user's consent to look papers up at
// Crossref (by DOI) and arXiv (by arXiv id), off until switched on; an
// optional contact email for Crossref's polite pool; Look up now, with what
// the last lookup did and what failed.

import { errorText, type AppSettings, type OnlineReport } from "../lib/backend";
import { h } from "../lib/dom";
import { emailProblem, reportProblems, reportSummary } from "./online";

export interface OnlineDeps {
  settings(): Promise<AppSettings>;
  saveSettings(s: AppSettings): Promise<void>;
  lookupMetadata(again: boolean): Promise<OnlineReport>;
  metadataLookup(): Promise<OnlineReport>;
}

export interface OnlineSection {
  el: HTMLElement;
  load(): Promise<void>;
}

export function createOnlineSection(deps: OnlineDeps): OnlineSection {
  const enabled = h("input", { type: "checkbox", id: "metadata-online", "data-testid": "metadata-online" });
  const email = h("input", { type: "email", id: "metadata-contact", "data-testid": "metadata-contact", placeholder: "name@example.org", "aria-describedby": "metadata-contact-help metadata-contact-problem" });
  const problem = h("p", { id: "metadata-contact-problem", class: "budget-problem", role: "alert" });
  const save = h("button", { type: "submit", class: "primary", "data-testid": "metadata-online-save" }, "Save online settings");
  const lookup = h("button", { type: "button", "data-testid": "metadata-lookup" }, "Look up metadata now");
  const message = h("p", { role: "status", "data-testid": "metadata-online-message" });
  const failures = h("ul", { class: "detail", "data-testid": "metadata-online-failures" });

  const form = h(
    "form",
    { novalidate: true },
    h("label", { class: "inline", htmlFor: "metadata-online" }, enabled, "Look up papers’ metadata online"),
    h(
      "p",
      { class: "detail" },
      "When on, Agentero sends each paper’s DOI to Crossref and its arXiv id to arXiv, after indexing and never during it, and writes what they say to the paper’s metadata.json with its source. Nothing else about your papers is sent, and what you edited yourself is never overwritten.",
    ),
    h("label", { htmlFor: "metadata-contact" }, "Contact email (optional)"),
    email,
    h("p", { id: "metadata-contact-help", class: "detail" }, "Sent to Crossref with each lookup so that they can reach you about problems; leave it empty to send none."),
    problem,
    h("div", { class: "form-actions" }, lookup, save),
    message,
    failures,
  );
  const el = h("section", { "data-testid": "metadata-online-section" }, h("h3", {}, "Metadata online"), form);

  function showReport(r: OnlineReport) {
    message.textContent = reportSummary(r);
    failures.replaceChildren(...reportProblems(r).map((p) => h("li", {}, p)));
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void (async () => {
      const p = emailProblem(email.value);
      problem.textContent = p;
      email.setAttribute("aria-invalid", String(p !== ""));
      if (p) {
        email.focus();
        return;
      }
      save.disabled = true;
      try {
        const current = await deps.settings();
        await deps.saveSettings({ ...current, metadataOnline: enabled.checked, metadataOnlineAsked: true, contactEmail: email.value.trim() });
        lookup.disabled = !enabled.checked;
        message.textContent = enabled.checked ? "Saved. Papers are looked up after the next indexing, or now with Look up metadata now." : "Saved. Nothing is looked up online.";
      } catch (err) {
        message.textContent = `Couldn’t save: ${errorText(err)}`;
      } finally {
        save.disabled = false;
      }
    })();
  });

  lookup.addEventListener("click", () => {
    void (async () => {
      lookup.disabled = true;
      message.textContent = "Looking up… this takes a few seconds per paper (arXiv asks for a pause between requests).";
      failures.replaceChildren();
      try {
        showReport(await deps.lookupMetadata(false));
      } catch (err) {
        message.textContent = `Couldn’t look up: ${errorText(err)}`;
      } finally {
        lookup.disabled = !enabled.checked;
      }
    })();
  });

  return {
    el,
    async load() {
      try {
        const s = await deps.settings();
        enabled.checked = s.metadataOnline;
        email.value = s.contactEmail;
        lookup.disabled = !s.metadataOnline;
        problem.textContent = "";
      } catch (err) {
        message.textContent = `Couldn’t read the settings: ${errorText(err)}`;
        return;
      }
      try {
        showReport(await deps.metadataLookup());
      } catch {
        message.textContent = "";
      }
    },
  };
}
