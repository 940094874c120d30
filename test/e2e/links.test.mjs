// Issue 15 in a real browser against the real backend: an answer exported as
// Markdown carries agentero:// links; one of them, handed to a second launch
// of the app (the scheme handler's path), lands on the cited page with the
// quote marked; a link to a missing paper is refused with a sentence; the
// cited papers export as BibTeX and CSL-JSON; recent vaults are listed and
// switched, a new vault is made from an empty folder and a non-empty folder
// is refused.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fold, markedText, shot, start, waitForMarks } from "./harness.mjs";

let env;
let page;

before(async () => {
  env = await start({ log: "e2e-links-app.log" });
  page = env.page;
});

after(async () => {
  if (env) {
    if (env.problems.length) console.log("browser problems:\n" + env.problems.join("\n"));
    await env.stop();
  }
});

const sidebar = '[data-testid="sidebar-chat"]';

async function failShot(t, fn) {
  try {
    await fn();
  } catch (err) {
    await shot(page, `failure-links-${t.name.replace(/\W+/g, "-")}`).catch(() => {});
    throw err;
  }
}

/** openedPaper waits until the viewer shows the paper with that many pages. */
async function openedPaper(ref, pages) {
  await page.waitForFunction(
    ({ ref, pages }) =>
      document.querySelector(`[data-testid="library-item"][data-ref="${ref}"]`)?.getAttribute("aria-current") === "true" &&
      document.querySelector('[data-testid="page-count"]')?.textContent === `of ${pages}`,
    { ref, pages },
    { timeout: 30_000 },
  );
}

