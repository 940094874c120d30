// End to end, as a new user would work in the window (see harness.mjs): the
// library sorted, filtered and crossed with the arrow keys; two
// conversations (a paper's, Quick Chat's) listed with their titles, agent
// and date, renamed, searched, reopened as they were (also after a reload)
// and deleted from disk; Quick Chat docked, left open when one of its
// sources opens the PDF; and at 1024×700 every control of the PDF's toolbar
// in view, panes resized with the keyboard, and a collapsed pane still
// collapsed after the app is quit and started again (the layout is kept by
// the backend in the user's configuration folder).

import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { shot, start } from "./harness.mjs";

let env;
let page;

before(async () => {
  env = await start();
  page = env.page;
});

after(async () => {
  if (env) {
    if (env.problems.length) console.log("browser problems:\n" + env.problems.join("\n"));
    await env.stop();
  }
});

const sidebar = '[data-testid="sidebar-chat"]';
const quick = '[data-testid="quick-chat"]';
const convs = '[data-testid="conversations"]';

async function failShot(t, fn) {
  try {
    await fn();
  } catch (err) {
    await shot(page, `ws-failure-${t.name.replace(/\W+/g, "-").slice(0, 60)}`).catch(() => {});
    throw err;
  }
}

async function askIn(panel, question, timeout = 90_000) {
  const answers = page.locator(`${panel} [data-testid="msg-assistant"]`);
  const before = await answers.count();
  const input = page.locator(`${panel} [data-testid="composer-input"]`);
  await input.click();
  await input.fill(question);
  await input.press("Enter");
  await page.waitForFunction(
    ({ panel, before }) => {
      const all = document.querySelectorAll(`${panel} [data-testid="msg-assistant"]`);
      return all.length > before && all[all.length - 1].dataset.status !== "streaming";
    },
    { panel, before },
    { timeout },
  );
  return answers.last();
}

/** answerText is an answer's text and sources, without the activity above it (tool calls open or closed). */
const answerText = (answer) => answer.evaluate((el) => [...el.children].filter((c) => !c.classList.contains("msg-top")).map((c) => c.innerText).join("\n"));

const rowRefs = () => page.$$eval('[data-testid="library-item"]', (els) => els.map((e) => e.dataset.ref));

