// The pdf.js worker entry: the stream-iteration polyfill must run before
// pdf.js in the worker too (it decompresses with `for await` there).
import "../lib/stream-iteration";
import "pdfjs-dist/legacy/build/pdf.worker.mjs";
