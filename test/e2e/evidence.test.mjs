// Issue 22 in a real browser against the real backend: evidence checked and
// located. The viewer marks what the backend's locator returns (App.Locate),
// read back here from pdf.js's own text layer: the words under the marks.
// A clicked search hit marks the snippet's words and nothing else, on the
// same words at any zoom; an answer's citation chips show their claim
// check, a wrong-page chip reads "found on p. N" and opens page N with the
// quote marked; a quote cited on the wrong page is said in the toolbar with
// a way to it; and a real agent turn (the scripted peer answering with a
// citation of the wrong page, PEER_ANSWER_FILE) comes back with the check
// from the backend.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fold, markedPages, markedText, repo, shot, start, waitForMarks } from "./harness.mjs";

let env;
let page;

before(async () => {
  env = await start({ log: "e2e-evidence-app.log" });
  page = env.page;
  await page.setViewportSize({ width: 1024, height: 700 });
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
const raftChat = "paper.papers_in-search-of-an-understandable-consensus-algorithm";
// Page 6 of Raft says this; page 1 does not.
const timeouts = "election timeouts are chosen randomly from a fixed interval";

async function failShot(t, fn) {
  try {
    await fn();
  } catch (err) {
    await shot(page, `failure-evidence-${t.name.replace(/\W+/g, "-")}`).catch(() => {});
    throw err;
  }
}

/** atPage waits until the viewer's page box shows page n. */
function atPage(n) {
  return page.waitForFunction((n) => document.querySelector('[data-testid="page-input"]')?.value === String(n), n, { timeout: 20_000 });
}

/** marksInView tells whether the first mark on page n is inside the viewer's scroller. */
function marksInView(n) {
  return page.evaluate((n) => {
    const m = document.querySelector(`[data-testid="viewer"] [data-page="${n}"] .quote-mark`);
    if (!m) return false;
    const box = m.getBoundingClientRect();
    const view = document.querySelector(".viewer-scroll").getBoundingClientRect();
    return box.top >= view.top && box.bottom <= view.bottom && box.width > 0;
  }, n);
}

/** openInSidebar opens a library paper and waits for its stored conversation in the sidebar. */
async function openInSidebar(ref, title) {
  await page.locator('[data-testid="search-input"]').fill(""); // the library shows again
  await page.click(`[data-testid="library-item"][data-ref="${ref}"]`);
  await page.waitForFunction(
    ({ sidebar, title }) => title.test(document.querySelector(`${sidebar} [data-testid="chat-paper"]`)?.textContent ?? ""),
    { sidebar, title },
  );
  await page.locator(`${sidebar} [data-testid="chat-messages"][data-phase="ready"]`).waitFor({ state: "attached" });
}

/**
 * emitCompleted plays a finished turn into the UI as the backend's events
 * would, with the claim checks given; nothing reaches an agent.
 */
async function emitCompleted(conversationId, turn, text, checks) {
  await page.evaluate(
    ({ conversationId, turn, text, checks }) => {
      const emit = window.runtime.EventsEmit;
      emit("agent:status", { conversationId, messageId: turn, action: "new", note: "", mode: "prompt-only", allowed: [], fingerprint: "" });
      emit("agent:chunk", { conversationId, messageId: turn, kind: "message", text });
      emit("agent:completed", { conversationId, turnId: turn, messageId: `${turn}.a`, content: text, sources: [], consulted: [], checks, stopReason: "end_turn", agent: "" });
    },
    { conversationId, turn, text, checks },
  );
  await page.waitForFunction((s) => document.querySelector(`${s} [data-testid="msg-assistant"]:last-child`)?.dataset.status === "done", sidebar);
  return page.locator(`${sidebar} [data-testid="msg-assistant"]`).last();
}

test("evidence checked and located", { timeout: 600_000 }, async (t) => {
  await t.test("the vault indexes", (st) =>
    failShot(st, async () => {
      await page.waitForFunction(
        async () => {
          const papers = (await window.go?.main?.App?.Library?.()) ?? [];
          return papers.length >= 3 && papers.every((p) => p.status === "ok");
        },
        null,
        { timeout: 120_000, polling: 500 },
      );
    }),
  );

  const wrongQuote = "chosen randomly from a fixed interval";

  await t.test("a clicked search hit marks the snippet's words and nothing else", (st) =>
    failShot(st, async () => {
      const query = "election timeouts chosen randomly fixed interval";
      await page.locator('[data-testid="search-input"]').fill(query);
      const hit = page.locator('[data-testid="search-hit"]').first();
      await hit.waitFor({ timeout: 20_000 });
      // The snippet as the reader sees it, without the cuts around it.
      const snippet = (await hit.locator(".hit-snippet").innerText()).replace(/^\s*…|…\s*$/g, "").trim();
      assert.ok(!snippet.includes("…"), `one passage, no cut inside: ${snippet}`);
      const [first] = await page.evaluate((q) => window.go.main.App.Search(q, 10), query);
      const hitPage = first.page;
      assert.ok(first.quote, `the hit carries the quote to mark: ${JSON.stringify(first)}`);
      assert.equal(fold(first.quote), fold(snippet), "the hit's quote is the snippet's words");

      await hit.click();
      await atPage(hitPage);
      await waitForMarks(page, hitPage);
      const hitWords = await markedText(page, hitPage);
      assert.equal(fold(hitWords), fold(snippet), `the marks cover the snippet's words: marked “${hitWords}”, snippet “${snippet}”`);
      assert.deepEqual(await markedPages(page), { [hitPage]: await page.locator(`[data-page="${hitPage}"] .quote-mark`).count() }, "no other page is marked");
      assert.ok(await marksInView(hitPage), "the marked words are scrolled into view");
      assert.equal(await page.locator('[data-testid="viewer-notice"]').innerText(), "", "nothing to say: the quote is where the hit said");
      // What the backend located is what is drawn.
      const loc = await page.evaluate(({ path, n, quote }) => window.go.main.App.Locate(`${path}#page=${n}&quote=${encodeURIComponent(quote)}`), {
        path: first.citationUri.split("#")[0],
        n: hitPage,
        quote: first.quote,
      });
      assert.equal(loc.found, true, loc.why);
      assert.equal(fold(loc.text), fold(hitWords));
      await shot(page, "evidence-1-search-hit");
    }),
  );

  await t.test("a wrong-page chip says where the claim is found and opens that page with the quote marked", (st) =>
    failShot(st, async () => {
      await openInSidebar(raft, /Consensus/);
      const quote = wrongQuote;
      const cited = `${raftPdf}#page=1`;
      const also = `${raftPdf}#page=6`;
      const text = `Raft’s election timeouts are “${quote}” [${cited}]. Servers vote for at most one candidate per term [${also}].`;
      const answer = await emitCompleted(raftChat, "wrong-1", text, [
        { uri: cited, page: 1, verdict: "wrong-page", foundPage: 6, quote, why: "the quote is not on page 1; it is on page 6", claim: "", line: 1, start: 0, end: 0 },
        { uri: also, page: 6, verdict: "supported", foundPage: 0, quote: "", why: "page 6 has the sentence's words", claim: "", line: 1, start: 0, end: 0 },
      ]);
      const chips = answer.locator('[data-testid="answer-text"] [data-testid="cite"]');
      assert.equal(await chips.count(), 2);
      const wrong = chips.first();
      assert.equal(await wrong.getAttribute("data-verdict"), "wrong-page");
      assert.match(await wrong.innerText(), /found on p\. 6/);
      assert.match((await wrong.getAttribute("aria-label")) ?? "", /^p\. 1, found on p\. 6: Found on p\. 6/);
      assert.match((await chips.nth(1).getAttribute("title")) ?? "", /^Words found on p\. 6: page 6 has the sentence's words/);
      assert.equal(await answer.locator('[data-testid="check-summary"]').innerText(), "2 citations: 1 with its words on the page, 1 on another page");
      await wrong.scrollIntoViewIfNeeded();
      await shot(page, "evidence-3-wrong-page-chip");
      // In the dark theme the verdict keeps its colour, the theme's own.
      const colours = async () =>
        wrong.evaluate((el) => [getComputedStyle(el.querySelector(".cite-found")).color, getComputedStyle(el.closest(".chat-thread")).backgroundColor]);
      const light = await colours();
      await page.evaluate(() => (document.documentElement.dataset.theme = "dark"));
      const dark = await colours();
      assert.equal(dark[0], "rgb(242, 178, 92)", "the dark theme's warning colour");
      assert.notDeepEqual(dark, light);
      await shot(page, "evidence-3-wrong-page-chip-dark");
      await page.evaluate(() => delete document.documentElement.dataset.theme);

      // By keyboard: the chip is a button.
      await wrong.focus();
      await page.keyboard.press("Enter");
      await atPage(6);
      await waitForMarks(page, 6);
      assert.equal(fold(await markedText(page, 6)), fold(quote), "the quote is marked on page 6");
      assert.deepEqual(Object.keys(await markedPages(page)), ["6"]);
      assert.ok(await marksInView(6), "the marks are in view");
      await shot(page, "evidence-4-wrong-page-opened");
      // The window keeps its layout at 1024×700.
      assert.deepEqual(
        await page.evaluate(() => [document.scrollingElement.scrollTop, document.scrollingElement.scrollHeight, document.scrollingElement.scrollWidth]),
        [0, 700, 1024],
      );
    }),
  );

  await t.test("zoomed in and out, the marks stay on the same words; Escape clears them", (st) =>
    failShot(st, async () => {
      await page.locator('[data-testid="zoom-in"]').click();
      await page.locator('[data-testid="zoom-in"]').click();
      await waitForMarks(page, 6);
      assert.equal(fold(await markedText(page, 6)), fold(wrongQuote), "zoomed in");
      await shot(page, "evidence-2-zoomed");
      await page.locator('[data-testid="zoom-out"]').click();
      await page.locator('[data-testid="zoom-out"]').click();
      await page.locator('[data-testid="zoom-out"]').click();
      await waitForMarks(page, 6);
      assert.equal(fold(await markedText(page, 6)), fold(wrongQuote), "zoomed out");
      await page.locator(".viewer-scroll").click({ position: { x: 5, y: 5 } });
      await page.keyboard.press("Escape");
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="viewer"] .quote-mark').length === 0, null, { timeout: 5_000 });
      await page.keyboard.press("Control+0");
    }),
  );

  await t.test("a quote cited on a page that does not hold it: the toolbar says where it is, and Show p. 6 goes there", (st) =>
    failShot(st, async () => {
      const uri = `${raftPdf}#page=1&quote=${encodeURIComponent(timeouts)}`;
      const answer = await emitCompleted(raftChat, "elsewhere-1", `Timeouts are random [${uri}].`, []);
      const chip = answer.locator('[data-testid="answer-text"] [data-testid="cite"]');
      assert.equal(await chip.getAttribute("data-verdict"), null, "no check, no badge");
      assert.equal(await answer.locator('[data-testid="check-summary"]').count(), 0);
      await page.evaluate(() => (document.querySelector(".viewer-scroll").scrollTop = 0));
      await chip.click();
      await atPage(1);
      const notice = page.locator('[data-testid="viewer-notice"]');
      await page.waitForFunction(() => /The quote is on p\. 6, not p\. 1/.test(document.querySelector('[data-testid="viewer-notice"]')?.textContent ?? ""), null, {
        timeout: 20_000,
      });
      assert.equal(await notice.innerText(), "The quote is on p. 6, not p. 1 — Show p. 6");
      await shot(page, "evidence-5-quote-elsewhere");
      await notice.getByRole("button", { name: "Show p. 6" }).click();
      await atPage(6);
      await waitForMarks(page, 6);
      assert.equal(fold(await markedText(page, 6)), fold(timeouts));
      assert.ok(await marksInView(6), "the marks are in view");
      assert.equal(await notice.innerText(), "");
      await shot(page, "evidence-6-quote-elsewhere-shown");
    }),
  );

  await t.test("a quote that is nowhere in the paper: said, and the cited page shown unmarked", (st) =>
    failShot(st, async () => {
      const uri = `${raftPdf}#page=3&quote=${encodeURIComponent("a sentence that no page of this paper has in it at all")}`;
      const answer = await emitCompleted(raftChat, "nowhere-1", `Not there [${uri}].`, []);
      await answer.locator('[data-testid="answer-text"] [data-testid="cite"]').click();
      await atPage(3);
      await page.waitForFunction(() => /^Not marked: the quote is not on page 3, nor on any other page/.test(document.querySelector('[data-testid="viewer-notice"]')?.textContent ?? ""), null, {
        timeout: 20_000,
      });
      await shot(page, "evidence-7-quote-nowhere");
      assert.deepEqual(await markedPages(page), {});
    }),
  );

  await t.test("a real turn citing the wrong page: its chip carries the backend's check and opens the page that has the quote", (st) =>
    failShot(st, async () => {
      const quote = "chosen randomly from a fixed interval";
      const dialog = page.locator('[data-testid="settings"]');
      await page.keyboard.press("Control+,");
      await dialog.waitFor({ state: "visible" });
      await dialog.locator('[data-testid="agent-add"]').click();
      await dialog.getByLabel("Name").fill("misciting");
      await dialog.getByLabel("Command").fill(process.execPath);
      await dialog.getByLabel("Arguments").fill(join(repo, "test", "peeragent", "agent.mjs"));
      // The scripted peer answers with this text: the quote is on page 6; it cites page 1.
      const answerFile = join(env.root, "misciting-answer.md");
      writeFileSync(answerFile, `In Raft, election timeouts are “${quote}” [${raftPdf}#page=1].\n`);
      await dialog.getByLabel("Environment").fill(`PEER_ANSWER_FILE=${answerFile}`);
      await dialog.getByRole("button", { name: "Save", exact: true }).click();
      await dialog.locator('[data-testid="agent-row"][data-name="misciting"]').waitFor({ timeout: 60_000 });
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      await openInSidebar(raft, /Consensus/);
      assert.equal(await page.locator('[data-testid="viewer-notice"]').innerText(), "", "what was said of the last quote went with it");
      await page.waitForFunction((s) => document.querySelector(`${s} [data-testid="agent-picker"] option[value="misciting"]`), sidebar);
      await page.locator(`${sidebar} [data-testid="agent-picker"]`).selectOption("misciting");
      const answers = page.locator(`${sidebar} [data-testid="msg-assistant"]`);
      const before = await answers.count();
      await page.locator(`${sidebar} [data-testid="composer-input"]`).fill("How long are election timeouts?");
      await page.locator(`${sidebar} [data-testid="composer-input"]`).press("Enter");
      await page.waitForFunction(
        ({ s, before }) => {
          const all = document.querySelectorAll(`${s} [data-testid="msg-assistant"]`);
          return all.length > before && all[all.length - 1].dataset.status !== "streaming";
        },
        { s: sidebar, before },
        { timeout: 90_000 },
      );
      const answer = answers.last();
      assert.equal(await answer.getAttribute("data-status"), "done");
      const chip = answer.locator('[data-testid="answer-text"] [data-testid="cite"]');
      assert.equal(await chip.count(), 1);
      await page.waitForFunction((s) => document.querySelector(`${s} [data-testid="msg-assistant"]:last-child [data-testid="cite"]`)?.dataset.verdict, sidebar, {
        timeout: 10_000,
      });
      assert.equal(await chip.getAttribute("data-verdict"), "wrong-page");
      assert.match(await chip.innerText(), /found on p\. 6/);
      assert.match(await answer.locator('[data-testid="check-summary"]').innerText(), /^1 citation: 1 on another page$/);
      await chip.scrollIntoViewIfNeeded();
      await shot(page, "evidence-8-real-wrong-page");
      await chip.click();
      await atPage(6);
      await waitForMarks(page, 6);
      assert.equal(fold(await markedText(page, 6)), fold(quote));
      await shot(page, "evidence-9-real-wrong-page-opened");

      // Reopened, the conversation shows the same check.
      await page.reload();
      await openInSidebar(raft, /Consensus/);
      const again = page.locator(`${sidebar} [data-testid="msg-assistant"]`).last().locator('[data-testid="answer-text"] [data-testid="cite"]');
      await again.waitFor();
      assert.equal(await again.getAttribute("data-verdict"), "wrong-page");
      assert.match(await again.innerText(), /found on p\. 6/);
    }),
  );
});
