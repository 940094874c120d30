// End to end in a real browser against the real backend (see harness.mjs):
// open a paper, select text, ask in the sidebar with the built-in agent,
// watch the answer stream, click a source and land on the cited page with
// the quote highlighted; then @-mention a second paper in Quick Chat and
// check that the plan grants it; the open paper's relations (a library card
// opens that paper, a DOI card the browser) and "What the agent sees" for
// both conversations; then the states that must say what happened: a
// source that no longer exists, an agent that is not set up; the per-turn
// agent picker (remembered per surface, falling back when the agent is
// removed); the reading budget in Settings; and the context documents
// editor in Settings (create, a refused front matter, delete); the MCP
// server for other apps switched on and off in Settings. Then, in a
// 1024×700 window, answers as Markdown and math, and hostile answers that
// must stay inert; the known agents in Settings and Test connection (its
// clock, Cancel, a login the agent needs); and an agent that behaves like
// Claude Code's ACP adapter
// (the scripted peer, PEER_STYLE=claude): its context tools allowed without
// asking, an edit of a vault file shown as a permission card that Reject
// ends, a citation link inside its Markdown answer that opens the page with
// the passage marked, a turn cancelled while its card waits, and all of it
// the same after the conversation is reopened.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { hostileAnswers, inertProblems, sampleAnswer, Sentinel } from "../../frontend/src/markdown/testdata/answers.mjs";
import { fold, guidance, markedPages, markedText, repo, shot, start, waitForMarks } from "./harness.mjs";

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

/**
 * askIn sends what is typed in a panel's question box (Enter) and waits for
 * the new answer to finish; it returns the answer's element.
 */
