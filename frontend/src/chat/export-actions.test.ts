// @vitest-environment jsdom

import { describe, expect, it, vi } from "vitest";
import { answerExports, conversationExport, type Exporter } from "./export-actions";

function exporter(overrides: Partial<Exporter> = {}): Exporter {
  return {
    copyAnswer: vi.fn(async () => {}),
    save: vi.fn(async () => "/home/me/references.bib"),
    errorText: (err) => (err instanceof Error ? err.message : String(err)),
    ...overrides,
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("export buttons", () => {
  it("copy an answer as Markdown and say so", async () => {
    const ex = exporter();
    const el = answerExports("paper.papers_raft", "m2", true, ex);
    el.querySelector<HTMLButtonElement>('[data-testid="copy-markdown"]')!.click();
    await settle();
    expect(ex.copyAnswer).toHaveBeenCalledWith("paper.papers_raft", "m2");
    expect(el.querySelector('[data-testid="export-status"]')!.textContent).toBe("Copied as Markdown.");
  });

  it("save the cited papers as BibTeX or CSL-JSON, naming the file written", async () => {
    const ex = exporter();
    const el = answerExports("c", "m", true, ex);
    el.querySelector<HTMLButtonElement>('[data-testid="export-csl-json"]')!.click();
    await settle();
    expect(ex.save).toHaveBeenCalledWith("c", "m", "csl-json");
    expect(el.querySelector('[data-testid="export-status"]')!.textContent).toBe("Saved to /home/me/references.bib.");
  });

  it("cannot export papers from an answer that cites none", () => {
    const el = answerExports("c", "m", false, exporter());
    expect(el.querySelector<HTMLButtonElement>('[data-testid="export-bibtex"]')!.disabled).toBe(true);
    expect(el.querySelector<HTMLButtonElement>('[data-testid="export-csl-json"]')!.disabled).toBe(true);
    expect(el.querySelector<HTMLButtonElement>('[data-testid="copy-markdown"]')!.disabled).toBe(false);
  });

  it("show a failure as its sentence, and nothing when the dialog was cancelled", async () => {
    const failing = exporter({ save: vi.fn(async () => Promise.reject(new Error("Could not write /x: permission denied"))) });
    const el = answerExports("c", "m", true, failing);
    el.querySelector<HTMLButtonElement>('[data-testid="export-bibtex"]')!.click();
    await settle();
    const status = el.querySelector('[data-testid="export-status"]')!;
    expect(status.textContent).toBe("Could not write /x: permission denied");
    expect(status.classList.contains("error")).toBe(true);

    const cancelled = exporter({ save: vi.fn(async () => "") });
    const conv = conversationExport(() => "quick.1", cancelled);
    conv.querySelector<HTMLButtonElement>('[data-testid="export-conversation"]')!.click();
    await settle();
    expect(cancelled.save).toHaveBeenCalledWith("quick.1", "", "markdown");
    expect(conv.querySelector('[data-testid="export-status"]')!.textContent).toBe("");
  });
});
