// A new user's first hour, in a real browser against the real backend
// (issue 27): a folder that is not a vault yet is asked about with no error
// behind the question, and made a vault with its papers/; with no vault
// open, the first screen offers Open vault…, New vault… and the example
// vault, and the example opens; at 1024 px the vault's name and the papers'
// titles are readable; @vault's preview is a count with "show all", its
// chip goes with its turn and New chat clears it; /compact typed in full
// runs on one Enter; an agent written into agents.json while the app runs
// answers; its edit's card has Reject focused, so Enter rejects; the plan
// no longer says "in progress" once the turn ended, and "What the agent
// sees" says the edit was rejected; an agent added with Settings' form
// (Enter adds, Escape cancels; a relative command, one not found and a
// name taken refused in the form) is written beside the hand-written one,
// whose unknown fields stay, and answers at once.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { repo, shot, start } from "./harness.mjs";

let env;
let page;

before(async () => {
  env = await start({
    log: "e2e-firsthour.log",
    makeFolder: (root) => {
      const dir = join(root, "empty");
      mkdirSync(dir, { recursive: true });
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

async function failShot(t, fn) {
  try {
    await fn();
  } catch (err) {
    await shot(page, `failure-firsthour-${t.name.replace(/\W+/g, "-")}`).catch(() => {});
    throw err;
  }
}

const quick = '[data-testid="quick-chat"]';

/** askQuick sends what is typed in Quick Chat and waits for the new answer to end; it returns the answer. */
async function askQuick(timeout = 90_000) {
  const answers = page.locator(`${quick} [data-testid="msg-assistant"]`);
  const n = await answers.count();
  await page.locator(`${quick} [data-testid="composer-input"]`).press("Enter");
  await page.waitForFunction(
    ({ quick, n }) => {
      const all = document.querySelectorAll(`${quick} [data-testid="msg-assistant"]`);
      return all.length > n && all[all.length - 1].dataset.status !== "streaming";
    },
    { quick, n },
    { timeout },
  );
  return answers.last();
}

/** mentionVault types "@vault" in Quick Chat and picks it from the list. */
async function mentionVault() {
  const input = page.locator(`${quick} [data-testid="composer-input"]`);
  await input.click();
  await input.pressSequentially("@vau", { delay: 20 });
  await page.locator(`${quick} [data-testid="completion"][data-kind="vault"]`).waitFor();
  await input.press("Enter");
  await page.locator(`${quick} [data-testid="mention-chip"][data-kind="vault"]`).waitFor();
}

test("the first hour", { timeout: 600_000 }, async (t) => {
  await t.test("a folder that is not a vault yet: no error behind the question; made a vault, it has papers/", () =>
    failShot(t, async () => {
      const dialog = page.locator('[data-testid="loose-folder"]');
      await dialog.waitFor({ state: "visible", timeout: 30_000 });
      await page.waitForTimeout(500); // the library's first load has answered by now
      const library = page.locator('[data-testid="library-list"]').locator("xpath=..").locator(".pane-message");
      const message = await library.innerText();
      assert.match(message, /not a vault yet/);
      assert.doesNotMatch(message, /Couldn’t read the library/, message);
      assert.equal(await library.locator(".error").count(), 0, "no red error behind the dialog");
      await shot(page, "firsthour-1-not-a-vault");
      await dialog.locator('[data-testid="folder-as-is"]').click();
      await dialog.waitFor({ state: "hidden" });
      assert.ok(existsSync(join(env.vault, "papers")), "papers/ was made");
      assert.ok(existsSync(join(env.vault, ".agentero")), ".agentero/ was made");
    }),
  );

  await t.test("no vault open: the first screen's buttons, the disabled imports say why, the example vault opens", () =>
    failShot(t, async () => {
      rmSync(join(env.root, "home", ".config", "agentero", "last-vault"), { force: true });
      await env.restart([]);
      const first = page.locator('[data-testid="first-screen"]');
      await first.waitFor({ timeout: 30_000 });
      assert.equal(await first.locator('[data-testid="start-open"]').innerText(), "Open vault…");
      assert.equal(await first.locator('[data-testid="start-new"]').innerText(), "New vault…");
      const example = first.locator('[data-testid="start-example"]');
      await example.waitFor({ state: "visible" });
      assert.equal(await example.innerText(), "Open the example vault");
      for (const id of ["add-papers", "import-zotero", "import-bibliography"]) {
        const b = page.locator(`[data-testid="${id}"]`);
        assert.equal(await b.isDisabled(), true, `${id} is disabled`);
        assert.match(await b.getAttribute("title"), /Open or make a vault first/);
      }
      await shot(page, "firsthour-2-first-screen");
      await example.click();
      await page.locator('[data-testid="library-item"]').first().waitFor({ timeout: 120_000 });
      const copy = join(env.root, "home", "Agentero example vault");
      assert.ok(existsSync(join(copy, "papers")), `the example was copied to ${copy}`);
      assert.equal(await page.locator('[data-testid="first-screen"]').count(), 0);
      assert.equal(await page.locator('[data-testid="add-papers"]').isDisabled(), false, "Add works in the open vault");
    }),
  );

  await t.test("at 1024 px the vault's name and the papers' titles are readable", () =>
    failShot(t, async () => {
      await page.setViewportSize({ width: 1024, height: 700 });
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="library-item"]').length >= 4, null, { timeout: 120_000 });
      await page.waitForTimeout(300);
      const name = await page.locator(".vault-name").evaluate((el) => ({ text: el.textContent, cut: el.scrollWidth > el.clientWidth + 1 }));
      assert.equal(name.text, "Agentero example vault");
      assert.equal(name.cut, false, "the vault's name is whole");
      const titles = await page.locator('[data-testid="library-item"] .item-title').evaluateAll((els) =>
        els.map((el) => ({ text: el.textContent, lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight || "16")), width: el.getBoundingClientRect().width })),
      );
      for (const ti of titles.filter((x) => x.text.length > 40)) {
        assert.ok(ti.lines >= 2, `“${ti.text}” wraps to two lines (${ti.lines} in ${ti.width}px)`);
      }
      await shot(page, "firsthour-3-1024");
    }),
  );

  await t.test("@vault: the preview counts with show all; the chip goes with its turn and with New chat", () =>
    failShot(t, async () => {
      await page.keyboard.press("Control+k");
      await page.locator(quick).waitFor({ state: "visible" });
      await mentionVault();
      const preview = page.locator(`${quick} [data-testid="context-preview"]`);
      await page.waitForFunction((q) => document.querySelector(`${q} [data-testid="context-preview"]`)?.dataset.mode === "mcp", quick);
      const line = await preview.locator(".composer-context-line").innerText();
      assert.match(line, /^Can read 4 papers, \d+ folders?/);
      assert.doesNotMatch(line, /Strucplot/, "the titles are not on the line");
      const all = preview.locator('[data-testid="context-preview-all"]');
      assert.equal(await all.isVisible(), false, "the list waits behind show all");
      const more = preview.locator('[data-testid="context-preview-more"]');
      assert.match(await more.innerText(), /^show all \d+$/);
      await more.click();
      await all.waitFor({ state: "visible" });
      assert.ok((await all.locator("li").count()) >= 5);
      const box = await all.boundingBox();
      assert.ok(box.height <= 130, `the list is capped (${box.height}px)`);
      await more.click();
      await all.waitFor({ state: "hidden" });
      await shot(page, "firsthour-4-vault-preview");

      await page.locator(`${quick} [data-testid="composer-input"]`).pressSequentially(" What is a strucplot?");
      const answer = await askQuick();
      assert.equal(await answer.getAttribute("data-status"), "done", await answer.innerText());
      assert.equal(await page.locator(`${quick} [data-testid="mention-chip"]`).count(), 0, "the @vault chip went with its turn");

      await mentionVault();
      await page.locator('[data-testid="quick-new"]').click();
      assert.equal(await page.locator(`${quick} [data-testid="mention-chip"]`).count(), 0, "New chat starts with no chip");
      await page.locator('[data-testid="quick-threads"]').selectOption("quick.1");
    }),
  );

  await t.test("/compact typed in full runs on one Enter", () =>
    failShot(t, async () => {
      const input = page.locator(`${quick} [data-testid="composer-input"]`);
      const answers = await page.locator(`${quick} [data-testid="msg-assistant"]`).count();
      assert.ok(answers >= 1, "the conversation has a turn");
      await input.click();
      await input.pressSequentially("/compact", { delay: 20 });
      await page.locator(`${quick} [data-testid="slash-command"][data-command="compact"]`).waitFor();
      await input.press("Enter");
      const result = page.locator(`${quick} [data-testid="command-result"]`);
      await result.filter({ hasText: "Compacted" }).waitFor({ timeout: 60_000 });
      assert.equal(await input.inputValue(), "", "the command ran and left the box");
    }),
  );

  await t.test("an agent written into agents.json while the app runs answers; Enter on its edit's card rejects", () =>
    failShot(t, async () => {
      const outside = join(env.root, "outside.md");
      writeFileSync(outside, "# Outside the vault\n");
      const agents = {
        default: "builtin",
        comment: "my agents, written by hand",
        agents: [
          {
            name: "written-by-hand",
            command: process.execPath,
            args: [join(repo, "test", "peeragent", "agent.mjs")],
            env: { PEER_STYLE: "claude", PEER_EDIT: "1", PEER_EDIT_PATH: outside, PEER_PLAN: "first" },
            "x-note": "a field Agentero does not know",
          },
        ],
      };
      writeFileSync(join(env.root, "home", ".config", "agentero", "agents.json"), JSON.stringify(agents, null, 2), { mode: 0o600 });
      await page.locator('[data-testid="quick-new"]').click();
      const picker = page.locator(`${quick} [data-testid="agent-picker"]`);
      await picker.focus();
      await page.waitForFunction((q) => document.querySelector(`${q} [data-testid="agent-picker"] option[value="written-by-hand"]`), quick, { timeout: 15_000 });
      await picker.selectOption("written-by-hand");
      await mentionVault();
      await page.locator(`${quick} [data-testid="composer-input"]`).pressSequentially(" What does the strucplot framework draw?");
      await page.locator(`${quick} [data-testid="composer-input"]`).press("Enter");

      const card = page.locator(`${quick} [data-testid="msg-assistant"]`).last().locator('[data-testid="permission"][data-state="waiting"]');
      await card.waitFor({ timeout: 120_000 });
      assert.equal(await card.locator('[data-testid="permission-kind"]').innerText(), "edit");
      assert.equal(await card.getAttribute("data-in-vault"), "false", "the edit is outside the vault");
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.optionId), "reject", "Reject has the focus");
      await shot(page, "firsthour-5-edit-card");
      await page.keyboard.press("Enter");
      await page.waitForFunction((q) => document.querySelector(`${q} [data-testid="msg-assistant"]:last-child`)?.dataset.status === "done", quick, { timeout: 60_000 });
      const answer = page.locator(`${quick} [data-testid="msg-assistant"]`).last();
      assert.equal(await answer.locator('[data-testid="permission-outcome"]').innerText(), "Rejected: you chose “Reject”.");
      assert.match(await answer.locator('[data-testid="msg-agent"]').innerText(), /written-by-hand/);

      // The plan's unfinished step no longer says "in progress".
      const plan = answer.locator('[data-testid="plan"]');
      await plan.waitFor();
      assert.equal(await plan.locator('[data-status="in_progress"]').count(), 0);
      assert.doesNotMatch(await plan.innerText(), /in progress/);

      // What the agent sees: the rejected edit is not pending.
      await page.locator(`${quick} [data-testid="agent-view-open"]`).click();
      const view = page.locator('[data-testid="agent-view"]');
      await view.waitFor({ state: "visible" });
      const tools = view.locator('[data-testid="last-turn-tool"]');
      await tools.first().waitFor({ timeout: 30_000 });
      const edit = tools.filter({ hasText: "outside.md" });
      assert.match(await edit.locator("summary").innerText(), /rejected by you/);
      assert.doesNotMatch(await view.locator('[data-testid="last-turn-tools"]').innerText(), /· pending/);
      await shot(page, "firsthour-6-agent-view");
      await page.keyboard.press("Escape");
    }),
  );

  await t.test("an agent added with Settings' form: refusals said in the form, the file's other agents kept, and it answers at once", () =>
    failShot(t, async () => {
      const agentsFile = join(env.root, "home", ".config", "agentero", "agents.json");
      const dialog = page.locator('[data-testid="settings"]');
      await page.keyboard.press("Control+,");
      await dialog.waitFor({ state: "visible" });
      const form = dialog.locator('[data-testid="agent-form"]');
      // Escape cancels the form, not Settings.
      await dialog.locator('[data-testid="agent-add"]').click();
      await form.getByLabel("Name").fill("half-typed");
      await form.getByLabel("Name").press("Escape");
      await form.waitFor({ state: "hidden" });
      assert.equal(await dialog.isVisible(), true, "Settings stays open");
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "agent-add");

      await page.keyboard.press("Enter"); // Add agent… has the focus
      await form.waitFor({ state: "visible" });
      const peer = join(repo, "test", "peeragent", "agent.mjs");
      const problem = form.locator('[data-testid="check-problem"]');
      // A relative command, refused by the backend in one sentence.
      await form.getByLabel("Name").fill("added-in-form");
      await form.getByLabel("Command").fill("./agent.mjs");
      await form.getByLabel("Arguments").fill(peer);
      await form.getByLabel("Command").press("Enter");
      await problem.waitFor({ timeout: 30_000 });
      assert.match(await problem.innerText(), /^Not saved: the command "\.\/agent\.mjs" is a relative path: give its absolute path, or a command name found on PATH$/);
      // A command not found.
      await form.getByLabel("Command").fill("no-such-acp-agent");
      await form.getByLabel("Command").press("Enter");
      await page.waitForFunction(() => /was not found/.test(document.querySelector('[data-testid="agent-form"] [data-testid="check-problem"]')?.textContent ?? ""));
      // A name the file has already, in another case.
      await form.getByLabel("Command").fill(process.execPath);
      await form.getByLabel("Name").fill("Written-By-Hand");
      await form.getByLabel("Name").press("Enter");
      await page.waitForFunction(() => /already an agent named/.test(document.querySelector('[data-testid="agent-form"] [data-testid="check-problem"]')?.textContent ?? ""));
      assert.match(await problem.innerText(), /^Not saved: there is already an agent named "Written-By-Hand": choose another name$/);
      await shot(page, "firsthour-7-add-agent-refused");
      assert.equal(JSON.parse(readFileSync(agentsFile, "utf8")).agents.length, 1, "nothing was written");

      // Enter adds it: checked first (initialize, session/new), then written.
      await form.getByLabel("Name").fill("added-in-form");
      await form.getByLabel("Name").press("Enter");
      await dialog.locator('[data-testid="agent-row"][data-name="added-in-form"]').waitFor({ timeout: 60_000 });
      assert.match(await dialog.locator(".settings-status").innerText(), /Added added-in-form/);
      const file = JSON.parse(readFileSync(agentsFile, "utf8"));
      assert.equal(file.comment, "my agents, written by hand", "the file's own fields are kept");
      assert.deepEqual(file.agents.map((a) => a.name), ["written-by-hand", "added-in-form"]);
      assert.equal(file.agents[0]["x-note"], "a field Agentero does not know");
      assert.equal(file.agents[0].env.PEER_EDIT, "1");
      assert.deepEqual(file.agents[1].args, [peer]);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });

      await page.locator('[data-testid="quick-new"]').click();
      const picker = page.locator(`${quick} [data-testid="agent-picker"]`);
      await picker.focus();
      await page.waitForFunction((q) => document.querySelector(`${q} [data-testid="agent-picker"] option[value="added-in-form"]`), quick, { timeout: 15_000 });
      await picker.selectOption("added-in-form");
      await page.locator(`${quick} [data-testid="composer-input"]`).fill("Are you there?");
      const answer = await askQuick();
      assert.equal(await answer.getAttribute("data-status"), "done", await answer.innerText());
      assert.match(await answer.locator('[data-testid="msg-agent"]').innerText(), /added-in-form/);
      assert.match(await answer.locator('[data-testid="answer-text"]').innerText(), /peer answer 1/);
      await shot(page, "firsthour-8-added-agent-answers");
    }),
  );
});
