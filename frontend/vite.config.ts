import { cpSync, createReadStream, statSync } from "node:fs";
import { join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const pdfjsRoot = join(root, "node_modules", "pdfjs-dist");

// Data files pdf.js fetches at run time (CJK cMaps, the 14 standard fonts,
// JPEG 2000 / JBIG2 decoders, ICC profiles). The app must work offline, so
// they ship in the build under /pdfjs/<dir>/ instead of coming from a CDN.
const pdfjsDataDirs = ["cmaps", "standard_fonts", "wasm", "iccs"];

function pdfjsData(): Plugin {
  let outDir = join(root, "dist");
  return {
    name: "agentero-pdfjs-data",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use("/pdfjs/", (req, res, next) => {
        const rel = normalize(decodeURIComponent((req.url ?? "").split("?")[0]));
        const [dir] = rel.split(/[\\/]/).filter(Boolean);
        const file = join(pdfjsRoot, rel);
        if (!pdfjsDataDirs.includes(dir) || !file.startsWith(pdfjsRoot + sep)) return next();
        try {
          if (!statSync(file).isFile()) return next();
        } catch {
          return next();
        }
        createReadStream(file).pipe(res);
      });
    },
    writeBundle() {
      for (const dir of pdfjsDataDirs) {
        cpSync(join(pdfjsRoot, dir), join(outDir, "pdfjs", dir), { recursive: true });
      }
    },
  };
}

// In `wails dev`, Wails proxies every request to this dev server and only
// falls back to the Go asset handler on a 404. Vite's SPA fallback would answer
// /vault/… PDFs with index.html, so those paths are refused here.
function vaultPassthrough(): Plugin {
  return {
    name: "agentero-vault-passthrough",
    configureServer(server) {
      server.middlewares.use("/vault/", (_req, res) => {
        res.statusCode = 404;
        res.end();
      });
    },
  };
}

// The page's Content-Security-Policy (index.html) lets it connect only to
// its own origin. Vite's dev server alone adds its hot-reload websocket,
// which runs on a port of its own; the built app never has this.
function devServerPolicy(): Plugin {
  return {
    name: "agentero-dev-csp",
    apply: "serve",
    transformIndexHtml(html) {
      return html.replace("connect-src 'self'", "connect-src 'self' ws://localhost:* ws://127.0.0.1:*");
    },
  };
}

export default defineConfig({
  plugins: [pdfjsData(), vaultPassthrough(), devServerPolicy()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    chunkSizeWarningLimit: 2048,
  },
  worker: { format: "es" },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
    // A test's timeout only catches a hang: what is fast enough is measured
    // by benchmarks. 5 s (vitest's default) failed a DOM-heavy test when
    // the 2 cores were shared with other work.
    testTimeout: 30_000,
  },
});