async function askIn(panel, timeout = 90_000) {
  const answers = page.locator(`${panel} [data-testid="msg-assistant"]`);
  const before = await answers.count();
  await page.locator(`${panel} [data-testid="composer-input"]`).press("Enter");
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

const relations = '[data-testid="relations"]';
const agentView = '[data-testid="agent-view"]';

/** card is a relation card in one of the panel's lists, by the ref of the library paper it names. */
function libraryCard(kind, ref) {
  return page.locator(`${relations} [data-testid="relations-${kind}"] [data-testid="relation-card"][data-ref="${ref}"]`);
}

/** openedPaper waits until the viewer shows the paper (the library marks it, the page count is its own). */
async function openedPaper(ref, pages) {
  await page.waitForFunction(
    ({ ref, pages }) =>
      document.querySelector(`[data-testid="library-item"][data-ref="${ref}"]`)?.getAttribute("aria-current") === "true" &&
      document.querySelector('[data-testid="page-count"]')?.textContent === `of ${pages}`,
    { ref, pages },
    { timeout: 20_000 },
  );
}

/** seeWhatAgentSees waits for "What the agent sees" to show a history containing text, and returns the dialog. */
async function seeWhatAgentSees(text) {
  const dialog = page.locator(agentView);
  await dialog.waitFor({ state: "visible" });
  await page.waitForFunction(
    ({ dialog, text }) => document.querySelector(`${dialog} pre[data-testid="history-text"]`)?.textContent.includes(text),
    { dialog: agentView, text },
    { timeout: 30_000 },
  );
  return dialog;
}

async function failShot(t, fn) {
  try {
    await fn();
  } catch (err) {
    await shot(page, `failure-${t.name.replace(/\W+/g, "-")}`).catch(() => {});
    throw err;
  }
}

test("research flow in a real browser", { timeout: 600_000 }, async (t) => {
  let selected = "";
  let citedPage = 0;
  let citedQuote = "";

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
      // The list shows the titles the index read from the PDFs.
      await page.waitForFunction(() => /Peer-to-Peer/.test(document.querySelector('[data-testid="library-item"][data-ref="papers/bitcoin"]')?.textContent ?? ""));
      // No paper is open yet: the relations panel says what it will show.
      assert.match(await page.locator('[data-testid="relations"]').innerText(), /Open a paper to see what it cites/);
      await shot(page, "0-library");
      // Record what the UI sends and what the backend streams.
      await page.evaluate(() => {
        const w = window;
        w.__asks = [];
        w.__events = [];
        w.__streamed = false;
        const ask = w.go.main.App.Ask;
        w.go.main.App.Ask = (req) => {
          w.__asks.push(JSON.parse(JSON.stringify(req)));
          return ask(req);
        };
        for (const name of ["agent:status", "agent:chunk", "agent:tool", "agent:completed", "agent:error"]) {
          w.runtime.EventsOn(name, (p) => w.__events.push({ name, ...p }));
        }
        new MutationObserver(() => {
          if (document.querySelector('[data-testid="msg-assistant"][data-status="streaming"]')) w.__streamed = true;
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"] });
      });
    }),
  );

  await t.test("the page's Content-Security-Policy holds: no eval, no inline script, no other origin; the app still works", () =>
    failShot(t, async () => {
      const got = await page.evaluate(async () => {
        const out = {};
        // Code evaluated by the test driver may eval (DevTools allows it);
        // a string timer runs as the page's own code, under its policy.
        window.__eval = false;
        setTimeout("window.__eval = true", 0);
        window.__inline = false;
        const s = document.createElement("script");
        s.textContent = "window.__inline = true";
        document.body.append(s);
        await new Promise((r) => setTimeout(r, 50));
        out.eval = window.__eval;
        out.inline = window.__inline;
        s.remove();
        try {
          await fetch("https://example.org/", { mode: "no-cors" });
          out.elsewhere = true;
        } catch {
          out.elsewhere = false;
        }
        // What the app itself needs: its own files and the bindings.
        out.ownFile = (await fetch("/pdfjs/standard_fonts/FoxitDingbats.pfb")).ok;
        out.bindings = Array.isArray(await window.go.main.App.Library());
        return out;
      });
      assert.deepEqual(got, { eval: false, inline: false, elsewhere: false, ownFile: true, bindings: true });
      // The refusals above are the only ones expected; drop them from the problems the run reports.
      env.problems.splice(0, env.problems.length, ...env.problems.filter((p) => !/Content Security Policy|example\.org/.test(p)));
    }),
  );

  await t.test("open a paper and select a passage: it becomes the anchor", () =>
    failShot(t, async () => {
      await page.click('[data-testid="library-item"][data-ref="papers/bitcoin"]');
      await page.waitForSelector('[data-page="1"] .textLayer span');
      await page.waitForFunction(() => document.querySelector('[data-testid="page-count"]')?.textContent === "of 9");
      selected = await page.evaluate(() => {
        const span = [...document.querySelectorAll('[data-page="1"] .textLayer span')].find((s) => s.textContent.includes("double-spending"));
        const range = document.createRange();
        range.selectNodeContents(span);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        return span.textContent.replace(/\s+/g, " ").trim();
      });
      assert.ok(selected.includes("double-spending"), selected);
      const anchor = page.locator(`${sidebar} [data-testid="anchor-current"]`);
      await anchor.waitFor();
      assert.match(await anchor.innerText(), /p\. 1/);
      assert.match(await page.locator(`${sidebar} [data-testid="chat-paper"]`).innerText(), /Bitcoin/);
      await page.waitForFunction((s) => document.querySelector(`${s} [data-testid="context-preview"]`)?.dataset.mode === "mcp", sidebar);
      await shot(page, "1-paper-selection");
    }),
  );

  await t.test("ask in the sidebar: the answer streams and carries the selection", () =>
    failShot(t, async () => {
      const input = page.locator(`${sidebar} [data-testid="composer-input"]`);
      await input.fill("How does the system prevent double spending?");
      const answer = await askIn(sidebar);
      assert.equal(await answer.getAttribute("data-status"), "done", await answer.innerText());

      const ask = await page.evaluate(() => window.__asks.at(-1));
      assert.equal(ask.conversationId, "paper.papers_bitcoin");
      assert.equal(ask.agent, "builtin", "the default agent is preselected");
      assert.equal(ask.request.surface, "sidebar");
      assert.equal(ask.request.currentPaper, "papers/bitcoin");
      assert.equal(ask.request.selections.length, 1);
      assert.equal(ask.request.selections[0].sourcePath, "papers/bitcoin/bitcoin.pdf");
      assert.equal(ask.request.selections[0].page, 1);
      assert.equal(ask.request.selections[0].text, selected);
      assert.ok(ask.request.selections[0].rects.length > 0, "the anchor has rects");

      const events = await page.evaluate(() => window.__events.filter((e) => e.conversationId === "paper.papers_bitcoin"));
      const chunks = events.filter((e) => e.name === "agent:chunk" && e.kind === "message");
      const done = events.find((e) => e.name === "agent:completed");
      assert.ok(chunks.length > 0, "the answer arrived in chunks");
      assert.ok(done?.sources?.length > 0, `agent:completed lists sources: ${JSON.stringify(events.map((e) => [e.name, e.sources]))}`);
      assert.ok(await page.evaluate(() => window.__streamed), "the UI showed the answer while it streamed");
      const text = await answer.locator('[data-testid="answer-text"]').innerText();
      assert.ok(text.includes(chunks[0].text.trim().split("\n")[0].slice(0, 40)), "the streamed text is in the answer");

      // The context indicator: what the turn could read, and the tool activity.
      const ctx = answer.locator('[data-testid="turn-context"]');
      assert.match(await ctx.innerText(), /Can read 1 paper/);
      assert.equal(await ctx.locator('li[data-ref="papers/bitcoin"]').count(), 1);
      assert.ok((await answer.locator('[data-testid="tools"] li').count()) > 0, "tool activity is shown");
      // The anchor was used up by the turn.
      assert.equal(await page.locator(`${sidebar} [data-testid="anchor-current"]`).count(), 0);
      await shot(page, "2-sidebar-answer");
    }),
  );

  await t.test("click a source: the viewer shows the cited page with the quote highlighted", () =>
    failShot(t, async () => {
      const answer = page.locator(`${sidebar} [data-testid="msg-assistant"]`).last();
      // Scroll away first so the jump is visible.
      await page.evaluate(() => (document.querySelector(".viewer-scroll").scrollTop = 0));
      const source = answer.locator('[data-testid="source"]').filter({ hasNotText: /p\. 1$/ }).first();
      const uri = await source.getAttribute("data-uri");
      citedPage = Number(/#page=(\d+)/.exec(uri)[1]);
      citedQuote = /Highlights “(.+)”/.exec((await source.getAttribute("title")) ?? "")?.[1] ?? "";
      assert.ok(citedQuote, "the answer quotes the passage next to this source");
      await source.click();
      await page.waitForFunction((n) => document.querySelector('[data-testid="page-input"]')?.value === String(n), citedPage, { timeout: 20_000 });
      await waitForMarks(page, citedPage);
      const visible = await page.evaluate((n) => {
        const m = document.querySelector(`[data-page="${n}"] .quote-mark`);
        const box = m.getBoundingClientRect();
        const view = document.querySelector(".viewer-scroll").getBoundingClientRect();
        return box.top >= view.top && box.bottom <= view.bottom && box.width > 0;
      }, citedPage);
      assert.ok(visible, "the highlighted quote is in view");
      // What is marked is the quote (the words under the marks, read from the text layer).
      const marked = await markedText(page, citedPage);
      assert.ok(fold(marked).length >= 12, `a real passage is marked: ${marked}`);
      assert.equal(fold(marked), fold(citedQuote), `marked “${marked}” is the quote “${citedQuote}”`);
      assert.deepEqual(Object.keys(await markedPages(page)), [String(citedPage)], "nothing else is marked");
      await shot(page, "3-source-opened");
    }),
  );

  await t.test("a second sidebar turn with a new grant starts a new session and says so", () =>
    failShot(t, async () => {
      const input = page.locator(`${sidebar} [data-testid="composer-input"]`);
      await input.fill("Compare with @papers/peercoin on double spending");
      const answer = await askIn(sidebar);
      assert.equal(await answer.getAttribute("data-status"), "done", await answer.innerText());
      const ask = await page.evaluate(() => window.__asks.at(-1));
      assert.deepEqual(ask.request.mentions, [{ kind: "paper", path: "papers/peercoin" }]);
      const ctx = answer.locator('[data-testid="turn-context"]');
      assert.equal(await ctx.locator('[data-testid="grant-changed"]').count(), 1, await ctx.innerText());
      assert.equal(await ctx.locator('li[data-ref="papers/peercoin"]').count(), 1);
    }),
  );

  await t.test("relations: the open paper's citing paper is listed, and its card opens it", () =>
    failShot(t, async () => {
      // Bitcoin is open: PPCoin cites it (its reference list names Bitcoin's title).
      const ppcoin = libraryCard("citedBy", "papers/peercoin");
      await ppcoin.waitFor({ timeout: 30_000 });
      assert.match(await ppcoin.innerText(), /PPCoin/);
      assert.match(await ppcoin.innerText(), /matched by title/);
      assert.equal(await ppcoin.evaluate((el) => el.tagName), "BUTTON");
      const citedBy = page.locator(`${relations} [data-testid="relations-citedBy"]`);
      assert.equal(await citedBy.locator('[data-testid="relations-count"]').innerText(), "1");
      // Bitcoin's own references are outside the library, with no DOI or arXiv id: listed, not clickable.
      const refs = page.locator(`${relations} [data-testid="relations-references"] [data-testid="relation-card"]`);
      assert.ok((await refs.count()) > 0, "Bitcoin's references are listed");
      const inert = refs.filter({ hasText: /Hashcash/ });
      assert.equal(await inert.getAttribute("data-action"), "none");
      assert.equal(await inert.evaluate((el) => el.tagName), "DIV");
      assert.match(await inert.innerText(), /not in your library, no DOI\/arXiv id/);
      // A list collapses and opens again, keeping its count.
      const refsHead = page.locator(`${relations} [data-testid="relations-kind"][data-kind="references"]`);
      await refsHead.click();
      assert.equal(await refsHead.getAttribute("aria-expanded"), "false");
      assert.equal(await refs.first().isVisible(), false);
      await refsHead.click();
      assert.equal(await refs.first().isVisible(), true);
      await shot(page, "8-relations");

      await ppcoin.click();
      await openedPaper("papers/peercoin", 6);
      assert.match(await page.locator(`${sidebar} [data-testid="chat-paper"]`).innerText(), /PPCoin/);
      // The panel follows the open paper: PPCoin's references list Bitcoin, in the library.
      const bitcoin = libraryCard("references", "papers/bitcoin");
      await bitcoin.waitFor();
      assert.match(await bitcoin.innerText(), /Bitcoin/);
      assert.equal(await bitcoin.getAttribute("data-match"), "title");
      assert.match(await bitcoin.innerText(), /in your library/);
    }),
  );

  await t.test("relations: a new citation sidecar reloads the panel; a DOI card opens the browser", () =>
    failShot(t, async () => {
      await page.evaluate(() => {
        const w = window;
        w.__external = [];
        w.go.main.App.OpenExternal = async (url) => void w.__external.push(url);
      });
      // Another tool's citation sidecar (SPEC §5): the library changes, the panel reloads.
      const source = join(env.vault, "papers", "peercoin", "source");
      mkdirSync(source, { recursive: true });
      const citations = [
        { id: "c1", metadata: { title: "Bitcoin: A Peer-to-Peer Electronic Cash System", year: 2008 }, status: "unresolved" },
        { id: "c2", metadata: { title: "Impossibility of distributed consensus with one faulty process", year: 1985, doi: "10.1145/3149.214121" }, status: "resolved" },
        { id: "c3", metadata: { title: "A letter nobody can find", year: 1999 }, status: "unresolved" },
      ];
      writeFileSync(
        join(source, "agentero-cite.json"),
        JSON.stringify({ schemaVersion: 1, source: { mode: "e2e", generatedAt: "2024-01-01T00:00:00Z", fingerprint: "e2e" }, citations, messages: [] }),
      );
      const refs = page.locator(`${relations} [data-testid="relations-references"] [data-testid="relation-card"]`);
      const doi = refs.filter({ hasText: /Impossibility of distributed consensus/ });
      await doi.waitFor({ timeout: 30_000 });
      assert.equal(await refs.count(), 3, (await refs.allInnerTexts()).join("\n"));
      assert.match(await doi.innerText(), /DOI 10\.1145\/3149\.214121/);
      assert.match(await doi.innerText(), /opens doi\.org/);
      const letter = refs.filter({ hasText: /A letter nobody can find/ });
      assert.equal(await letter.getAttribute("data-action"), "none");
      assert.match(await letter.innerText(), /not in your library, no DOI\/arXiv id/);
      await doi.click();
      await page.waitForFunction(() => window.__external.length > 0);
      assert.deepEqual(await page.evaluate(() => window.__external), ["https://doi.org/10.1145/3149.214121"]);
      await shot(page, "9-relations-sidecar");
    }),
  );

  await t.test("relations: keyboard only, a library card opens its paper", () =>
    failShot(t, async () => {
      await page.keyboard.press("Control+Shift+L");
      const head = page.locator(`${relations} [data-testid="relations-kind"][data-kind="references"]`);
      assert.ok(await head.evaluate((el) => el === document.activeElement), "the panel has the focus");
      await page.keyboard.press("ArrowDown");
      const bitcoin = libraryCard("references", "papers/bitcoin");
      assert.ok(await bitcoin.evaluate((el) => el === document.activeElement), "Down reaches the first card");
      await page.keyboard.press("Enter");
      await openedPaper("papers/bitcoin", 9);
      await libraryCard("citedBy", "papers/peercoin").waitFor();
    }),
  );

  await t.test("what the agent sees: the paper's conversation, as a new session would be handed it", () =>
    failShot(t, async () => {
      await page.evaluate(() => {
        const w = window;
        w.__copied = [];
        w.runtime.ClipboardSetText = async (text) => (w.__copied.push(text), true);
      });
      await page.locator(`${sidebar} [data-testid="agent-view-open"]`).click();
      const dialog = await seeWhatAgentSees("How does the system prevent double spending?");
      assert.match(await dialog.locator('[data-testid="agent-view-conversation"]').innerText(), /Bitcoin/);
      assert.match(await dialog.locator('[data-testid="agent-view-note"]').innerText(), /transcript itself is never changed/);
      // The base context was frozen with the vault's AGENTS.md in it.
      const snapshot = dialog.locator('[data-testid="snapshot-text"]');
      assert.match(await snapshot.innerText(), new RegExp(guidance.replace(/\./g, "\\.")));
      // Two short turns: nothing to compact.
      const summary = await dialog.locator('[data-testid="compaction-summary"]').innerText();
      assert.match(summary, /Tiers applied: none/);
      assert.match(summary, /Turns: 2 whole, 0 pruned, 0 summarized/);
      assert.match(summary, /Tokens: about [\d,]+ → [\d,]+ of a [\d,]+-token window/);
      const history = dialog.locator('pre[data-testid="history-text"]');
      assert.match(await history.innerText(), /Compare with @papers\/peercoin/);
      assert.equal(await history.evaluate((el) => getComputedStyle(el).fontFamily.includes("mono")), true, "monospace");
      assert.match(await dialog.locator('[data-testid="transcript-path"]').innerText(), /transcript\.jsonl$/);
      await dialog.locator('[data-testid="copy-history"]').click();
      await dialog.locator('[data-testid="copy-history"]', { hasText: "Copied" }).waitFor();
      assert.equal(await page.evaluate(() => window.__copied.at(-1)), await history.evaluate((el) => el.textContent));
      await shot(page, "10-what-the-agent-sees");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      // The keyboard shortcut opens it too.
      await page.keyboard.press("Control+Shift+A");
      await seeWhatAgentSees("How does the system prevent double spending?");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    }),
  );

  await t.test("slash commands: / lists /compact and /clear; /compact says what it kept, /clear starts over, the transcript kept", () =>
    failShot(t, async () => {
      const input = page.locator(`${sidebar} [data-testid="composer-input"]`);
      const commands = page.locator(`${sidebar} [data-testid="slash-command"]`);
      const result = page.locator(`${sidebar} [data-testid="command-result"]`);
      const answers = page.locator(`${sidebar} [data-testid="msg-assistant"]`);
      const turnsBefore = await answers.count();
      await input.fill("/");
      await commands.first().waitFor();
      const names = await commands.evaluateAll((els) => els.map((el) => el.dataset.command));
      assert.ok(names.includes("compact") && names.includes("clear"), names.join(" "));
      // Typing narrows the list; Enter picks, Enter again runs it.
      await input.fill("/comp");
      await page.locator(`${sidebar} [data-testid="slash-command"][data-command="compact"]`).waitFor();
      assert.equal(await commands.count(), 1);
      await input.press("Enter");
      assert.equal(await input.inputValue(), "/compact ");
      await input.press("Enter");
      await result.filter({ hasText: "Compacted" }).waitFor({ timeout: 60_000 });
      assert.match(await result.innerText(), /kept turns [\d–, ]+ whole.*the transcript is unchanged/s);
      assert.equal(await input.inputValue(), "", "the command is not left in the box");
      assert.equal(await answers.count(), turnsBefore, "a command is not a turn");
      // The next turn is a new session, handed the compacted history.
      await input.fill("What is a timestamp server?");
      let answer = await askIn(sidebar);
      assert.equal(await answer.getAttribute("data-status"), "done", await answer.innerText());
      await page.keyboard.press("Control+Shift+A");
      let dialog = await seeWhatAgentSees("What is a timestamp server?");
      const last = dialog.locator('[data-testid="agent-view-last-turn"]');
      assert.match(await last.locator('[data-testid="last-prompt-session"]').innerText(), /Session new/);
      assert.match(await last.locator('[data-testid="last-prompt-handover"] pre').textContent(), /double spending/);
      assert.match(await last.locator('[data-testid="last-prompt-plan"] pre').textContent(), /<agentero-context>/);
      assert.ok((await last.locator('[data-testid="last-turn-tool"]').count()) > 0, "the turn's tool calls are shown");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });

      // /clear: the next turn is a new session handed nothing of before.
      await input.fill("/clear");
      await page.locator(`${sidebar} [data-testid="slash-command"][data-command="clear"]`).waitFor();
      await input.press("Escape");
      await input.press("Enter");
      await result.filter({ hasText: "Cleared" }).waitFor({ timeout: 30_000 });
      assert.match(await result.innerText(), /transcript keeps every turn/);
      const shown = await answers.count();
      assert.ok(shown > 0, "the thread still shows the earlier turns");
      await input.fill("What is proof-of-work?");
      answer = await askIn(sidebar);
      assert.equal(await answer.getAttribute("data-status"), "done", await answer.innerText());
      await page.keyboard.press("Control+Shift+A");
      dialog = await seeWhatAgentSees("What is proof-of-work?");
      assert.match(await last.locator('[data-testid="last-prompt-session"]').innerText(), /Session new/);
      assert.equal(await last.locator('[data-testid="last-prompt-handover"]').count(), 0, "a cleared conversation hands nothing over");
      assert.match(await last.locator('[data-testid="last-prompt-question"] pre').textContent(), /What is proof-of-work\?/);
      await shot(page, "10b-last-turn-as-sent");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    }),
  );

  await t.test("Quick Chat: nothing pointed at is prompt-only; an @-mentioned paper is granted", () =>
    failShot(t, async () => {
      await page.keyboard.press("Control+k");
      const panel = page.locator(quick);
      await panel.waitFor({ state: "visible" });
      assert.match(await panel.innerText(), /Ctrl\+K/);
      const input = panel.locator('[data-testid="composer-input"]');
      assert.ok(await input.evaluate((el) => el === document.activeElement), "the question box has focus");

      // Leave the open paper out: nothing is pointed at, and the box says so before sending.
      await panel.locator('[data-testid="quick-paper-toggle"]').click();
      const preview = panel.locator('[data-testid="context-preview"]');
      await page.waitForFunction((q) => document.querySelector(`${q} [data-testid="context-preview"]`)?.dataset.mode === "prompt-only", quick);
      assert.match(await preview.innerText(), /^Prompt only/);

      // @-mention the second paper through completion.
      await input.click();
      await input.pressSequentially("What does @peer", { delay: 20 });
      const option = panel.locator('[data-testid="completion"][data-path="papers/peercoin"]');
      await option.waitFor();
      // "peer" also matches Bitcoin's title; walk the list with the keyboard to PPCoin.
      for (let i = 0; i < 8 && (await option.getAttribute("aria-selected")) !== "true"; i++) await input.press("ArrowDown");
      assert.equal(await option.getAttribute("aria-selected"), "true");
      await shot(page, "4-quick-chat-mention");
      await input.press("Enter");
      await panel.locator('[data-testid="mention-chip"][data-path="papers/peercoin"]').waitFor();
      await page.waitForFunction((q) => document.querySelector(`${q} [data-testid="context-preview"]`)?.dataset.allowed === "papers/peercoin", quick);
      assert.match(await preview.innerText(), /Can read 1 paper: PPCoin/);

      const plan = await page.evaluate(() =>
        window.go.main.App.PreviewPlan({ surface: "quickChat", selections: [], mentions: [{ kind: "paper", path: "papers/peercoin" }], remote: false }),
      );
      assert.equal(plan.mode, "mcp");
      assert.deepEqual(plan.allowed, [{ kind: "paper", ref: "papers/peercoin" }]);

      await input.pressSequentially(" say about proof of stake?");
      const answer = await askIn(quick);
      assert.equal(await answer.getAttribute("data-status"), "done", await answer.innerText());
      const ask = await page.evaluate(() => window.__asks.at(-1));
      assert.equal(ask.conversationId, "quick.1");
      assert.equal(ask.request.surface, "quickChat");
      assert.equal(ask.request.currentPaper, undefined);
      assert.deepEqual(ask.request.mentions, [{ kind: "paper", path: "papers/peercoin" }]);
      const ctx = answer.locator('[data-testid="turn-context"]');
      assert.equal(await ctx.locator('li[data-ref="papers/peercoin"]').count(), 1, await ctx.innerText());
      assert.equal(await ctx.locator('li[data-ref="papers/bitcoin"]').count(), 0);
      assert.ok((await answer.locator('[data-testid="source"]').count()) > 0, "the answer has sources");
      await shot(page, "5-quick-chat-answer");
    }),
  );

  await t.test("what the agent sees: the Quick Chat conversation", () =>
    failShot(t, async () => {
      await page.locator(`${quick} [data-testid="agent-view-open"]`).click();
      const dialog = await seeWhatAgentSees("say about proof of stake?");
      assert.match(await dialog.locator('[data-testid="agent-view-conversation"]').innerText(), /Quick Chat 1/);
      assert.doesNotMatch(await dialog.locator('pre[data-testid="history-text"]').innerText(), /double spending/);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      assert.ok(await page.locator(quick).isVisible(), "Quick Chat stays open under the dialog");
    }),
  );

  await t.test("a source that no longer exists says so", () =>
    failShot(t, async () => {
      renameSync(join(env.vault, "papers", "peercoin"), join(env.vault, "peercoin-moved"));
      const answer = page.locator(`${quick} [data-testid="msg-assistant"]`).last();
      await answer.locator('[data-testid="source"]').first().click();
      await answer.locator(".source-missing").first().waitFor();
      assert.match(await answer.locator(".source-missing").first().innerText(), /no longer in the vault/);
      assert.match(await page.locator(".viewer-notice").innerText(), /no longer in the vault/);
      await page.keyboard.press("Escape");
      await page.locator(quick).waitFor({ state: "hidden" });
    }),
  );

  await t.test("an agent that is not set up: the error says so and offers a retry", () =>
    failShot(t, async () => {
      await page.keyboard.press("Control+,");
      const dialog = page.locator('[data-testid="settings"]');
      await dialog.waitFor({ state: "visible" });
      const builtin = dialog.locator('[data-testid="agent-row"][data-name="builtin"]');
      await builtin.waitFor();
      // Test connection starts the built-in agent and reports what it can do.
      await builtin.getByRole("button", { name: "Test connection" }).click();
      await builtin.locator(".agent-test.ok").waitFor({ timeout: 30_000 });
      assert.match(await builtin.locator(".agent-test").innerText(), /^Connected to /);
      assert.equal(await builtin.locator('[data-testid="check-abilities"] li', { hasText: "MCP over stdio" }).getAttribute("data-can"), "true");
      // The theme follows the system unless overridden.
      await dialog.getByLabel("Dark").check();
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
      await dialog.getByLabel("Follow the system").check();
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "light"); // headless Chromium prefers light
      await dialog.locator('[data-testid="agent-add"]').click();
      // An agent that exits before it answers initialize (the scripted peer, PEER_START=exit).
      await dialog.getByLabel("Name").fill("broken");
      await dialog.getByLabel("Command").fill(process.execPath);
      await dialog.getByLabel("Arguments").fill(join(repo, "test", "peeragent", "agent.mjs"));
      await dialog.getByLabel("Environment").fill("PEER_START=exit");
      await dialog.getByText("Use it for new questions").click();
      await dialog.getByRole("button", { name: "Save", exact: true }).click();
      // Save checks the agent first: it is saved only after the warning, with Save anyway.
      const anyway = dialog.locator('[data-testid="agent-save-anyway"]');
      await anyway.waitFor({ timeout: 30_000 });
      assert.match(await dialog.locator('[data-testid="check-problem"]').innerText(), /^Not saved: .*exited before answering initialize/);
      assert.equal(await dialog.locator('[data-testid="agent-row"][data-name="broken"]').count(), 0);
      await anyway.click();
      await dialog.locator('[data-testid="agent-row"][data-name="broken"]').waitFor();
      await shot(page, "6-settings");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });

      const input = page.locator(`${sidebar} [data-testid="composer-input"]`);
      await input.fill("Who wrote this paper?");
      const answer = await askIn(sidebar);
      assert.equal(await answer.getAttribute("data-status"), "error");
      const problem = answer.locator('[data-testid="turn-error"]');
      assert.equal(await problem.getAttribute("data-kind"), "not-configured", await problem.innerText());
      assert.match(await problem.innerText(), /isn’t set up/);
      assert.equal(await answer.locator('[data-testid="retry"]').count(), 1);
      // Nothing was picked in the sidebar: it follows the new default.
      assert.equal((await page.evaluate(() => window.__asks.at(-1))).agent, "broken");
      assert.equal(await page.locator(`${sidebar} [data-testid="agent-picker"]`).inputValue(), "broken");
      await shot(page, "7-agent-not-configured");
    }),
  );

  await t.test("the agent picker: a per-surface choice, used by Retry, falling back when the agent is removed", () =>
    failShot(t, async () => {
      const picker = page.locator(`${sidebar} [data-testid="agent-picker"]`);
      const options = await picker.locator("option").allInnerTexts();
      assert.deepEqual(options, ["Built-in agent", "broken (default)"]);
      // Pick the built-in agent for the sidebar and retry the failed question with it.
      await picker.selectOption("builtin");
      assert.equal(await page.evaluate(() => localStorage.getItem("agentero.agent.sidebar")), "builtin");
      const answers = page.locator(`${sidebar} [data-testid="msg-assistant"]`);
      const before = await answers.count();
      await answers.last().locator('[data-testid="retry"]').click();
      await page.waitForFunction(
        ({ sidebar, before }) => {
          const all = document.querySelectorAll(`${sidebar} [data-testid="msg-assistant"]`);
          return all.length > before && all[all.length - 1].dataset.status !== "streaming";
        },
        { sidebar, before },
        { timeout: 90_000 },
      );
      assert.equal(await answers.last().getAttribute("data-status"), "done", await answers.last().innerText());
      let ask = await page.evaluate(() => window.__asks.at(-1));
      assert.equal(ask.agent, "builtin");
      assert.equal(ask.question, "Who wrote this paper?");
      // Each answer says which agent gave it: the one that failed, then the built-in one.
      assert.equal(await answers.last().locator('[data-testid="msg-agent"]').innerText(), "Built-in agent");
      assert.equal(await answers.nth(before - 1).locator('[data-testid="msg-agent"]').innerText(), "broken");

      // Quick Chat keeps its own choice: still the default.
      await page.keyboard.press("Control+k");
      await page.locator(quick).waitFor({ state: "visible" });
      assert.equal(await page.locator(`${quick} [data-testid="agent-picker"]`).inputValue(), "broken");
      await page.keyboard.press("Escape");
      await page.locator(quick).waitFor({ state: "hidden" });

      // Make the built-in agent the default again, remember "broken" in the sidebar, then remove it in Settings.
      await page.keyboard.press("Control+,");
      const dialog = page.locator('[data-testid="settings"]');
      await dialog.waitFor({ state: "visible" });
      const builtin = dialog.locator('[data-testid="agent-row"][data-name="builtin"]');
      await builtin.getByRole("button", { name: "Make default" }).click();
      await builtin.locator(".badge", { hasText: "default" }).waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      await page.waitForFunction((s) => document.querySelector(`${s} [data-testid="agent-picker"] option[value="builtin"]`)?.textContent.includes("(default)"), sidebar);
      await picker.selectOption("broken");
      assert.equal(await page.evaluate(() => localStorage.getItem("agentero.agent.sidebar")), "broken");
      await page.keyboard.press("Control+,");
      await dialog.waitFor({ state: "visible" });
      await dialog.locator('[data-testid="agent-row"][data-name="broken"]').waitFor();
      page.once("dialog", (d) => void d.accept());
      await dialog.locator('[data-testid="agent-row"][data-name="broken"]').getByRole("button", { name: "Delete" }).click();
      await dialog.locator('[data-testid="agent-row"][data-name="broken"]').waitFor({ state: "detached" });
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });

      // The sidebar falls back to the default and says so.
      const fallback = page.locator(`${sidebar} [data-testid="agent-fallback"]`);
      await fallback.waitFor({ state: "visible" });
      assert.match(await fallback.innerText(), /“broken” is no longer set up, so the built-in agent \(the default\) answers instead/);
      assert.equal(await picker.inputValue(), "builtin");
      assert.deepEqual(await picker.locator("option").allInnerTexts(), ["Built-in agent (default)"]);
      assert.equal(await page.evaluate(() => localStorage.getItem("agentero.agent.sidebar")), null);
      await shot(page, "11-agent-fallback");
      await page.locator(`${sidebar} [data-testid="composer-input"]`).fill("What is proof-of-work for?");
      const answer = await askIn(sidebar);
      assert.equal(await answer.getAttribute("data-status"), "done", await answer.innerText());
      ask = await page.evaluate(() => window.__asks.at(-1));
      assert.equal(ask.agent, "builtin");
    }),
  );

  await t.test("settings: the reading budget is kept, and a bad value is refused next to the form", () =>
    failShot(t, async () => {
      const dialog = page.locator('[data-testid="settings"]');
      const full = dialog.locator('[data-testid="budget-fullChars"]');
      const error = dialog.locator('[data-testid="budget-error"]');
      const message = dialog.locator('[data-testid="budget-message"]');
      const defaults = await page.evaluate(() => window.go.main.App.DefaultSettings());

      await page.keyboard.press("Control+,");
      await dialog.waitFor({ state: "visible" });
      await page.waitForFunction(() => document.querySelector('[data-testid="budget-fullChars"]')?.value !== "");
      assert.equal(await full.inputValue(), String(defaults.budget.fullChars));
      assert.match(await dialog.locator('[data-testid="budget"]').innerText(), /Reading budget/);
      assert.match(await dialog.locator('[data-testid="budget-note"]').innerText(), /starts new agent sessions/);
      // Every value has its field and a one-line explanation.
      for (const key of Object.keys(defaults.budget)) {
        const input = dialog.locator(`[data-testid="budget-${key}"]`);
        assert.equal(await input.inputValue(), String(defaults.budget[key]), key);
        const help = await input.evaluate((el) => document.getElementById(el.getAttribute("aria-describedby").split(" ")[0])?.textContent ?? "");
        assert.ok(help.length > 20, `${key} is explained: ${help}`);
      }

      // Keyboard only: the label focuses the field; type a value and press Enter to save.
      await dialog.getByLabel("Full read characters").focus();
      assert.ok(await full.evaluate((el) => el === document.activeElement));
      await page.keyboard.press("Control+a");
      await page.keyboard.type("12000");
      await page.keyboard.press("Enter");
      await message.filter({ hasText: /^Saved\./ }).waitFor();
      assert.equal(await error.isVisible(), false);
      assert.equal((await page.evaluate(() => window.go.main.App.Settings())).budget.fullChars, 12000);
      // Later turns read with it: the plan carries the new budget.
      const plan = await page.evaluate(() =>
        window.go.main.App.PreviewPlan({ surface: "sidebar", currentPaper: "papers/bitcoin", selections: [], mentions: [], remote: false }),
      );
      assert.equal(plan.budget.fullChars, 12000);

      // Close and reopen: the saved value is shown.
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      await page.keyboard.press("Control+,");
      await dialog.waitFor({ state: "visible" });
      await page.waitForFunction(() => document.querySelector('[data-testid="budget-fullChars"]')?.value === "12000");
      assert.equal(await message.innerText(), "");

      // A value out of range is refused before Go is asked, next to the form.
      await full.fill("0");
      await dialog.locator('[data-testid="budget-save"]').click();
      await error.waitFor({ state: "visible" });
      assert.match(await error.innerText(), /Nothing was saved: one value is out of range/);
      assert.match(await dialog.locator("#budget-fullChars-problem").innerText(), /Full read characters must be a whole number from 1 to 200,000, not 0/);
      assert.equal(await full.getAttribute("aria-invalid"), "true");
      assert.ok(await full.evaluate((el) => el === document.activeElement), "the bad field has the focus");
      assert.equal((await page.evaluate(() => window.go.main.App.Settings())).budget.fullChars, 12000);
      await dialog.locator('[data-testid="budget"]').scrollIntoViewIfNeeded();
      await shot(page, "12-settings-budget-error");
      // The backend refuses it too, with the same rule.
      const refused = await page.evaluate(async (b) => {
        try {
          await window.go.main.App.SaveSettings({ budget: { ...b, fullChars: 0 } });
          return "";
        } catch (err) {
          return String(err?.message ?? err);
        }
      }, defaults.budget);
      assert.match(refused, /fullChars must be between 1 and 200000/);

      // Reset to defaults fills the form; Save keeps them.
      await dialog.locator('[data-testid="budget-reset"]').click();
      await page.waitForFunction((v) => document.querySelector('[data-testid="budget-fullChars"]')?.value === v, String(defaults.budget.fullChars));
      assert.equal(await error.isVisible(), false);
      assert.equal(await full.getAttribute("aria-invalid"), "false");
      await message.filter({ hasText: /Defaults filled in/ }).waitFor();
      await dialog.locator('[data-testid="budget-save"]').click();
      await message.filter({ hasText: /^Saved\./ }).waitFor();
      assert.deepEqual((await page.evaluate(() => window.go.main.App.Settings())).budget, defaults.budget);
      await dialog.locator('[data-testid="budget"]').scrollIntoViewIfNeeded();
      await shot(page, "13-settings-budget");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    }),
  );

  await t.test("settings: context documents are listed, created, refused with a bad trigger, and deleted", () =>
    failShot(t, async () => {
      const dialog = page.locator('[data-testid="settings"]');
      const section = dialog.locator('[data-testid="context-docs"]');
      const editor = section.locator('[data-testid="context-doc-editor"]');
      const source = section.locator('[data-testid="context-doc-source"]');
      const error = section.locator('[data-testid="context-doc-error"]');
      const message = section.locator('[data-testid="context-doc-message"]');
      const row = section.locator('[data-testid="context-doc-row"][data-id="citing.md"]');
      const folder = join(env.vault, ".agentero", "context");
      const file = join(folder, "citing.md");
      // A document with a typo in its front matter: listed as a problem, with why.
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, "typo.md"), "---\ndescription: Typo\ntrigger: allways\n---\nBody.\n");

      await page.keyboard.press("Control+,");
      await dialog.waitFor({ state: "visible" });
      const problem = section.locator('[data-testid="context-doc-problem"]', { hasText: "typo.md" });
      await problem.waitFor();
      assert.match(await problem.innerText(), /trigger "allways" is not one of always_on, model_decision, manual/);
      assert.equal(await row.count(), 0);

      // New document, keyboard only: the button, the file name (".md" is added), Enter to the editor, Ctrl+S.
      await section.locator('[data-testid="context-doc-new"]').focus();
      await page.keyboard.press("Enter");
      await editor.waitFor({ state: "visible" });
      const id = section.locator('[data-testid="context-doc-id"]');
      assert.ok(await id.evaluate((el) => el === document.activeElement), "the file name has the focus");
      assert.equal(await source.inputValue(), "---\ndescription: \ntrigger: manual\npriority: normal\n---\n");
      assert.match(await section.locator('[data-testid="context-doc-note"]').innerText(), /apply to new conversations; running ones keep the snapshot/);
      // A name outside the folder is refused before Go is asked.
      await page.keyboard.type("../citing");
      await page.keyboard.press("Control+s");
      await error.waitFor({ state: "visible" });
      assert.match(await error.innerText(), /stays inside the context folder/);
      assert.equal(await id.getAttribute("aria-invalid"), "true");
      await id.fill("citing");
      assert.equal(await error.isVisible(), false);
      await page.keyboard.press("Enter");
      assert.ok(await source.evaluate((el) => el === document.activeElement), "Enter moves to the editor");
      const text = "---\ndescription: How to cite in this vault\ntrigger: always_on\npriority: high\n---\nCite the page of every claim.\n";
      await source.fill(text);
      await source.press("Control+s");
      await message.filter({ hasText: /^Saved citing\.md/ }).waitFor();
      assert.equal(await error.isVisible(), false);
      await row.waitFor();
      assert.equal(await row.locator('[data-testid="context-doc-trigger"]').innerText(), "always on");
      assert.equal(await row.locator('[data-testid="context-doc-priority"]').innerText(), "high");
      assert.equal(await row.locator('[data-testid="context-doc-description"]').innerText(), "How to cite in this vault");
      assert.equal(readFileSync(file, "utf8"), text);
      const listed = await page.evaluate(() => window.go.main.App.ListContextDocs());
      assert.deepEqual(
        listed.docs.map((d) => [d.id, d.trigger, d.priority]),
        [["citing.md", "always_on", "high"]],
      );
      await editor.scrollIntoViewIfNeeded();
      await shot(page, "14-settings-context-doc");

      // An unknown trigger: the backend's reason next to the editor, nothing saved.
      await source.fill(text.replace("trigger: always_on", "trigger: sometimes"));
      await source.press("Control+s");
      await error.waitFor({ state: "visible" });
      assert.match(await error.innerText(), /^Not saved: .*trigger "sometimes" is not one of always_on, model_decision, manual/);
      assert.equal(await source.getAttribute("aria-invalid"), "true");
      assert.equal(readFileSync(file, "utf8"), text);
      assert.equal(await row.locator('[data-testid="context-doc-trigger"]').innerText(), "always on");
      await shot(page, "15-settings-context-doc-error");

      // Close the editor (discarding the refused change), then open the document again from the list.
      await section.locator('[data-testid="context-doc-close"]').focus();
      page.once("dialog", (d) => void d.accept()); // discard the unsaved change
      await page.keyboard.press("Enter");
      await editor.waitFor({ state: "hidden" });
      await row.getByRole("button").click();
      await page.waitForFunction(() => document.querySelector('[data-testid="context-doc-source"]')?.value.includes("always_on"));
      assert.equal(await error.isVisible(), false);

      // Delete, after confirming.
      let asked = "";
      page.once("dialog", (d) => {
        asked = d.message();
        void d.accept();
      });
      await section.locator('[data-testid="context-doc-delete"]').click();
      await row.waitFor({ state: "detached" });
      assert.match(asked, /Delete the context document citing\.md\?/);
      assert.equal(existsSync(file), false);
      assert.equal(await editor.isVisible(), false);

      rmSync(join(folder, "typo.md"));
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    }),
  );

  await t.test("settings: the MCP server for other apps is switched on, answers its token only, shows in the status bar, and stops", () =>
    failShot(t, async () => {
      const dialog = page.locator('[data-testid="settings"]');
      const section = dialog.locator('[data-testid="loopback"]');
      const note = page.locator('[data-testid="loopback-status"]');
      await page.keyboard.press("Control+,");
      await dialog.waitFor({ state: "visible" });
      await section.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => /^Off/.test(document.querySelector('[data-testid="loopback-state"]')?.textContent ?? ""));
      assert.equal(await note.isVisible(), false);

      // Keyboard: the checkbox switches it on, at a free port.
      await section.locator('[data-testid="loopback-enabled"]').focus();
      await page.keyboard.press("Space");
      await page.waitForFunction(() => /^On: serving /.test(document.querySelector('[data-testid="loopback-state"]')?.textContent ?? ""));
      const st = await page.evaluate(() => window.go.main.App.LoopbackStatus());
      assert.ok(st.running && st.port > 0 && st.url === `http://127.0.0.1:${st.port}/mcp`, JSON.stringify({ ...st, token: "…" }));
      await note.filter({ hasText: `MCP server on · 127.0.0.1:${st.port}` }).waitFor();
      // The token is hidden until asked for; the configurations carry it.
      assert.ok(!(await section.innerText()).includes(st.token));
      await section.locator('[data-testid="loopback-config-cursor-http"] summary').click();
      assert.ok((await section.locator('[data-testid="loopback-config-cursor-http"] pre').innerText()).includes(`Bearer ${st.token}`));
      await shot(page, "16-settings-mcp-server");

      // A client of the user's (this test, outside the page) reads the vault with the token; without it, 401.
      const post = (headers, body) =>
        fetch(st.url, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify(body),
        });
      const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_papers", arguments: {} } };
      assert.equal((await post({}, call)).status, 401);
      assert.equal((await post({ Authorization: `Bearer ${st.token}`, Origin: "https://evil.example" }, call)).status, 403);
      const res = await post({ Authorization: `Bearer ${st.token}`, "Mcp-Protocol-Version": "2025-06-18" }, call);
      assert.equal(res.status, 200);
      const got = await res.json();
      const library = await page.evaluate(() => window.go.main.App.Library());
      assert.equal(JSON.parse(got.result.content[0].text).total, library.length);
      // The page itself cannot reach it: its policy allows no other origin.
      const fromPage = await page.evaluate(async (url) => {
        try {
          await fetch(url, { method: "POST", body: "{}" });
          return "reached";
        } catch {
          return "blocked";
        }
      }, st.url);
      assert.equal(fromPage, "blocked");
      env.problems.splice(0, env.problems.length, ...env.problems.filter((p) => !/Content Security Policy|127\.0\.0\.1/.test(p)));

      // Switched off: it stops, and the status bar note goes.
      await section.locator('[data-testid="loopback-enabled"]').click();
      await page.waitForFunction(() => /^Off/.test(document.querySelector('[data-testid="loopback-state"]')?.textContent ?? ""));
      await note.waitFor({ state: "hidden" });
      await assert.rejects(post({ Authorization: `Bearer ${st.token}` }, call));
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    }),
  );

  await t.test("edit details: a bad value is refused in a sentence, Escape cancels, a save shows in the library and marks metadata.json", () =>
    failShot(t, async () => {
      await page.click('[data-testid="library-item"][data-ref="papers/bitcoin"]');
      await openedPaper("papers/bitcoin", 9);
      const editor = page.locator('[data-testid="metadata-editor"]');
      const title = page.locator('[data-testid="metadata-title"]');
      const year = page.locator('[data-testid="metadata-year"]');
      // Ctrl+Shift+E opens it on the open paper, filled from what the index read
      await page.keyboard.press("Control+Shift+E");
      await editor.waitFor({ state: "visible" });
      await page.waitForFunction(() => /Bitcoin/.test(document.querySelector('[data-testid="metadata-title"]')?.value ?? ""));
      assert.equal(await year.inputValue(), "2009");
      assert.match(await page.locator('[data-testid="metadata-authors"]').inputValue(), /^Satoshi Nakamoto$/);
      // Escape cancels: nothing is written
      await title.fill("Not saved");
      await page.keyboard.press("Escape");
      await editor.waitFor({ state: "hidden" });
      assert.equal(existsSync(join(env.vault, "papers", "bitcoin", "metadata.json")), false);
      // the button beside the title opens it again, as the index has it
      await page.click('[data-testid="edit-details"]');
      await editor.waitFor({ state: "visible" });
      await page.waitForFunction(() => /Bitcoin/.test(document.querySelector('[data-testid="metadata-title"]')?.value ?? ""));
      await year.fill("12");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelector('[data-testid="metadata-year-error"]')?.textContent === "The year must be four digits, such as 2017.");
      assert.equal(await year.getAttribute("aria-invalid"), "true");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "metadata-year");
      await year.fill("2009");
      await page.locator('[data-testid="metadata-tags"]').fill("proof of work, currencies");
      await title.fill("Bitcoin: A Peer-to-Peer Electronic Cash System (white paper)");
      await page.locator('[data-testid="metadata-save"]').click();
      await editor.waitFor({ state: "hidden" });
      await page.waitForFunction(() => /\(white paper\)/.test(document.querySelector('[data-testid="library-item"][data-ref="papers/bitcoin"]')?.textContent ?? ""));
      const saved = JSON.parse(readFileSync(join(env.vault, "papers", "bitcoin", "metadata.json"), "utf8"));
      assert.deepEqual(saved.edited, ["tags", "title"]);
      assert.deepEqual(saved.tags, ["proof of work", "currencies"]);
      assert.equal(saved.source.title, "user");
      await shot(page, "metadata-editor-saved");
    }),
  );
});

