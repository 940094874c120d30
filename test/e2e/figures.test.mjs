// Figures and tables (issue 24) in a real browser against the real backend:
// the viewer's "Figures and tables" list shows a paper's captions as the
// index found them; one clicked opens its page with the figure's region
// outlined, where the backend says the figure is. And an answer of the
// built-in agent about a figure has a source that is that figure: clicked,
// it opens the figure's page with the same outline; a source whose region
// is not on its page opens the page without it, its quote marked.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { shot, start } from "./harness.mjs";

let env;
let page;

before(async () => {
  env = await start({ log: "e2e-figures-app.log" });
  page = env.page;
  await page.setViewportSize({ width: 1280, height: 820 });
});

after(async () => {
  if (env) {
    if (env.problems.length) console.log("browser problems:\n" + env.problems.join("\n"));
    await env.stop();
  }
});

const sidebar = '[data-testid="sidebar-chat"]';
const raft = "papers/in-search-of-an-understandable-consensus-algorithm";
const raftPdf = `${raft}/in-search-of-an-understandable-consensus-algorithm.pdf`;
// Raft's Figure 1, as the paper prints its caption.
const caption = "Figure 1: Replicated state machine architecture.";

async function failShot(t, fn) {
  try {
    await fn();
  } catch (err) {
    await shot(page, `failure-figures-${t.name.replace(/\W+/g, "-")}`).catch(() => {});
    throw err;
  }
}

/** atPage waits until the viewer's page box shows page n. */
function atPage(n) {
  return page.waitForFunction((n) => document.querySelector('[data-testid="page-input"]')?.value === String(n), n, { timeout: 20_000 });
}

/**
 * outlineOn waits for the region outline on page n and returns where it
 * is, as fractions of the page's width and height: what a reader sees.
 */
async function outlineOn(n) {
  const mark = `[data-testid="viewer"] [data-page="${n}"] .quote-marks.region .quote-mark`;
  await page.locator(mark).first().waitFor({ timeout: 20_000 });
  return page.evaluate((mark) => {
    const marks = document.querySelectorAll(mark);
    const b = marks[0].getBoundingClientRect();
    // The outline is drawn around the mark's box; the box less its padding is the region.
    const cs = getComputedStyle(marks[0]);
    const [pl, pr, pt, pb] = [cs.paddingLeft, cs.paddingRight, cs.paddingTop, cs.paddingBottom].map(parseFloat);
    const m = { left: b.left + pl, top: b.top + pt, width: b.width - pl - pr, height: b.height - pt - pb };
    const p = marks[0].closest("[data-page]").getBoundingClientRect();
    return { count: marks.length, x: (m.left - p.left) / p.width, y: (m.top - p.top) / p.height, w: m.width / p.width, h: m.height / p.height, px: p.width };
  }, mark);
}

/** near asserts that an outline lies where a region of a page width × height points is, within half a percent of the page. */
function near(got, region, width, height, what) {
  const want = { x: region.x / width, y: region.y / height, w: region.width / width, h: region.height / height };
  for (const k of ["x", "y", "w", "h"]) {
    // Half a percent of the page, at least the 2 px a mark's edge may be off by (the page is laid out in whole pixels).
    assert.ok(Math.abs(got[k] - want[k]) < Math.max(0.005, 2 / got.px), `${what}: ${k} is ${got[k].toFixed(4)} of the page, want ${want[k].toFixed(4)} (${JSON.stringify(got)} vs ${JSON.stringify(want)})`);
  }
}

