// The e2e harness: a vault made from corpus papers, the real Go backend as a
// Wails dev build under Xvfb (it serves the built frontend and the bindings
// over a websocket on a localhost port), and headless Chromium from the
// system (/usr/bin/chromium) driven by playwright-core. Nothing is
// downloaded.

import { spawn, execFileSync } from "node:child_process";
import { createWriteStream, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const artifacts = process.env.AGENTERO_ARTIFACTS || join(repo, "test-artifacts");
export const corpus = process.env.AGENTERO_CORPUS || resolve(repo, "..", "shared", "corpus");

// The papers of the scenario: small, with a text layer, about related things.
export const papers = ["bitcoin", "peercoin", "in-search-of-an-understandable-consensus-algorithm"];

/** guidance is a line of the vault's AGENTS.md, to find in what the agent sees. */
export const guidance = "Cite the page of every claim you make.";

/** makeVault copies the scenario's papers into papers/<stem>/<stem>.pdf, plus a notes folder and the vault's AGENTS.md. */
export function makeVault(root) {
  const vault = join(root, "vault");
  for (const stem of papers) {
    const src = join(corpus, `${stem}.pdf`);
    if (!existsSync(src)) throw new Error(`corpus paper missing: ${src} (set AGENTERO_CORPUS)`);
    mkdirSync(join(vault, "papers", stem), { recursive: true });
    cpSync(src, join(vault, "papers", stem, `${stem}.pdf`));
  }
  mkdirSync(join(vault, "notes", "consensus"), { recursive: true });
  writeFileSync(join(vault, "notes", "consensus", "raft.md"), "# Raft\n\nLeader election uses randomized timeouts.\n");
  // The vault's guidance file: frozen into each new session's base context (SPEC §8.1).
  writeFileSync(join(vault, "AGENTS.md"), `# Reading group\n\n${guidance}\n`);
  return vault;
}

function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/** devBinary returns the dev build named by AGENTERO_DEV_BIN, else builds one into dir. */
export function devBinary(dir) {
  if (process.env.AGENTERO_DEV_BIN) return process.env.AGENTERO_DEV_BIN;
  const out = join(dir, "agentero-dev");
  execFileSync("go", ["build", "-tags", "dev,webkit2_41,sqlite_fts5", "-o", out, "."], { cwd: repo, stdio: "inherit" });
  return out;
}

function startXvfb() {
  return new Promise((ok, fail) => {
    const x = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", "1280x820x24", "-nolisten", "tcp"], {
      stdio: ["ignore", "ignore", "ignore", "pipe"],
    });
    x.on("error", fail);
    let buf = "";
    x.stdio[3].on("data", (d) => {
      buf += d;
      if (buf.includes("\n")) ok({ proc: x, display: `:${buf.trim()}` });
    });
  });
}

/** quit interrupts the app (SIGINT, as a closed terminal would) and resolves once its process is gone; SIGKILL after 10 s. */
async function quit(proc) {
  const gone = () => proc.exitCode !== null || proc.signalCode !== null;
  const exited = (ms) => (gone() ? Promise.resolve() : Promise.race([new Promise((r) => proc.once("exit", r)), new Promise((r) => setTimeout(r, ms).unref())]));
  if (gone()) return;
  proc.kill("SIGINT");
  await exited(10_000);
  if (gone()) return;
  proc.kill("SIGKILL");
  await exited(10_000);
  if (!gone()) throw new Error(`the app (pid ${proc.pid}) did not exit after SIGKILL`);
}

