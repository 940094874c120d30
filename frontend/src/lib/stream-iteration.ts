// WebKitGTK (the Linux webview) has no async iteration on ReadableStream, and
// pdf.js's getTextContent() uses `for await (… of stream)`. Importing this
// module first, on the page and in the pdf.js worker, adds
// ReadableStream.prototype[Symbol.asyncIterator] and .values() where missing.

/** streamValues iterates a ReadableStream the way the Streams spec's values() does. */
export async function* streamValues<T>(
  this: ReadableStream<T>,
  options: { preventCancel?: boolean } = {},
): AsyncGenerator<T, void, undefined> {
  const reader = this.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } catch (err) {
    finished = true;
    throw err;
  } finally {
    if (!finished && !options.preventCancel) await reader.cancel();
    reader.releaseLock();
  }
}

/** installStreamIteration patches proto unless it already iterates; it reports whether it did. */
export function installStreamIteration(proto: object): boolean {
  const target = proto as Record<PropertyKey, unknown>;
  if (typeof target[Symbol.asyncIterator] === "function") return false;
  for (const key of [Symbol.asyncIterator, "values"]) {
    if (typeof target[key] === "function") continue;
    Object.defineProperty(proto, key, { value: streamValues, writable: true, configurable: true });
  }
  return true;
}

if (typeof ReadableStream !== "undefined") installStreamIteration(ReadableStream.prototype);