test("figures and tables", { timeout: 600_000 }, async (t) => {
  await t.test("the vault indexes", (st) =>
    failShot(st, async () => {
      await page.waitForFunction(
        async (pdf) => {
          const papers = (await window.go?.main?.App?.Library?.()) ?? [];
          return papers.length >= 3 && papers.every((p) => p.status === "ok") && (await window.go.main.App.Figures(pdf)).length > 0;
        },
        raftPdf,
        { timeout: 120_000, polling: 500 },
      );
    }),
  );

  // Figure 1 as the index has it, and the size of its page from the backend's locator.
  let fig;
  let size;

  await t.test("the viewer lists the paper's figures and tables; one clicked shows its page with the figure outlined", (st) =>
    failShot(st, async () => {
      const figures = await page.evaluate((p) => window.go.main.App.Figures(p), raftPdf);
      fig = figures.find((f) => f.label === "Figure 1");
      assert.ok(fig, `the index found Figure 1 in ${JSON.stringify(figures.map((f) => f.label))}`);
      assert.ok(fig.caption.startsWith(caption), fig.caption);
      const loc = await page.evaluate((uri) => window.go.main.App.Locate(uri), `${raftPdf}#page=${fig.page}&quote=${encodeURIComponent("Replicated state machine architecture")}`);
      assert.equal(loc.page, fig.page, "the caption is on the figure's page");
      size = { width: loc.width, height: loc.height };

      await page.click(`[data-testid="library-item"][data-ref="${raft}"]`);
      await page.locator('[data-testid="viewer-page"]').first().waitFor({ timeout: 30_000 });
      await atPage(1);
      await page.locator('[data-testid="outline-toggle"]').click();
      const entries = page.locator('[data-testid="figure-entry"]');
      await entries.first().waitFor({ timeout: 20_000 });
      assert.equal(await entries.count(), figures.length, "one entry per figure and table");
      const titles = await entries.locator(".outline-title").allInnerTexts();
      const entry = entries.filter({ hasText: caption });
      assert.equal(await entry.count(), 1, `an entry reads “${caption}…”: ${JSON.stringify(titles)}`);
      assert.equal(await entry.locator(".outline-page").innerText(), String(fig.page));
      await shot(page, "figures-1-list");

      await entry.click();
      await atPage(fig.page);
      const got = await outlineOn(fig.page);
      assert.equal(got.count, 1, "one outline");
      near(got, fig.region, size.width, size.height, "the outline of Figure 1");
      // The outline holds the caption, where the backend's locator finds it on the page.
      for (const [x0, y0, x1, y1] of loc.rects) {
        const r = { x: x0 / size.width, y: y0 / size.height, x1: x1 / size.width, y1: y1 / size.height };
        assert.ok(r.x >= got.x - 0.005 && r.x1 <= got.x + got.w + 0.005 && r.y >= got.y - 0.005 && r.y1 <= got.y + got.h + 0.005, `caption rect ${JSON.stringify(r)} inside ${JSON.stringify(got)}`);
      }
      await shot(page, "figures-2-outlined");
    }),
  );

  await t.test("the built-in agent's answer about a figure has the figure as its source: it opens the page outlined", (st) =>
    failShot(st, async () => {
      await page.locator(`${sidebar} [data-testid="chat-messages"][data-phase="ready"]`).waitFor({ state: "attached", timeout: 30_000 });
      await page.locator(`${sidebar} [data-testid="composer-input"]`).fill("What does Figure 1 show of the replicated state machine architecture?");
      const answers = page.locator(`${sidebar} [data-testid="msg-assistant"]`);
      const before = await answers.count();
      await page.locator(`${sidebar} [data-testid="composer-input"]`).press("Enter");
      await page.waitForFunction(
        ({ s, before }) => {
          const all = document.querySelectorAll(`${s} [data-testid="msg-assistant"]`);
          return all.length > before && all[all.length - 1].dataset.status !== "streaming";
        },
        { s: sidebar, before },
        { timeout: 120_000 },
      );
      const answer = answers.last();
      assert.equal(await answer.getAttribute("data-status"), "done", await answer.innerText());
      const source = answer.locator('[data-testid="source"][data-region="true"]');
      assert.equal(await source.count(), 1, `one source is a figure: ${await answer.locator('[data-testid="sources"]').innerText()}`);
      const uri = await source.getAttribute("data-uri");
      const m = /#page=(\d+)&region=([\d.]+),([\d.]+),([\d.]+),([\d.]+)/.exec(uri);
      assert.ok(m, uri);
      assert.equal(Number(m[1]), fig.page, uri);
      const region = { x: Number(m[2]), y: Number(m[3]), width: Number(m[4]), height: Number(m[5]) };
      for (const k of ["x", "y", "width", "height"]) assert.ok(Math.abs(region[k] - fig.region[k]) <= 0.05, `${k} of ${uri} is Figure 1's ${fig.region[k]}`);
      assert.match(await source.getAttribute("title"), /Outlines the figure or table it cites on p\. 2/);

      // Away from the figure, marks cleared: what the source draws is its own.
      await page.locator('[data-testid="page-input"]').fill("7");
      await page.locator('[data-testid="page-input"]').press("Enter");
      await atPage(7);
      await page.locator(".viewer-scroll").click({ position: { x: 5, y: 5 } });
      await page.keyboard.press("Escape");
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="viewer"] .quote-mark').length === 0);

      await source.click();
      await atPage(fig.page);
      const got = await outlineOn(fig.page);
      assert.equal(got.count, 1, "one outline");
      near(got, region, size.width, size.height, "the outline the source opens");
      assert.equal(await page.locator('[data-testid="viewer"] .quote-marks:not(.region)').count(), 0, "the figure is outlined, no quote marked over it");
      await shot(page, "figures-3-source-outlined");
    }),
  );

  await t.test("a source whose region is not on its page: the region is dropped, the page opens with its quote marked", (st) =>
    failShot(st, async () => {
      // A turn played into the UI as the backend's events would bring it, citing page 6 with a region
      // that runs off the page (Raft's pages are 612 × 792 points) and a quote that is on it.
      const conversationId = "paper.papers_in-search-of-an-understandable-consensus-algorithm";
      const uri = `${raftPdf}#page=6&region=400,600,300,250&quote=election+timeouts+are+chosen+randomly`;
      const text = `Timeouts are random [${uri}].`;
      await page.evaluate(
        ({ conversationId, uri, text }) => {
          const emit = window.runtime.EventsEmit;
          const turn = "figures-off-page";
          emit("agent:status", { conversationId, messageId: turn, action: "new", note: "", mode: "prompt-only", allowed: [], fingerprint: "" });
          emit("agent:chunk", { conversationId, messageId: turn, kind: "message", text });
          emit("agent:completed", { conversationId, turnId: turn, messageId: `${turn}.a`, content: text, sources: [uri], consulted: [], checks: [], stopReason: "end_turn", agent: "" });
        },
        { conversationId, uri, text },
      );
      const answer = page.locator(`${sidebar} [data-testid="msg-assistant"]`).last();
      await page.waitForFunction((s) => document.querySelector(`${s} [data-testid="msg-assistant"]:last-child`)?.dataset.status === "done", sidebar);
      await answer.locator('[data-testid="source"][data-region="true"]').click();
      await atPage(6);
      await page.waitForFunction(() => /not on p\. 6/.test(document.querySelector('[data-testid="viewer-notice"]')?.textContent ?? ""), null, { timeout: 20_000 });
      assert.equal(await page.locator('[data-testid="viewer-notice"]').innerText(), "The figure this source names is not on p. 6; the page is shown without it.");
      await page.locator('[data-testid="viewer"] [data-page="6"] .quote-marks:not(.region) .quote-mark').first().waitFor({ timeout: 20_000 });
      assert.equal(await page.locator('[data-testid="viewer"] .quote-marks.region').count(), 0, "nothing is outlined off the page");
      await shot(page, "figures-4-region-dropped");
    }),
  );
});
