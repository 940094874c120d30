// Collapsible parts of an answer (tool calls, their input, the turn's
// context, consulted sources) stay as the reader left them: an answer is
// drawn anew on every streamed chunk, so each remembers, by a key within
// its message, whether it was open.

import { h } from "../lib/dom";

/** Opened holds the keys of the parts of one message that the reader opened. */
export type Opened = Set<string>;

type Props = Parameters<typeof h>[1];

/**
 * disclosure is a <details> that opens as the reader left it. Its body is
 * built when it is first opened, so that a long tool output costs nothing
 * while it stays collapsed.
 */
export function disclosure(opened: Opened, key: string, props: Props, summary: (Node | string)[], body: () => (Node | string | null)[]): HTMLDetailsElement {
  const details = h("details", props, h("summary", {}, ...summary));
  let built = false;
  const build = () => {
    if (built) return;
    built = true;
    details.append(...body().filter((n): n is Node | string => n !== null));
  };
  if (opened.has(key)) build();
  details.addEventListener("toggle", () => {
    if (details.open) build();
  });
  return remember(opened, key, details);
}

/** remember opens details as the reader left them, and notes when the reader opens or closes them. */
export function remember(opened: Opened, key: string, details: HTMLDetailsElement): HTMLDetailsElement {
  details.open = opened.has(key);
  details.addEventListener("toggle", () => {
    if (details.open) opened.add(key);
    else opened.delete(key);
  });
  return details;
}