test("working in the window", { timeout: 600_000 }, async (t) => {
  await t.test("the vault opens and indexes", () =>
    failShot(t, async () => {
      await page.waitForFunction(
        async () => {
          const papers = (await window.go?.main?.App?.Library?.()) ?? [];
          return papers.length === 3 && papers.every((p) => p.status === "ok");
        },
        null,
        { timeout: 120_000, polling: 500 },
      );
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="library-item"]').length === 3);
      // A user's metadata.json: authors and tags the filter must find (the watcher picks it up).
      writeFileSync(
        join(env.vault, "papers", "peercoin", "metadata.json"),
        JSON.stringify({ title: "PPCoin: Peer-to-Peer Crypto-Currency with Proof-of-Stake", authors: ["Sunny King", "Scott Nadal"], year: 2012, tags: ["proof-of-stake", "reading-group"] }),
      );
      await page.waitForFunction(
        async () => {
          const papers = (await window.go.main.App.Library()) ?? [];
          return papers.find((p) => p.ref === "papers/peercoin")?.tags?.includes("reading-group");
        },
        null,
        { timeout: 60_000, polling: 500 },
      );
      await page.waitForFunction(() => document.querySelector('[data-testid="library-item"][data-ref="papers/peercoin"]')?.textContent.includes("#reading-group"), null, { timeout: 10_000 });
    }),
  );

  await t.test("the library: sorted, filtered, crossed with the arrow keys in one tab stop", () =>
    failShot(t, async () => {
      const sort = page.locator('[data-testid="library-sort"]');
      const titles = () => page.$$eval('[data-testid="library-item"] .item-title', (els) => els.map((e) => e.textContent));
      await sort.selectOption("title");
      const byTitle = await titles();
      const strip = (s) => s.replace(/^(the|a|an)\s+/i, "");
      assert.deepEqual(byTitle, [...byTitle].sort((a, b) => strip(a).localeCompare(strip(b), "en", { sensitivity: "base", numeric: true })));
      await sort.selectOption("year");
      const years = await page.$$eval('[data-testid="library-item"]', (els) => els.map((e) => Number(e.dataset.year)));
      const known = years.filter((y) => y > 0);
      assert.deepEqual(known, [...known].sort((a, b) => b - a), `years newest first: ${years}`);
      await sort.selectOption("added");
      const added = await page.$$eval('[data-testid="library-item"]', (els) => els.map((e) => Number(e.dataset.added)));
      assert.ok(added.every((a) => a > 0), `every paper has the time it was added: ${added}`);
      assert.deepEqual(added, [...added].sort((a, b) => b - a));
      await sort.selectOption("title");

      const filter = page.locator('[data-testid="library-filter"]');
      await filter.fill("consensus");
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="library-item"]').length === 1);
      assert.deepEqual(await rowRefs(), ["papers/in-search-of-an-understandable-consensus-algorithm"]);
      assert.match(await page.locator('[data-testid="library-count"]').innerText(), /1 of 3 papers/);
      await filter.fill("nadal");
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="library-item"]').length === 1);
      assert.deepEqual(await rowRefs(), ["papers/peercoin"], "an author's name filters");
      await filter.fill("reading-group 2012");
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="library-item"]').length === 1);
      assert.deepEqual(await rowRefs(), ["papers/peercoin"], "a tag and a year filter");
      await filter.fill("no such paper");
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="library-item"]').length === 0);
      assert.match(await page.locator('[data-testid="library-count"]').innerText(), /No paper matches/);
      await filter.fill("");
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="library-item"]').length === 3);

      // One tab stop: from the sort box, Tab lands on the list; the next Tab leaves it.
      const order = await rowRefs();
      await sort.focus();
      await page.keyboard.press("Tab");
      const focused = () => page.evaluate(() => document.activeElement?.dataset?.ref ?? document.activeElement?.dataset?.testid ?? document.activeElement?.tagName);
      assert.equal(await focused(), order[0]);
      assert.equal(await page.$$eval('[data-testid="library-item"]', (els) => els.filter((e) => e.tabIndex === 0).length), 1);
      await page.keyboard.press("ArrowDown");
      assert.equal(await focused(), order[1]);
      await page.keyboard.press("End");
      assert.equal(await focused(), order[2]);
      await page.keyboard.press("ArrowDown");
      assert.equal(await focused(), order[2], "the last row stays");
      await page.keyboard.press("Home");
      assert.equal(await focused(), order[0]);
      await page.keyboard.press("Tab");
      assert.ok(!order.includes(await focused()), "Tab leaves the list at once");
      // Back into the list, to bitcoin, and Enter opens it.
      await sort.focus();
      await page.keyboard.press("Tab");
      const target = order.indexOf("papers/bitcoin");
      for (let i = 0; i < target; i++) await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelector('[data-testid="library-item"][data-ref="papers/bitcoin"]')?.getAttribute("aria-current") === "true");
      await page.waitForFunction(() => document.querySelector('[data-testid="page-count"]')?.textContent === "of 9", null, { timeout: 30_000 });
      const visibleRows = await page.$$eval('[data-testid="library-item"]', (els) => {
        const list = document.querySelector('[data-testid="library-list"]').closest(".library").getBoundingClientRect();
        return els.filter((e) => {
          const r = e.getBoundingClientRect();
          return r.height > 0 && r.top >= list.top - 1 && r.bottom <= list.bottom + 1;
        }).length;
      });
      assert.equal(visibleRows, 3, "every row of a small library is in view");
      await shot(page, "ws-1-library");
    }),
  );

  let paperAnswer = "";
  let quickAnswer = "";
  await t.test("two conversations, and Quick Chat stays open when its source opens the PDF", () =>
    failShot(t, async () => {
      await page.locator('[data-testid="dock-paper"]').click();
      const a = await askIn(sidebar, "How does proof-of-work prevent double spending?");
      assert.equal(await a.getAttribute("data-status"), "done", await a.innerText());
      paperAnswer = await answerText(a);

      await page.keyboard.press("Control+k");
      await page.locator(quick).waitFor({ state: "visible" });
      assert.ok(!(await page.locator(sidebar).isVisible()), "Quick Chat is docked where the paper's chat was");
      const q = await askIn(quick, "What is a timestamp server?");
      assert.equal(await q.getAttribute("data-status"), "done", await q.innerText());
      quickAnswer = await answerText(q);
      assert.ok(quickAnswer.length > 20, quickAnswer);
      const sources = q.locator('[data-testid="source"]');
      assert.ok((await sources.count()) > 0, "the Quick Chat answer has sources (the open paper is included)");
      await sources.first().click();
      await page.waitForFunction(() => document.querySelector('[data-testid="page-input"]')?.value !== "", null, { timeout: 20_000 });
      await page.waitForTimeout(500);
      assert.ok(await page.locator(quick).isVisible(), "Quick Chat is still open after its source opened");
      await shot(page, "ws-2-quick-docked");
    }),
  );

  await t.test("conversations: listed, renamed, searched, reopened as they were, deleted from disk", () =>
    failShot(t, async () => {
      await page.keyboard.press("Control+Shift+h");
      await page.locator(convs).waitFor({ state: "visible" });
      const items = page.locator(`${convs} [data-testid="conv-item"]`);
      await page.waitForFunction((c) => document.querySelectorAll(`${c} [data-testid="conv-item"]`).length === 2, convs);
      const paperItem = page.locator(`${convs} [data-testid="conv-item"][data-id="paper.papers_bitcoin"]`);
      const quickItem = page.locator(`${convs} [data-testid="conv-item"][data-id="quick.1"]`);
      assert.equal(await paperItem.locator('[data-testid="conv-title"]').innerText(), "How does proof-of-work prevent double spending?");
      assert.match(await paperItem.locator('[data-testid="conv-meta"]').innerText(), /About Bitcoin.*agent: builtin.*2 messages.*Today \d\d:\d\d/);
      assert.match(await quickItem.locator('[data-testid="conv-meta"]').innerText(), /^Quick Chat · agent: builtin/);
      assert.equal(await items.first().getAttribute("data-id"), "quick.1", "newest first");

      // Rename with the keyboard.
      await quickItem.locator('[data-testid="conv-rename"]').click();
      const input = quickItem.locator('[data-testid="conv-rename-input"]');
      await input.fill("Timestamp notes");
      await input.press("Enter");
      await page.waitForFunction((c) => document.querySelector(`${c} [data-id="quick.1"] [data-testid="conv-title"]`)?.textContent === "Timestamp notes", convs);
      const stored = await page.evaluate(() => window.go.main.App.Conversations(""));
      assert.equal(stored.find((c) => c.id === "quick.1").title, "Timestamp notes", "the title is stored");

      // Search titles and message text.
      const search = page.locator('[data-testid="conv-search"]');
      await search.fill("timestamp notes");
      await page.waitForFunction((c) => [...document.querySelectorAll(`${c} [data-testid="conv-item"]`)].map((e) => e.dataset.id).join() === "quick.1", convs);
      // Words of the paper's question; the other conversation is listed too only if its messages hold them all.
      await search.fill("prevent double spending");
      await page.waitForFunction((c) => [...document.querySelectorAll(`${c} [data-testid="conv-item"]`)].some((e) => e.dataset.id === "paper.papers_bitcoin"), convs);
      const found = await page.evaluate(() => window.go.main.App.Conversations("prevent double spending"));
      for (const c of found.filter((c) => c.id !== "paper.papers_bitcoin")) assert.match(c.match.toLowerCase(), /prevent|double|spending/, "a conversation found by its messages shows where");
      await search.fill("zebra quartz");
      await page.waitForFunction((c) => document.querySelectorAll(`${c} [data-testid="conv-item"]`).length === 0, convs);
      assert.match(await page.locator('[data-testid="conv-status"]').innerText(), /No conversation mentions/);
      await search.fill("");
      await page.waitForFunction((c) => document.querySelectorAll(`${c} [data-testid="conv-item"]`).length === 2, convs);
      await shot(page, "ws-3-conversations");

      // Reopen after a reload: the thread is as it was.
      await page.reload();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="library-item"]').length === 3, null, { timeout: 30_000 });
      await page.locator('[data-testid="dock-conversations"]').click();
      await page.locator(`${convs} [data-testid="conv-item"][data-id="quick.1"] [data-testid="conv-open"]`).click();
      await page.locator(quick).waitFor({ state: "visible" });
      const reopened = page.locator(`${quick} [data-testid="msg-assistant"]`).last();
      await reopened.waitFor();
      assert.equal(await reopened.getAttribute("data-status"), "done");
      assert.equal(await answerText(reopened), quickAnswer, "the answer reads as it did");
      assert.ok((await reopened.locator('[data-testid="source"]').count()) > 0, "with its sources");
      assert.equal(await page.locator(`${quick} [data-testid="msg-user"]`).last().innerText().then((s) => s.includes("What is a timestamp server?")), true);

      await page.locator('[data-testid="dock-conversations"]').click();
      await page.locator(`${convs} [data-testid="conv-item"][data-id="paper.papers_bitcoin"] [data-testid="conv-open"]`).click();
      await page.locator(sidebar).waitFor({ state: "visible" });
      await page.waitForFunction(() => document.querySelector('[data-testid="library-item"][data-ref="papers/bitcoin"]')?.getAttribute("aria-current") === "true");
      await page.waitForFunction((s) => document.querySelector(`${s} [data-testid="msg-assistant"]`) !== null, sidebar);
      assert.equal(await answerText(page.locator(`${sidebar} [data-testid="msg-assistant"]`).last()), paperAnswer, "the paper's thread reads as it did");

      // Delete: gone from the list, the window and the disk.
      const chatDir = join(env.vault, ".agentero", "chats", "paper.papers_bitcoin");
      assert.ok(existsSync(chatDir), "the conversation is on disk before it is deleted");
      await page.locator('[data-testid="dock-conversations"]').click();
      const item = page.locator(`${convs} [data-testid="conv-item"][data-id="paper.papers_bitcoin"]`);
      await item.locator('[data-testid="conv-delete"]').click();
      await item.locator('[data-testid="conv-delete-confirm"]').click();
      await item.waitFor({ state: "detached" });
      assert.ok(!existsSync(chatDir), "the transcript and its folder are gone from disk");
      const left = await page.evaluate(() => window.go.main.App.Conversations(""));
      assert.deepEqual(left.map((c) => c.id), ["quick.1"]);
      await page.locator('[data-testid="dock-paper"]').click();
      assert.equal(await page.locator(`${sidebar} [data-testid="msg-assistant"]`).count(), 0, "the paper's chat shows the conversation gone");
    }),
  );

  /** toolbarClipped names the PDF toolbar's controls out of view or covered, and gives the PDF pane's width. */
  const toolbarClipped = () =>
    page.evaluate(() => {
        const bar = document.querySelector(".viewer-toolbar");
        const box = bar.getBoundingClientRect();
        const out = [];
        for (const el of bar.querySelectorAll("button, input, select, [data-testid=page-count], [data-testid=zoom-level]")) {
          if (el.tagName === "SPAN" && el.textContent.trim() === "") continue;
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          const inView = r.width > 0 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 && r.right <= innerWidth && r.bottom <= innerHeight;
          if (!inView || !(hit === el || el.contains(hit))) out.push(el.getAttribute("aria-label") || el.textContent || el.tagName);
        }
        return { out, count: bar.querySelectorAll("button, input, select").length, width: document.querySelector(".viewer-host").getBoundingClientRect().width };
      });

  await t.test("at 1024×700: the toolbar whole, panes resized and collapsed, remembered across a restart", () =>
    failShot(t, async () => {
      await page.setViewportSize({ width: 1024, height: 700 });
      await page.waitForTimeout(300);
      const clipped = await toolbarClipped();
      assert.ok(clipped.count >= 5, `the toolbar has its controls (${clipped.count})`);
      assert.deepEqual(clipped.out, [], "every toolbar control is in view and not covered");
      assert.equal(await page.locator('[data-testid="page-count"]').innerText(), "of 9", "a paper is open");
      assert.ok(clipped.width >= 450, `the PDF pane is ${clipped.width}px wide`);
      // Five papers fit in the library's list at this size, each title on up to two lines (issue 27: one line cut them at ~25 characters).
      const fit = await page.evaluate(() => {
        const list = document.querySelector('[data-testid="library-list"]').closest(".library");
        const tools = list.querySelector(".library-tools").getBoundingClientRect().height + list.querySelector(".library-count").getBoundingClientRect().height;
        const row = document.querySelector('[data-testid="library-item"]').closest("li").getBoundingClientRect().height;
        return { rows: Math.floor((list.clientHeight - tools) / row), row, height: list.clientHeight };
      });
      assert.ok(fit.rows >= 5, `the library shows ${fit.rows} rows of ${fit.row}px in ${fit.height}px`);
      await shot(page, "ws-4-1024x700");

      // The chat's splitter, with the keyboard: ArrowLeft widens the chat.
      const chatWidth = () => page.evaluate(() => document.querySelector(".chat-host").getBoundingClientRect().width);
      const w0 = await chatWidth();
      await page.locator('[data-testid="splitter-chat"]').focus();
      await page.keyboard.press("ArrowLeft");
      await page.waitForFunction((w) => document.querySelector(".chat-host").getBoundingClientRect().width === w + 24, w0);

      // Collapse the library: the PDF gets its room and refits to it.
      const pageWidth = () => page.evaluate(() => document.querySelector('[data-page="1"]').getBoundingClientRect().width);
      const p0 = await pageWidth();
      await page.locator('[data-testid="toggle-library"]').click();
      await page.locator(".sidebar").waitFor({ state: "hidden" });
      await page.waitForFunction((p) => document.querySelector('[data-page="1"]').getBoundingClientRect().width > p + 100, p0, { timeout: 20_000 });
      assert.equal(await page.locator('[data-testid="toggle-library"]').getAttribute("aria-pressed"), "false");
      await page.waitForTimeout(600); // the layout is saved after a short pause
      const saved = await page.evaluate(() => window.go.main.App.Layout());
      assert.equal(saved.collapsed.library, true, "the backend keeps the collapsed library");
      assert.equal(saved.sizes.chat, w0 + 24);

      const layoutFile = join(env.root, "home", ".config", "agentero", "layout.json");
      assert.equal(JSON.parse(readFileSync(layoutFile, "utf8")).collapsed.library, true, `${layoutFile} keeps the collapsed library`);

      // Quit the app and start it again on the same configuration folder and
      // vault, then open the paper through a link (as a user clicking one
      // would): what survives is the backend's file, not the browser's storage.
      // The link is handed to the running app rather than given at its start:
      // the dev build's own WebKit window would race this page for a launch
      // link, which the app hands to the first window that asks.
      await page.evaluate(() => localStorage.removeItem("agentero.layout"));
      const before = await page.evaluate(() => window.go.main.App.Library().then((ps) => ps.map((p) => p.ref).sort().join()));
      const pid = env.pid();
      await env.restart(["--vault", env.vault]);
      assert.notEqual(env.pid(), pid, "a new app process serves the window");
      await page.waitForFunction(() => document.querySelector(".viewer-toolbar") !== null, null, { timeout: 30_000 });
      // The library is listed before the window listens for links.
      await page.locator('[data-testid="library-item"]').first().waitFor({ state: "attached", timeout: 30_000 });
      const handed = await env.launch([`agentero://open?vault=${encodeURIComponent(env.vault)}&ref=papers/bitcoin&page=1`]);
      assert.equal(handed.code, 0, `the second launch hands the link over: ${handed.out}`);
      await page.waitForFunction(() => document.querySelector('[data-testid="page-count"]')?.textContent === "of 9", null, { timeout: 60_000 });
      assert.equal(await page.evaluate(() => window.go.main.App.Library().then((ps) => ps.map((p) => p.ref).sort().join())), before, "the same vault is open");
      assert.equal(await page.evaluate(() => document.querySelector(".sidebar")?.hidden), true, "the library is still collapsed");
      assert.equal(await page.locator('[data-testid="toggle-library"]').getAttribute("aria-pressed"), "false");
      await page.waitForFunction((w) => document.querySelector(".chat-host").getBoundingClientRect().width === w + 24, w0);
      assert.deepEqual(page.viewportSize(), { width: 1024, height: 700 });
      await page.waitForTimeout(300);
      const after = await toolbarClipped();
      assert.equal(after.count, clipped.count, "the same toolbar");
      assert.deepEqual(after.out, [], "after the restart every toolbar control is in view and not covered");
      assert.ok(after.width > clipped.width + 100, `the PDF pane has the library's room: ${after.width}px (was ${clipped.width}px)`);
      await shot(page, "ws-5-collapsed-after-restart");

      // Enter on the library's splitter brings it back.
      await page.locator('[data-testid="splitter-library"]').focus();
      await page.keyboard.press("Enter");
      await page.locator(".sidebar").waitFor({ state: "visible" });
    }),
  );
});
