// Loading PDFs with pdf.js. The legacy build carries polyfills the Linux
// webview (WebKitGTK) needs; the worker and every data file pdf.js fetches
// (cMaps, standard fonts, decoders) ship with the app, so it works offline.

import "../lib/stream-iteration";
import { PDFWorker, getDocument, type PDFDocumentLoadingTask } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { PDFWorkerParameters } from "pdfjs-dist/types/src/display/api";

export type { PDFDocumentProxy, PDFPageProxy, PageViewport, RenderTask } from "pdfjs-dist/legacy/build/pdf.mjs";
export { TextLayer } from "pdfjs-dist/legacy/build/pdf.mjs";

/** CssUnitsPerPoint is the scale at which a page shows at its printed size (zoom 100 %). */
export const CssUnitsPerPoint = 96 / 72;

let worker: PDFWorker | null = null;

// One worker for the app's lifetime. Passing it to getDocument keeps
// loadingTask.destroy() from tearing it down between papers.
function sharedWorker(): PDFWorker {
  if (worker) return worker;
  const params: PDFWorkerParameters = {
    name: "pdf.js",
    port: new Worker(new URL("./pdf-worker.ts", import.meta.url), { type: "module", name: "pdf.js" }),
  };
  // The generated constructor typing says null for every field; the documented type is PDFWorkerParameters.
  worker = new PDFWorker(params as ConstructorParameters<typeof PDFWorker>[0]);
  return worker;
}

// The worker resolves relative URLs against its own script, so these are absolute.
function dataUrl(dir: string): string {
  return new URL(`${import.meta.env.BASE_URL}pdfjs/${dir}/`, document.baseURI).href;
}

export function loadDocument(url: string): PDFDocumentLoadingTask {
  return getDocument({
    url,
    worker: sharedWorker(),
    cMapUrl: dataUrl("cmaps"),
    cMapPacked: true,
    standardFontDataUrl: dataUrl("standard_fonts"),
    wasmUrl: dataUrl("wasm"),
    iccUrl: dataUrl("iccs"),
    // The file is local: one streamed read is fast, and it sidesteps WebKit's
    // history of caching range responses badly behind a custom URL scheme.
    disableRange: true,
    isEvalSupported: false,
    enableXfa: false,
  });
}

/** describeLoadError words a pdf.js failure for a researcher. */
export function describeLoadError(err: unknown, path: string): string {
  const name = (err as { name?: string })?.name ?? "";
  const status = (err as { status?: number })?.status ?? 0;
  if (name === "PasswordException") {
    return "This PDF is password-protected, so Agentero can’t display it.";
  }
  if (name === "InvalidPDFException") {
    return "This file doesn’t look like a valid PDF; it may be damaged or only partly downloaded.";
  }
  if (name === "ResponseException" && status === 404) {
    return `The PDF is no longer at ${path}. It may have been moved or deleted; the library updates when the index catches up.`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `Couldn’t open this PDF: ${message}`;
}