const raft = "papers/in-search-of-an-understandable-consensus-algorithm";
const raftPdf = `${raft}/in-search-of-an-understandable-consensus-algorithm.pdf`;

/**
 * emitTurn plays a turn of an agent into the UI as the backend's events
 * would (status, the text in chunks, completed), for answers no agent of
 * the suite writes; nothing reaches an agent or the stored conversation.
 */
async function emitTurn(conversationId, turn, text, chunks = 7) {
  await page.evaluate(
    ({ conversationId, turn, text, chunks }) => {
      const emit = window.runtime.EventsEmit;
      const ids = { conversationId, messageId: turn };
      emit("agent:status", { ...ids, action: "new", note: "", mode: "prompt-only", allowed: [], fingerprint: "" });
      const step = Math.max(1, Math.ceil(text.length / chunks));
      for (let at = 0; at < text.length; at += step) emit("agent:chunk", { ...ids, kind: "message", text: text.slice(at, at + step) });
      emit("agent:completed", { conversationId, turnId: turn, messageId: `${turn}.a`, content: text, sources: [], consulted: [], stopReason: "end_turn", agent: "" });
    },
    { conversationId, turn, text, chunks },
  );
}

/** openPaper opens a library paper and waits for the sidebar to show its conversation. */
async function openPaperInSidebar(ref, title) {
  await page.click(`[data-testid="library-item"][data-ref="${ref}"]`);
  await page.waitForFunction(
    ({ sidebar, title }) => title.test(document.querySelector(`${sidebar} [data-testid="chat-paper"]`)?.textContent ?? ""),
    { sidebar, title },
  );
}

