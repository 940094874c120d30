// The renderer in a real browser, before it is wired into the app: builds a
// page holding only src/markdown with Vite, serves it on 127.0.0.1, and in
// headless Chromium (the system's, driven by the e2e suite's playwright-core)
//   - renders the sample answer and checks what it must contain,
//   - renders every hostile answer at once and streamed in 40 chunks, fires
//     events at every element, and runs inertProblems (the sentinel, on*
//     attributes, live links, embedding elements), and watches for dialogs
//     and for any request leaving the page's own origin,
//   - streams a 5,000-row table in 100-character chunks and times each draw.
// Prints the numbers and exits non-zero when anything is live or missing.
//
//   cd frontend && node src/markdown/testdata/browser-check.mjs
//   (needs test/e2e's node_modules: cd test/e2e && npm ci)

import { createServer } from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const module = resolve(here, "..");
const repo = resolve(here, "../../../..");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const playwrightEntry = join(repo, "test/e2e/node_modules/playwright-core/index.mjs");
if (!existsSync(playwrightEntry)) {
  console.error(`playwright-core not found at ${playwrightEntry}: run npm ci in test/e2e`);
  process.exit(2);
}
const { chromium } = await import(pathToFileURL(playwrightEntry).href);

const page = `
import { createAnswerView, renderAnswer } from ${JSON.stringify(join(module, "answer.ts"))};
import { hostileAnswers, inertProblems, sampleAnswer } from ${JSON.stringify(join(here, "answers.mjs"))};
const host = document.getElementById("host");
const fire = (root) => {
  for (const el of [root, ...root.querySelectorAll("*")]) {
    for (const type of ["click", "auxclick", "mouseover", "focus", "load", "error", "toggle", "animationstart"]) {
      el.dispatchEvent(new Event(type, { bubbles: true, cancelable: true }));
    }
  }
};
window.check = {
  names: hostileAnswers.map((a) => a.name),
  sample() {
    const view = renderAnswer(sampleAnswer.text);
    host.replaceChildren(view.element);
    const missing = Object.entries(sampleAnswer.expect)
      .map(([sel, n]) => [sel, n, view.element.querySelectorAll(sel).length])
      .filter(([, n, got]) => n !== got);
    return { missing, problems: inertProblems(view.element) };
  },
  hostile(i, chunks) {
    const { text } = hostileAnswers[i];
    const view = createAnswerView({ openExternal() {}, onCitation() {} });
    host.replaceChildren(view.element);
    const start = performance.now();
    if (chunks <= 1) view.finish(text);
    else {
      const step = Math.ceil(text.length / chunks);
      for (let at = step; at < text.length + step; at += step) {
        view.update(text.slice(0, at));
        view.flush();
      }
    }
    const ms = performance.now() - start;
    fire(view.element);
    return { ms, problems: inertProblems(view.element) };
  },
  table(rows, chunk) {
    let text = "Intro.\\n\\n| # | name | value |\\n|---|---|--:|\\n";
    for (let i = 0; i < rows; i++) text += "| " + i + " | row **" + i + "** | " + i * 3.5 + " |\\n";
    text += "\\nAfter the table.";
    const view = createAnswerView();
    host.replaceChildren(view.element);
    const draws = [];
    for (let at = chunk; at < text.length + chunk; at += chunk) {
      const s = performance.now();
      view.update(text.slice(0, at));
      view.flush();
      view.element.getBoundingClientRect();
      draws.push(performance.now() - s);
    }
    const s = performance.now();
    view.finish(text);
    view.element.getBoundingClientRect();
    const finish = performance.now() - s;
    const once = performance.now();
    const fresh = renderAnswer(text);
    host.replaceChildren(fresh.element);
    fresh.element.getBoundingClientRect();
    const whole = performance.now() - once;
    draws.sort((a, b) => a - b);
    return {
      chars: text.length,
      draws: draws.length,
      median: draws[draws.length >> 1],
      p95: draws[Math.floor(draws.length * 0.95)],
      max: draws[draws.length - 1],
      finish,
      whole,
      rows: fresh.element.querySelectorAll("tbody tr").length,
      note: fresh.element.querySelector(".md-table-note .md-count")?.textContent ?? "",
    };
  },
};
window.ready = true;
`;

const dir = mkdtempSync(join(tmpdir(), "agentero-md-"));
const out = join(dir, "dist");
writeFileSync(join(dir, "index.html"), `<!doctype html><meta charset="utf-8"><div id="host" style="width:640px"></div><script type="module" src="./main.js"></script>`);
writeFileSync(join(dir, "main.js"), page);
await build({ root: dir, base: "./", configFile: false, logLevel: "warn", build: { outDir: out, target: "es2022" } });

const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".woff2": "font/woff2", ".woff": "font/woff", ".ttf": "font/ttf" };
const server = createServer((req, res) => {
  const path = decodeURIComponent((req.url ?? "/").split("?")[0]);
  const file = resolve(out, "." + (path === "/" ? "/index.html" : path));
  if (!file.startsWith(out) || !existsSync(file)) {
    res.statusCode = 404;
    return res.end();
  }
  res.setHeader("content-type", types[extname(file)] ?? "application/octet-stream");
  res.end(readFileSync(file));
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
let failed = false;
try {
  const tab = await browser.newPage();
  const leaks = [];
  const dialogs = [];
  tab.on("request", (r) => r.url().startsWith(origin) || leaks.push(r.url()));
  tab.on("dialog", (d) => (dialogs.push(d.message()), d.dismiss()));
  tab.on("pageerror", (e) => console.log("page error:", e.message));
  await tab.goto(origin + "/");
  await tab.waitForFunction(() => window.ready);
  console.log(await tab.evaluate(() => navigator.userAgent));

  const sample = await tab.evaluate(() => window.check.sample());
  console.log("sample answer:", sample.missing.length === 0 && sample.problems.length === 0 ? "ok" : JSON.stringify(sample));
  failed ||= sample.missing.length > 0 || sample.problems.length > 0;

  const names = await tab.evaluate(() => window.check.names);
  let slowest = { name: "", ms: 0 };
  for (let i = 0; i < names.length; i++) {
    for (const chunks of [1, 40]) {
      const r = await tab.evaluate(([i, c]) => window.check.hostile(i, c), [i, chunks]);
      if (r.problems.length) {
        failed = true;
        console.log(`LIVE: ${names[i]} (${chunks === 1 ? "at once" : "streamed"}):`, r.problems.slice(0, 5));
      }
      if (r.ms > slowest.ms) slowest = { name: `${names[i]} (${chunks === 1 ? "at once" : `${chunks} chunks`})`, ms: r.ms };
    }
  }
  console.log(`hostile answers: ${names.length} × 2 drawn; slowest ${slowest.name}: ${slowest.ms.toFixed(0)} ms`);
  console.log(`requests outside the page: ${leaks.length ? leaks.join(", ") : "none"}; dialogs: ${dialogs.length ? dialogs.join(", ") : "none"}`);
  failed ||= leaks.length > 0 || dialogs.length > 0;

  const t = await tab.evaluate(() => window.check.table(5000, 100));
  const ms = (x) => `${x.toFixed(1)} ms`;
  console.log(
    `5,000-row table (${t.chars} chars) streamed in ${t.draws} chunks: draw median ${ms(t.median)}, p95 ${ms(t.p95)}, max ${ms(t.max)}; ` +
      `finish ${ms(t.finish)}; drawn at once ${ms(t.whole)}; ${t.rows} rows drawn; note: ${t.note}`,
  );
  failed ||= !t.note;
} finally {
  await browser.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
