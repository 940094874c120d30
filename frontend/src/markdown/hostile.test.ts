// @vitest-environment jsdom
// Every hostile answer renders inert: drawn at once and streamed in chunks,
// with every event a handler could listen to fired on every element, the
// sentinel stays unset and inertProblems finds nothing. The same corpus run
// through a naive renderer (raw HTML on, every link allowed, no sanitizer)
// shows the checks can fail.

import MarkdownItFactory from "markdown-it";
import { afterEach, describe, expect, it } from "vitest";
import { createAnswerView, renderAnswer, type AnswerView } from "./answer";
import { hostileAnswers, inertProblems, Sentinel, SentinelScript } from "./testdata/answers.mjs";

const events = ["click", "auxclick", "dblclick", "mouseover", "mouseenter", "focus", "blur", "load", "error", "toggle", "animationstart", "input", "submit", "start", "pointerdown"];

function fireAll(root: Element): void {
  for (const el of [root, ...Array.from(root.querySelectorAll("*"))]) {
    for (const type of events) el.dispatchEvent(new Event(type, { bubbles: true, cancelable: true }));
  }
}

const views: AnswerView[] = [];

function mount(view: AnswerView): AnswerView {
  document.body.append(view.element);
  views.push(view);
  return view;
}

function clearSentinel(): void {
  delete (window as unknown as Record<string, unknown>)[Sentinel];
  delete (document.defaultView as unknown as Record<string, unknown>)[Sentinel];
  document.documentElement.removeAttribute("data-agentero-pwned");
}

afterEach(() => {
  for (const v of views.splice(0)) {
    v.destroy();
    v.element.remove();
  }
  clearSentinel();
});

// jsdom is many times slower than a browser at parsing and walking HTML:
// the big entries get time (the browser's numbers are in the report / bench).
const big = (text: string) => text.length > 20000;

describe("hostile answers render inert", () => {
  for (const { name, text } of hostileAnswers) {
    it(name, { timeout: big(text) ? 120_000 : 60_000 }, () => {
      const opened: string[] = [];
      const view = mount(renderAnswer(text, { openExternal: (url) => opened.push(url), onCitation: () => {} }));
      fireAll(view.element);
      expect(inertProblems(view.element)).toEqual([]);
      expect(opened.every((u) => u.startsWith("https://"))).toBe(true);
      // Some text always shows: nothing hostile is dropped silently.
      if (text.trim() !== "") expect(view.element.textContent?.trim()).not.toBe("");
    });
  }
});

describe("hostile answers streamed in chunks render inert", () => {
  // The long entries stream in the browser check (testdata/browser-check.mjs).
  for (const { name, text } of hostileAnswers.filter((a) => a.text.length <= 5000)) {
    it(name, { timeout: 20_000 }, () => {
      const view = mount(createAnswerView());
      const step = Math.max(1, Math.ceil(text.length / 40));
      for (let at = step; at < text.length + step; at += step) {
        view.update(text.slice(0, at));
        view.flush();
        expect(inertProblems(view.element)).toEqual([]);
      }
      fireAll(view.element);
      expect(inertProblems(view.element)).toEqual([]);
    });
  }
});

describe("the checks can fail", () => {
  it("a naive renderer leaves most of the corpus live", { timeout: 60_000 }, () => {
    const naive = MarkdownItFactory({ html: true, linkify: true });
    naive.validateLink = () => true;
    const live: string[] = [];
    const small = hostileAnswers.filter((a) => !big(a.text));
    for (const { name, text } of small) {
      const host = document.createElement("div");
      host.innerHTML = naive.render(text);
      document.body.append(host);
      fireAll(host);
      if (inertProblems(host).length > 0) live.push(name);
      host.remove();
      clearSentinel();
    }
    expect(live.length).toBeGreaterThan(small.length / 2);
    for (const name of ["script tag", "img onerror", "svg onload", "iframe srcdoc", "javascript link", "javascript link hex entity", "javascript autolink", "style tag"]) {
      expect(live).toContain(name);
    }
  });

  it("an inline handler that runs sets the sentinel", () => {
    const host = document.createElement("div");
    host.innerHTML = `<button onclick="${SentinelScript}">x</button>`;
    document.body.append(host);
    fireAll(host);
    expect(inertProblems(host)).toContain(`window.${Sentinel} was set`);
    host.remove();
  });
});