async function waitHttp(url, proc, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (proc.exitCode !== null) throw new Error(`the app exited (${proc.exitCode}) before serving ${url}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`nothing served ${url} within ${ms} ms`);
}

/**
 * start brings everything up and returns {page, vault, root, url, stop,
 * problems, launch, restart, pid}. The app's log goes to test-artifacts/e2e-app.log
 * (or opts.log). opts.makeFolder(root), when given, makes the folder the app
 * opens instead of the scenario's vault.
 */
export async function start(opts = {}) {
  const root = mkdtempSync(join(tmpdir(), "agentero-e2e-"));
  const vault = opts.makeFolder ? opts.makeFolder(root) : makeVault(root);
  const bin = devBinary(root);
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  mkdirSync(artifacts, { recursive: true });
  const xvfb = await startXvfb();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const log = createWriteStream(join(artifacts, opts.log ?? "e2e-app.log"));
  const appEnv = {
    ...process.env,
    DISPLAY: xvfb.display,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    NO_AT_BRIDGE: "1",
    WEBKIT_DISABLE_COMPOSITING_MODE: "1",
    // Wails' dev build reads these (internal/app/app_dev.go): serve the
    // built frontend from disk and the dev server (HTTP + /wails/ipc
    // websocket for browsers) on this address.
    assetdir: join(repo, "frontend", "dist"),
    devserver: `127.0.0.1:${port}`,
    loglevel: "Warning",
  };
  // The app's processes, one after another (restart): their output goes to the one log.
  const run = (args) => {
    const p = spawn(bin, args, { cwd: repo, env: appEnv, stdio: ["ignore", "pipe", "pipe"] });
    p.stdout.pipe(log, { end: false });
    p.stderr.pipe(log, { end: false });
    return p;
  };
  let app = run(["--vault", vault]);
  // launch starts the app again as a user would (a clicked agentero:// link):
  // it hands its arguments to the running one and exits; resolves to its exit code and output.
  const launch = (args) =>
    new Promise((ok, fail) => {
      const p = spawn(bin, args, { cwd: repo, env: appEnv, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      p.stdout.on("data", (d) => (out += d));
      p.stderr.on("data", (d) => (out += d));
      p.on("error", fail);
      p.on("exit", (code) => ok({ code, out }));
    });
  const profile = join(root, "chromium");
  let context;
  let page;
  const stop = async () => {
    await context?.close().catch(() => {});
    await quit(app);
    xvfb.proc.kill();
    log.end();
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
  // restart quits the app as a user closing it would, waits until its
  // process is gone (a second one still running would take the launch and
  // exit), starts it again with the same configuration folder and vault
  // (args, default --vault vault) and loads the window from the new one.
  const restart = async (args = ["--vault", vault]) => {
    await quit(app);
    log.write(`--- e2e: the app (pid ${app.pid}) quit; started again with ${JSON.stringify(args)}\n`);
    app = run(args);
    await waitHttp(url, app, 60_000);
    await page.goto(url);
  };
  try {
    await waitHttp(url, app, 60_000);
    // A persistent context is how Playwright takes --user-data-dir.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
      headless: true,
      viewport: { width: 1280, height: 820 },
      args: ["--no-sandbox", "--disable-background-networking", "--disable-gpu", "--no-first-run", "--disable-component-update", "--disable-sync"],
    });
    page = context.pages()[0] ?? (await context.newPage());
    const problems = [];
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error" && !/favicon|404/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    await page.goto(url);
    return { page, vault, root, url, stop, problems, launch, restart, pid: () => app.pid };
  } catch (err) {
    await stop();
    throw err;
  }
}

export function shot(page, name) {
  return page.screenshot({ path: join(artifacts, `e2e-${name}.png`) });
}

/**
 * markedText reads the words the viewer marks on a page: the characters of
 * pdf.js's text layer whose middle lies inside one of the page's quote
 * marks (the rectangles the backend located), in the text layer's order;
 * characters of different text runs are joined by a space. It reads the
 * geometry, not the marks' own content (they have none), so it says what a
 * reader sees highlighted. The page's text layer must be drawn.
 */
export function markedText(page, pageNo) {
  return page.evaluate((n) => {
    const pageEl = document.querySelector(`[data-testid="viewer"] [data-page="${n}"]`);
    if (!pageEl) return "";
    const marks = [...pageEl.querySelectorAll(".quote-mark")].map((m) => m.getBoundingClientRect());
    const layer = pageEl.querySelector(".textLayer");
    if (!layer || marks.length === 0) return "";
    const walker = document.createTreeWalker(layer, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let out = "";
    let last = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        if (!marks.some((m) => x >= m.left && x <= m.right && y >= m.top && y <= m.bottom)) continue;
        if (last !== null && last !== node) out += " ";
        out += node.data[i];
        last = node;
      }
    }
    return out;
  }, pageNo);
}

/** markedPages lists the pages that hold quote marks in the viewer, with how many each. */
export function markedPages(page) {
  return page.evaluate(() => {
    const out = {};
    for (const m of document.querySelectorAll('[data-testid="viewer"] .quote-mark')) {
      const n = Number(m.closest("[data-page]")?.dataset.page ?? 0);
      out[n] = (out[n] ?? 0) + 1;
    }
    return out;
  });
}

/** waitForMarks waits until page pageNo of the viewer shows quote marks over its whole text layer. */
export async function waitForMarks(page, pageNo, timeout = 20_000) {
  await page.waitForFunction(
    (n) => {
      const el = document.querySelector(`[data-testid="viewer"] [data-page="${n}"]`);
      return el?.dataset.text === "ready" && el.querySelector(".quote-mark");
    },
    pageNo,
    { timeout },
  );
}

/** fold is how the tests compare words: letters and digits only, lower case, ligatures and accents undone. */
export const fold = (s) => s.normalize("NFKD").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
