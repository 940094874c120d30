// Papers in, end to end: the app is started on a folder of loose PDFs (not
// a vault yet). It must write nothing there and ask what to make of it; the
// preview lists the moves; "Move them" performs exactly those, the folder
// becomes a vault, and the papers are in the library and searchable.

import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { corpus, shot, start } from "./harness.mjs";

let env;
let page;

before(async () => {
  env = await start({
    makeFolder(root) {
      const dir = join(root, "Downloads");
      mkdirSync(join(dir, "old"), { recursive: true });
      cpSync(join(corpus, "bitcoin.pdf"), join(dir, "bitcoin.pdf"));
      cpSync(join(corpus, "in-search-of-an-understandable-consensus-algorithm.pdf"), join(dir, "old", "raft.pdf"));
      return dir;
    },
  });
  page = env.page;
});

after(async () => {
  if (env) {
    if (env.problems.length) console.log("browser problems:\n" + env.problems.join("\n"));
    await env.stop();
  }
});

test("a folder of loose PDFs is arranged only after the user says so", { timeout: 300_000 }, async () => {
  const dialog = page.locator('[data-testid="loose-folder"]');
  await dialog.waitFor({ state: "visible", timeout: 60_000 });
  assert.match(await dialog.locator('[data-testid="folder-found"]').innerText(), /holds 2 PDFs \(1 at the top, 1 in subfolders\)/);
  assert.equal(existsSync(join(env.vault, ".agentero")), false, "the app wrote .agentero/ before the user chose");
  assert.equal(existsSync(join(env.vault, "papers")), false);

  await dialog.locator('[data-testid="folder-preview"]').click();
  const moves = dialog.locator('[data-testid="folder-moves"] li');
  await moves.first().waitFor({ timeout: 120_000 });
  const lines = await moves.allInnerTexts();
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^bitcoin\.pdf → papers\/[a-z0-9-]*bitcoin[a-z0-9-]*\/paper\.pdf$/);
  assert.match(lines[1], /^old\/raft\.pdf → papers\/[a-z0-9-]*consensus[a-z0-9-]*\/paper\.pdf$/);
  await shot(page, "intake-preview");
  assert.equal(existsSync(join(env.vault, "papers")), false, "the preview moved something");

  // Keyboard: the focused button after the preview is "Move them".
  await page.keyboard.press("Enter");
  const summary = page.locator('[data-testid="intake-summary"]');
  await summary.waitFor({ state: "visible", timeout: 60_000 });
  assert.match(await summary.innerText(), /2 papers added/);
  await shot(page, "intake-summary");
  await summary.getByRole("button", { name: "Close" }).click();

  const want = lines.map((l) => l.split(" → ")[1]);
  for (const to of want) assert.ok(existsSync(join(env.vault, to)), `${to} is missing`);
  assert.equal(existsSync(join(env.vault, "bitcoin.pdf")), false, "bitcoin.pdf was not moved");
  assert.ok(readdirSync(join(env.vault, "old")).length === 0, "raft.pdf was not moved");
  assert.ok(existsSync(join(env.vault, ".agentero")), "the folder was not opened as a vault");

  const items = page.locator('[data-testid="library-item"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="library-item"]').length === 2, null, { timeout: 120_000 });
  const refs = await items.evaluateAll((els) => els.map((e) => e.dataset.ref));
  assert.deepEqual(refs.sort(), want.map((to) => to.replace(/\/paper\.pdf$/, "")).sort());
  assert.equal(await page.locator('[data-testid="add-papers"]').isDisabled(), false, "Add papers… is not offered in the new vault");
  assert.deepEqual(env.problems, []);
});
