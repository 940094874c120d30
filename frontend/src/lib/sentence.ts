// Errors are shown as sentences, never as raw JSON: an agent or a library
// may hand back a JSON-RPC error object, or a message with one inside it.

/** readable turns a message that is (or ends in) JSON into the words inside it. */
export function readable(message: string): string {
  const text = message.trim();
  const at = text.search(/[{[]/);
  if (at < 0) return text;
  const json = text.slice(at);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return text;
  }
  const words = wordsOf(parsed);
  const before = text.slice(0, at).replace(/[\s:=-]+$/, "");
  const said = [before, words].filter(Boolean).join(": ");
  return said ? sentenceCase(said) : "The operation failed without saying why.";
}

function wordsOf(v: unknown): string {
  if (typeof v === "string") return v.trim();
  if (Array.isArray(v)) return v.map(wordsOf).filter(Boolean).join("; ");
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    for (const k of ["message", "error", "detail", "reason", "msg"]) {
      const w = wordsOf(o[k]);
      if (w) {
        const inner = o.data && typeof o.data === "object" ? wordsOf((o.data as Record<string, unknown>).details ?? (o.data as Record<string, unknown>).message) : "";
        return inner && inner !== w ? `${w} (${inner})` : w;
      }
    }
  }
  return "";
}

function sentenceCase(s: string): string {
  const t = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?…)]$/.test(t) ? t : `${t}.`;
}