/** waitForCard waits for the newest answer of the sidebar to show a permission card that waits. */
async function waitForCard() {
  const card = page.locator(`${sidebar} [data-testid="msg-assistant"]`).last().locator('[data-testid="permission"][data-state="waiting"]');
  await card.waitFor({ timeout: 60_000 });
  return card;
}

test("answers from agents as they really behave", { timeout: 600_000 }, async (t) => {
  await page.setViewportSize({ width: 1024, height: 700 });

  await t.test("a Markdown answer with math renders in the thread", (st) =>
    failShot(st, async () => {
      // The vault is indexed (when this test runs alone).
      await page.waitForFunction(
        async () => {
          const papers = (await window.go?.main?.App?.Library?.()) ?? [];
          return papers.length >= 2 && papers.every((p) => p.status === "ok");
        },
        null,
        { timeout: 120_000, polling: 500 },
      );
      await openPaperInSidebar("papers/bitcoin", /Bitcoin/);
      // The stored conversation is on screen before a turn is played into it.
      await page.locator(`${sidebar} [data-testid="chat-messages"][data-phase="ready"]`).waitFor({ state: "attached" });
      await emitTurn("paper.papers_bitcoin", "sample-1", sampleAnswer.text);
      const answer = page.locator(`${sidebar} [data-testid="msg-assistant"]`).last();
      await page.waitForFunction((s) => document.querySelector(`${s} [data-testid="msg-assistant"]:last-child`)?.dataset.status === "done", sidebar);
      const text = answer.locator('[data-testid="answer-text"]');
      for (const [selector, n] of Object.entries(sampleAnswer.expect)) {
        assert.equal(await text.locator(selector).count(), n, selector);
      }
      assert.deepEqual(await page.evaluate(inertProblems, `${sidebar} [data-testid="msg-assistant"]:last-child [data-testid="answer-text"]`), []);
      // KaTeX's own styles are in the page: the formula is laid out, not raw TeX.
      const display = text.locator(".katex-display").first();
      assert.ok((await display.boundingBox()).height > 20, "the display formula is laid out");
      await answer.scrollIntoViewIfNeeded();
      await shot(page, "16-markdown-answer");
    }),
  );

  await t.test("hostile answers render inert in the real page", (st) =>
    failShot(st, async () => {
      await page.evaluate(() => {
        const w = window;
        w.__external = [];
        w.go.main.App.OpenExternal = async (url) => void w.__external.push(url);
      });
      const dialogs = [];
      const onDialog = (d) => (dialogs.push(d.message()), void d.dismiss());
      page.on("dialog", onDialog);
      const answers = page.locator(`${sidebar} [data-testid="msg-assistant"]`);
      const before = await answers.count();
      for (const [i, a] of hostileAnswers.entries()) await emitTurn("paper.papers_bitcoin", `hostile-${i}`, a.text, i % 2 ? 40 : 1);
      await page.waitForFunction(
        ({ sidebar, n }) => {
          const all = document.querySelectorAll(`${sidebar} [data-testid="msg-assistant"]`);
          return all.length === n && all[all.length - 1].dataset.status === "done";
        },
        { sidebar, n: before + hostileAnswers.length },
        { timeout: 60_000 },
      );
      // Hover, focus and "load" everything drawn, then give any payload the time to run.
      await page.evaluate((s) => {
        for (const el of document.querySelectorAll(`${s} [data-testid="answer-text"] *`)) {
          for (const type of ["mouseover", "focus", "load", "error", "toggle", "animationstart"]) el.dispatchEvent(new Event(type, { bubbles: true }));
        }
      }, sidebar);
      await new Promise((r) => setTimeout(r, 1000));
      const problems = await page.evaluate(inertProblems, `${sidebar} [data-testid="chat-messages"]`);
      assert.deepEqual(problems, []);
      assert.equal(await page.evaluate((name) => window[name], Sentinel), undefined, "the sentinel global stays unset");
      const live = await page.evaluate(() => ({
        on: [...document.querySelectorAll("*")].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `<${el.localName} ${a.name}>`)),
        javascript: [...document.querySelectorAll("[href]")].map((el) => el.getAttribute("href")).filter((h) => /^\s*javascript:/i.test(h)),
      }));
      assert.deepEqual(live, { on: [], javascript: [] });
      assert.deepEqual(dialogs, []);
      assert.deepEqual(await page.evaluate(() => window.__external), []);
      page.off("dialog", onDialog);
      await answers.nth(before).scrollIntoViewIfNeeded();
      await shot(page, "17-hostile-answers");
    }),
  );

  await t.test("settings: known agents, and Test connection with its deadline, Cancel and the login an agent needs", (st) =>
    failShot(st, async () => {
      const dialog = page.locator('[data-testid="settings"]');
      await page.keyboard.press("Control+,");
      await dialog.waitFor({ state: "visible" });
      const presets = dialog.locator('[data-testid="preset"]');
      await presets.first().waitFor();
      assert.deepEqual(await presets.evaluateAll((els) => els.map((e) => e.dataset.id)), ["claude", "gemini", "codex", "opencode", "goose"]);
      for (const p of await presets.all()) {
        assert.match(await p.locator('[data-testid="preset-found"]').innerText(), /^(found|not found) on PATH$/);
        assert.match(await p.locator('[data-testid="preset-install"]').innerText(), /^Install: .{10,}/);
        assert.match(await p.locator('[data-testid="preset-login"]').innerText(), /^Log in: .{10,}/);
      }
      const claude = presets.filter({ has: page.locator("strong", { hasText: "Claude Code" }) });
      assert.match(await claude.locator(".agent-command").innerText(), /claude-agent-acp/);
      await claude.getByRole("button", { name: "Add Claude Code…" }).click();
      assert.equal(await dialog.getByLabel("Name").inputValue(), "Claude Code");
      assert.match(await dialog.getByLabel("Arguments").inputValue(), /claude-agent-acp/);
      await presets.first().scrollIntoViewIfNeeded();
      await shot(page, "22-settings-presets");

      // An agent that never answers initialize: the clock runs against the deadline until Cancel.
      const peer = join(repo, "test", "peeragent", "agent.mjs");
      await dialog.getByLabel("Name").fill("hanging");
      await dialog.getByLabel("Command").fill(process.execPath);
      await dialog.getByLabel("Arguments").fill(peer);
      await dialog.getByLabel("Environment").fill("PEER_START=hang");
      const form = dialog.locator(".agent-form");
      await form.getByRole("button", { name: "Test connection" }).click();
      const result = form.locator('[data-testid="agent-form-result"]');
      await page.waitForFunction(() => /^[1-9]\d* s of at most 60 s$/.test(document.querySelector('[data-testid="agent-form-result"] [data-testid="check-clock"]')?.textContent ?? ""));
      await result.scrollIntoViewIfNeeded();
      await shot(page, "23-test-connection-running");
      const cancelled = Date.now();
      await result.locator('[data-testid="check-cancel"]').click();
      await result.locator('[data-testid="check-problem"]').waitFor({ timeout: 15_000 });
      assert.equal(await result.locator('[data-testid="check-problem"]').innerText(), "Cancelled: the agent was stopped.");
      assert.ok(Date.now() - cancelled < 15_000, "Cancel stops the test at once");

      // An agent that needs a login says so, naming how.
      await dialog.getByLabel("Name").fill("needs-login");
      await dialog.getByLabel("Environment").fill("PEER_START=auth");
      await form.getByRole("button", { name: "Test connection" }).click();
      await result.locator('[data-testid="check-problem"]').waitFor({ timeout: 60_000 });
      assert.match(await result.locator('[data-testid="check-problem"]').innerText(), /^Couldn’t connect: .*log in/i);
      await result.scrollIntoViewIfNeeded();
      await shot(page, "24-test-connection-login");
      await form.getByRole("button", { name: "Cancel", exact: true }).click();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    }),
  );

  await t.test("an agent that asks like Claude Code: its context tools are allowed, the edit waits for a card that Reject ends", (st) =>
    failShot(st, async () => {
      const edited = join(env.vault, "notes", "consensus", "raft.md");
      const original = readFileSync(edited, "utf8");
      // Added in Settings like any agent: Save checks it (initialize, session/new) first.
      const dialog = page.locator('[data-testid="settings"]');
      await page.keyboard.press("Control+,");
      await dialog.waitFor({ state: "visible" });
      await dialog.locator('[data-testid="agent-add"]').click();
      await dialog.getByLabel("Name").fill("claude-like");
      await dialog.getByLabel("Command").fill(process.execPath);
      await dialog.getByLabel("Arguments").fill(join(repo, "test", "peeragent", "agent.mjs"));
      await dialog.getByLabel("Environment").fill(`PEER_STYLE=claude\nPEER_EDIT=1\nPEER_EDIT_PATH=${edited}`);
      await dialog.getByRole("button", { name: "Save", exact: true }).click();
      await dialog.locator('[data-testid="agent-row"][data-name="claude-like"]').waitFor({ timeout: 60_000 });
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      await openPaperInSidebar(raft, /Consensus/);
      const picker = page.locator(`${sidebar} [data-testid="agent-picker"]`);
      await page.waitForFunction((s) => document.querySelector(`${s} [data-testid="agent-picker"] option[value="claude-like"]`), sidebar);
      await picker.selectOption("claude-like");
      await page.locator(`${sidebar} [data-testid="composer-input"]`).fill("How is a leader elected?");
      await page.locator(`${sidebar} [data-testid="composer-input"]`).press("Enter");

      const card = await waitForCard();
      const answer = page.locator(`${sidebar} [data-testid="msg-assistant"]`).last();
      assert.match(await card.locator('[data-testid="permission-title"]').innerText(), /^Edit .*raft\.md/);
      assert.equal(await card.locator('[data-testid="permission-kind"]').innerText(), "edit");
      assert.equal(await card.getAttribute("data-in-vault"), "true");
      assert.match(await card.locator('[data-testid="permission-outside"]').innerText(), /Outside this question’s grant/);
      assert.deepEqual(await card.locator('[data-testid="permission-option"]').allInnerTexts(), ["Always Allow", "Allow", "Reject"]);
      assert.equal(await card.locator('[data-testid="location"]').first().getAttribute("data-uri"), "notes/consensus/raft.md");
      // The focus is on Reject: the request reaches outside the turn's grant.
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.optionId), "reject");
      // The turn's own context tools were allowed without asking, and say so.
      const auto = answer.locator('[data-testid="permission-auto"]');
      assert.ok((await auto.count()) >= 1, "the context tools were decided without a card");
      assert.equal(await auto.first().innerText(), "allowed agentero-context search automatically");
      assert.equal(await answer.locator('[data-testid="permission"]').count(), 1, "only the edit became a card");
      assert.match(await answer.locator(".msg-progress").innerText(), /Waiting for your answer/);
      // The input is there, collapsed.
      const input = card.locator('[data-testid="permission-input"]');
      assert.equal(await input.evaluate((d) => d.open), false);
      await card.scrollIntoViewIfNeeded();
      await shot(page, "18-permission-card");

      // Keyboard only: the arrows move between the options, Enter answers.
      await page.keyboard.press("ArrowLeft");
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.optionId), "allow");
      await page.keyboard.press("ArrowRight");
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.optionId), "reject");
      await page.keyboard.press("Enter");
      await page.waitForFunction((s) => document.querySelector(`${s} [data-testid="msg-assistant"]:last-child`)?.dataset.status === "done", sidebar, { timeout: 60_000 });
      const decided = answer.locator('[data-testid="permission"]');
      assert.equal(await decided.getAttribute("data-state"), "selected");
      assert.equal(await decided.locator('[data-testid="permission-outcome"]').innerText(), "Rejected: you chose “Reject”.");
      assert.equal(await decided.locator('[data-testid="permission-option"]').count(), 0);
      assert.match(await answer.locator('[data-testid="answer-text"]').innerText(), /edit outcome: reject/);
      assert.equal(readFileSync(edited, "utf8"), original, "nothing was written");
      // The edit's tool call failed once it was rejected.
      const editTool = answer.locator('[data-testid="tool"][data-kind="edit"]');
      assert.equal(await editTool.getAttribute("data-status"), "failed");
    }),
  );

  await t.test("the agent's Markdown answer renders, and its citation link opens the page with the passage marked", (st) =>
    failShot(st, async () => {
      const answer = page.locator(`${sidebar} [data-testid="msg-assistant"]`).last();
      const text = answer.locator('[data-testid="answer-text"]');
      assert.equal(await text.locator("h2").innerText(), "What your papers say");
      assert.equal(await text.locator("ul > li").count(), 2);
      assert.ok((await text.locator("table tbody tr").count()) >= 1, "a table");
      assert.match(await text.locator("pre > code").innerText(), /^read through agentero-context\s*$/);

      // Tool activity: collapsed, expandable to the call's input and what it returned.
      const search = answer.locator('[data-testid="tool"]', { hasText: "mcp__agentero-context__context_search" }).first();
      assert.equal(await search.getAttribute("data-status"), "completed");
      const details = search.locator('[data-testid="tool-details"]');
      assert.equal(await details.evaluate((d) => d.open), false);
      await details.locator("summary").click();
      assert.match(await search.locator(".tool-input").innerText(), /"query"/);
      assert.match(await search.locator('[data-testid="tool-text"]').innerText(), /citationUri/);
      // The edit's diff, before and after.
      const editTool = answer.locator('[data-testid="tool"][data-kind="edit"]');
      await editTool.locator("summary").click();
      assert.match(await editTool.locator('[data-testid="tool-diff"] .diff-add').last().innerText(), /A note the agent would add\./);
      await editTool.scrollIntoViewIfNeeded();
      await shot(page, "19-tool-activity");

      // The chip of the link "[p. N](…)" inside the text.
      const chip = text.locator('[data-testid="cite"]').first();
      const uri = await chip.getAttribute("data-uri");
      assert.ok(uri.startsWith(`${raftPdf}#page=`), uri);
      const cited = Number(/#page=(\d+)/.exec(uri)[1]);
      await page.evaluate(() => (document.querySelector(".viewer-scroll").scrollTop = 0));
      await chip.click();
      await page.waitForFunction((n) => document.querySelector('[data-testid="page-input"]')?.value === String(n), cited, { timeout: 20_000 });
      await waitForMarks(page, cited);
      const marked = await markedText(page, cited);
      assert.ok(fold(marked).length >= 12, `a passage is marked: ${marked}`);
      // What is marked is the passage the search returned for that page: the answer quotes nothing there.
      const sources = answer.locator('[data-testid="sources"]');
      const quote = /Highlights “(.+)”/.exec((await sources.locator(`[data-testid="source"][data-uri="${uri}"]`).getAttribute("title")) ?? "")?.[1] ?? "";
      const cards = await search.locator('[data-testid="tool-text"]').innerText();
      const snippet = JSON.parse(cards).cards.find((c) => c.citationUri === uri)?.snippet ?? "";
      assert.ok(quote && fold(snippet).includes(fold(quote)), `the quote “${quote}” is the card's snippet: ${snippet}`);
      assert.equal(fold(marked), fold(quote), `marked “${marked}” is the quote “${quote}”`);
      await shot(page, "20-citation-link-opened");
      // The window keeps its layout at 1024×700: only the panes' own scrollers moved.
      assert.deepEqual(
        await page.evaluate(() => [document.scrollingElement.scrollTop, document.scrollingElement.scrollHeight, document.scrollingElement.scrollWidth]),
        [0, 700, 1024],
      );

      // Sources: the cited ones, and the rest on demand.
      assert.ok((await sources.locator('[data-testid="source"]').count()) >= 1, "the cited sources are listed");
      const consulted = sources.locator('[data-testid="consulted"]');
      if ((await consulted.count()) > 0) {
        assert.match(await consulted.locator("summary").innerText(), /^\d+ more consulted$/);
        assert.equal(await sources.locator('[data-testid="consulted-source"]').count(), 0);
        await consulted.locator("summary").click();
        assert.ok((await sources.locator('[data-testid="consulted-source"]').count()) >= 1);
      }
    }),
  );

  await t.test("cancelling a turn whose card waits answers it cancelled", (st) =>
    failShot(st, async () => {
      await page.locator(`${sidebar} [data-testid="composer-input"]`).fill("What happens when a leader fails?");
      await page.locator(`${sidebar} [data-testid="composer-input"]`).press("Enter");
      const waiting = await waitForCard();
      const card = page.locator(`${sidebar} [data-testid="permission"][data-request-id="${await waiting.getAttribute("data-request-id")}"]`);
      await page.locator(`${sidebar} [data-testid="cancel"]`).click();
      await page.waitForFunction((s) => document.querySelector(`${s} [data-testid="msg-assistant"]:last-child`)?.dataset.status !== "streaming", sidebar, {
        timeout: 60_000,
      });
      assert.equal(await card.getAttribute("data-state"), "cancelled");
      assert.equal(await card.locator('[data-testid="permission-outcome"]').innerText(), "Cancelled: the turn ended before an answer.");
    }),
  );

  await t.test("reopened, the conversation shows the same tool activity, decisions and sources", (st) =>
    failShot(st, async () => {
      const answers = page.locator(`${sidebar} [data-testid="msg-assistant"]`);
      const n = await answers.count();
      const answered = answers.nth(n - 2);
      const seen = {
        tools: await answered.locator('[data-testid="tool"]').evaluateAll((els) => els.map((e) => [e.querySelector(".tool-title").textContent, e.dataset.status])),
        auto: await answered.locator('[data-testid="permission-auto"]').allInnerTexts(),
        outcome: await answered.locator('[data-testid="permission-outcome"]').allInnerTexts(),
        sources: await answered.locator('[data-testid="source"]').evaluateAll((els) => els.map((e) => e.dataset.uri)),
        text: await answered.locator('[data-testid="answer-text"]').innerText(),
      };
      assert.equal(await answers.nth(n - 1).getAttribute("data-status"), "cancelled");
      await page.reload();
      await openPaperInSidebar(raft, /Consensus/);
      await answers.nth(n - 1).waitFor();
      assert.equal(await answers.count(), n);
      assert.equal(await answers.nth(n - 1).getAttribute("data-status"), "cancelled", "the cancelled turn reopens as cancelled, not done");
      const again = answers.nth(n - 2);
      assert.deepEqual(
        {
          tools: await again.locator('[data-testid="tool"]').evaluateAll((els) => els.map((e) => [e.querySelector(".tool-title").textContent, e.dataset.status])),
          auto: await again.locator('[data-testid="permission-auto"]').allInnerTexts(),
          outcome: await again.locator('[data-testid="permission-outcome"]').allInnerTexts(),
          sources: await again.locator('[data-testid="source"]').evaluateAll((els) => els.map((e) => e.dataset.uri)),
          text: await again.locator('[data-testid="answer-text"]').innerText(),
        },
        seen,
      );
      await again.scrollIntoViewIfNeeded();
      await shot(page, "21-reopened");
    }),
  );
});