test("exports, agentero:// links and vaults", { timeout: 600_000 }, async (t) => {
  let papers = [];
  let markdown = "";
  let link = "";

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
      papers = await page.evaluate(() => window.go.main.App.Library());
      await page.locator('[data-testid="library-item"][data-ref="papers/bitcoin"]').waitFor();
    }),
  );

  await t.test("an answer exports as Markdown with agentero:// links, and its papers as BibTeX and CSL-JSON", () =>
    failShot(t, async () => {
      await page.locator('[data-testid="library-item"][data-ref="papers/bitcoin"]').click();
      const bitcoin = papers.find((p) => p.ref === "papers/bitcoin");
      await openedPaper("papers/bitcoin", bitcoin.pages);
      const input = page.locator(`${sidebar} [data-testid="composer-input"]`);
      await input.fill("How does the system prevent double spending?");
      await input.press("Enter");
      const answer = page.locator(`${sidebar} [data-testid="msg-assistant"]`).last();
      await page.waitForFunction((s) => document.querySelector(`${s} [data-testid="msg-assistant"]`)?.dataset.status === "done", sidebar, {
        timeout: 90_000,
      });
      // The answer's export buttons; Copy as Markdown says it copied.
      const exports = answer.locator('[data-testid="answer-exports"]');
      await exports.waitFor();
      await exports.locator('[data-testid="copy-markdown"]').click();
      await page.waitForFunction(
        () => /Copied as Markdown/.test(document.querySelector('[data-testid="answer-exports"] [data-testid="export-status"]')?.textContent ?? ""),
        null,
        { timeout: 10_000 },
      );
      assert.equal(await exports.locator('[data-testid="export-bibtex"]').isEnabled(), true, "the answer cites a library paper");
      assert.equal(await page.locator('[data-testid="export-conversation"]').count() >= 1, true, "the conversation header has Export");
      await shot(page, "links-1-answer-exports");

      // What Copy as Markdown copies, read through the same call.
      const conv = await page.evaluate(() => window.go.main.App.Conversation("paper.papers_bitcoin"));
      const msg = conv.messages.filter((m) => m.role === "assistant").at(-1);
      assert.ok(msg.sources.length > 0, "the answer has sources");
      markdown = await page.evaluate((m) => window.go.main.App.ExportText({ conversationId: "paper.papers_bitcoin", messageId: m, format: "markdown" }), msg.id);
      const links = [...markdown.matchAll(/agentero:\/\/open\?[^)>\s]+/g)].map((m) => m[0]);
      assert.ok(links.length > 0, `the Markdown carries agentero:// links:\n${markdown}`);
      assert.match(markdown, /### Sources\n\n1\. \[/);
      assert.match(markdown, /### References\n\n- /);
      // A source past the first page, with a quote, shows both being followed.
      const q = (l) => new URL(l).searchParams;
      link = links.find((l) => Number(q(l).get("page")) > 1 && q(l).get("quote")) ?? links.find((l) => q(l).get("quote")) ?? links[0];
      const u = new URL(link);
      assert.equal(u.searchParams.get("vault"), env.vault);
      assert.equal(u.searchParams.get("ref"), "papers/bitcoin");

      const bib = await page.evaluate((m) => window.go.main.App.ExportText({ conversationId: "paper.papers_bitcoin", messageId: m, format: "bibtex" }), msg.id);
      assert.match(bib, /^@(article|misc)\{[a-z0-9]+,\n  title = \{\{.*Bitcoin/m);
      const csl = JSON.parse(
        await page.evaluate((m) => window.go.main.App.ExportText({ conversationId: "paper.papers_bitcoin", messageId: m, format: "csl-json" }), msg.id),
      );
      assert.ok(csl.length >= 1 && /Bitcoin/.test(csl[0].title), JSON.stringify(csl));
      const whole = await page.evaluate(() => window.go.main.App.ExportText({ conversationId: "paper.papers_bitcoin", messageId: "", format: "markdown" }));
      assert.match(whole, /^# How does the system prevent double spending\?/);
      assert.match(whole, /## Question\n\nHow does the system prevent double spending\?/);
    }),
  );

  await t.test("the exported link, handed to a second launch, opens the cited page with the quote marked", () =>
    failShot(t, async () => {
      // Somewhere else first: another paper open.
      await page.locator('[data-testid="library-item"][data-ref="papers/peercoin"]').click();
      const peercoin = papers.find((p) => p.ref === "papers/peercoin");
      await openedPaper("papers/peercoin", peercoin.pages);

      const second = await env.launch([link]);
      assert.equal(second.code, 0, `the second launch handed the link over and exited:\n${second.out}`);
      const u = new URL(link);
      const pageNo = Number(u.searchParams.get("page"));
      const quote = u.searchParams.get("quote") ?? "";
      const bitcoin = papers.find((p) => p.ref === "papers/bitcoin");
      await openedPaper("papers/bitcoin", bitcoin.pages);
      if (quote) {
        await waitForMarks(page, pageNo);
        const marked = await markedText(page, pageNo);
        assert.ok(fold(marked).length >= 12, `a real passage is marked: ${marked}`);
        assert.equal(fold(marked), fold(quote), `marked “${marked}” is the quote “${quote}”`);
      }
      await page.waitForFunction((n) => document.querySelector('[data-testid="page-input"]')?.value === String(n), pageNo, { timeout: 20_000 });
      await shot(page, "links-2-link-followed");
    }),
  );

  await t.test("a link to a missing paper or vault is refused with a sentence", () =>
    failShot(t, async () => {
      const missing = `agentero://open?vault=${encodeURIComponent(env.vault)}&ref=papers/not-here&page=2`;
      const r = await env.launch([missing]);
      assert.equal(r.code, 0, r.out);
      const alert = page.locator('[data-testid="alert-banner"]');
      await page.waitForFunction(() => /papers\/not-here is not in the vault/.test(document.querySelector('[data-testid="alert-banner"]')?.textContent ?? ""), null, {
        timeout: 20_000,
      });
      assert.match(await alert.innerText(), /^Couldn’t open that link: the paper papers\/not-here is not in the vault .*\(moved or deleted\?\)\.$/);
      const gone = await page.evaluate(() => window.go.main.App.FollowLink("agentero://open?vault=/nonexistent/vault&ref=papers/a"));
      assert.match(gone.error, /the vault \/nonexistent\/vault of this link does not exist/);
      const past = await page.evaluate((v) => window.go.main.App.FollowLink(`agentero://open?vault=${encodeURIComponent(v)}&ref=papers/bitcoin&page=99`), env.vault);
      assert.match(past.error, /^page 99 is past the end of "Bitcoin: A Peer-to-Peer Electronic Cash System", which has 9 pages$/);
      const notVault = await page.evaluate((d) => window.go.main.App.FollowLink(`agentero://open?vault=${encodeURIComponent(d)}&ref=papers/a`), env.root + "/home");
      assert.match(notVault.error, /is not an Agentero vault/);
      const hostile = await page.evaluate(() => window.go.main.App.FollowLink("agentero://open?vault=/tmp&ref=papers/../../etc/passwd"));
      assert.match(hostile.error, /not a valid agentero:\/\/ link/);
      // A folder that passes for a vault but is none of the user's: not
      // opened, and said so for the window to ask.
      const stranger = join(env.root, "stranger");
      mkdirSync(join(stranger, "papers", "a"), { recursive: true });
      const unknown = await page.evaluate((d) => window.go.main.App.FollowLink(`agentero://open?vault=${encodeURIComponent(d)}&ref=papers/a`), stranger);
      assert.equal(unknown.unknownVault, true, JSON.stringify(unknown));
      assert.match(unknown.error, /which is not one of your vaults/);
      assert.equal(existsSync(join(stranger, ".agentero")), false, "the unknown folder was opened");
      await shot(page, "links-3-refused");
    }),
  );

  await t.test("recent vaults are listed and switched; New vault takes an empty folder only", () =>
    failShot(t, async () => {
      const busy = join(env.root, "busy");
      mkdirSync(busy, { recursive: true });
      writeFileSync(join(busy, "taxes.txt"), "not papers");
      const refused = await page.evaluate((d) => window.go.main.App.CreateVault(d).then(() => "", (e) => e.message), busy);
      assert.match(refused, /is not empty and is not a vault: choose an empty folder/);

      const fresh = join(env.root, "fresh vault");
      mkdirSync(fresh, { recursive: true });
      const made = await page.evaluate((d) => window.go.main.App.CreateVault(d), fresh);
      assert.equal(made, fresh);

      // The menu lists both, the new one open; picking the first switches back.
      const menu = page.locator('[data-testid="vault-menu"]');
      await menu.click();
      const items = page.locator('[data-testid="recent-vault"]');
      await items.first().waitFor();
      const listed = await items.evaluateAll((els) => els.map((e) => ({ path: e.dataset.path, current: e.classList.contains("current") })));
      assert.deepEqual(
        listed.map((v) => v.path),
        [fresh, env.vault],
      );
      assert.deepEqual(
        listed.map((v) => v.current),
        [true, false],
      );
      await shot(page, "links-4-vault-menu");
      // Keyboard: the focus is on the first vault that can be opened (the
      // open one cannot); ↓ and ↑ move through the menu, Enter opens.
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.path), env.vault);
      await page.keyboard.press("ArrowDown");
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "open-vault");
      await page.keyboard.press("ArrowUp");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="library-item"]').length === 3, null, { timeout: 30_000 });
      assert.equal(await page.locator(".vault-name").innerText(), "vault");
      await menu.click();
      await items.first().waitFor();
      const after = await items.evaluateAll((els) => els.map((e) => ({ path: e.dataset.path, current: e.classList.contains("current") })));
      assert.deepEqual(after, [
        { path: env.vault, current: true },
        { path: fresh, current: false },
      ]);
      await page.keyboard.press("Escape");
      assert.equal(await page.locator('[data-testid="vault-menu-list"]').isHidden(), true);

      // A later launch with --vault switches the running window to it.
      const r = await env.launch(["--vault", fresh]);
      assert.equal(r.code, 0, r.out);
      await page.waitForFunction(() => document.querySelector(".vault-name")?.textContent === "fresh vault", null, { timeout: 30_000 });
      assert.equal(await page.locator('[data-testid="library-item"]').count(), 0);
    }),
  );
});
