// Permission cards (SPEC §6): what the agent asks to do beyond its context
// tools, with the agent's own options as buttons. The turn waits for the
// answer. A request naming files inside the vault reaches outside what the
// turn was granted: it says so, and Reject has the focus.
//
// Keyboard: the card's preferred option is focused when the card appears;
// the arrow keys (and Home, End) move between the options, Enter or Space
// chooses one, and Tab leaves the card from the option last focused.

import { h } from "../lib/dom";
import type { PermissionOption } from "../lib/events";
import { disclosure, type Opened } from "./disclosure";
import type { PermissionRequest } from "./state";
import { jsonBlock, locationList, titleParts, type ActivityDeps } from "./tool-view";

export interface PermissionDeps extends ActivityDeps {
  /** answer sends the chosen option; the decision comes back as an agent:permission event. */
  answer(requestId: string, optionId: string): void;
}

/** permissionCards draws a message's requests that are not decided by Agentero's policy; null when there are none. */
export function permissionCards(permissions: PermissionRequest[], cancelling: boolean, opened: Opened, deps: PermissionDeps): HTMLElement | null {
  const shown = permissions.filter((p) => !p.auto);
  if (shown.length === 0) return null;
  return h("div", { class: "msg-permissions" }, ...shown.map((p) => card(p, cancelling, opened, deps)));
}

function card(p: PermissionRequest, cancelling: boolean, opened: Opened, deps: PermissionDeps): HTMLElement {
  const titleId = `perm-${cssId(p.requestId)}-title`;
  const state = p.outcome || (p.answering ? "answering" : "waiting");
  const el = h(
    "section",
    {
      class: `perm-card perm-${state}${p.inVault ? " perm-outside" : ""}`,
      role: "group",
      "aria-labelledby": titleId,
      "data-testid": "permission",
      "data-request-id": p.requestId,
      "data-state": state,
      "data-in-vault": p.inVault ? "true" : "false",
    },
    h(
      "header",
      { class: "perm-head" },
      h("span", { class: "perm-label" }, p.outcome ? "The agent asked" : "The agent asks"),
      p.kind ? h("span", { class: "perm-kind", "data-testid": "permission-kind" }, kindWord(p.kind)) : null,
    ),
    h("h4", { class: "perm-title", id: titleId, "data-testid": "permission-title" }, ...titleParts(p.title)),
  );
  if (p.inVault) {
    el.append(
      h(
        "p",
        { class: "perm-warning", "data-testid": "permission-outside" },
        "Outside this question’s grant: it names files in your vault that the agent was not given for this turn.",
      ),
    );
  }
  if (p.locations.length > 0) el.append(locationList(p.locations, deps));
  if (p.input) {
    el.append(disclosure(opened, `perm-input:${p.requestId}`, { class: "perm-input", "data-testid": "permission-input" }, ["Input"], () => [jsonBlock(p.input, "tool-input")]));
  }
  if (p.outcome) {
    el.append(h("p", { class: "perm-outcome", "data-testid": "permission-outcome", role: "status" }, outcomeText(p)));
    return el;
  }
  el.append(optionButtons(p, cancelling, deps));
  if (cancelling) el.append(h("p", { class: "perm-note" }, "Cancelling the turn…"));
  if (p.answerError) el.append(h("p", { class: "perm-error", role: "alert", "data-testid": "permission-error" }, `Your answer was not sent: ${p.answerError}`));
  return el;
}

function optionButtons(p: PermissionRequest, cancelling: boolean, deps: PermissionDeps): HTMLElement {
  const preferred = preferredOption(p);
  const buttons = p.options.map((o) =>
    h(
      "button",
      {
        type: "button",
        class: `perm-option ${o.kind.startsWith("reject") ? "reject" : "allow"}`,
        "data-testid": "permission-option",
        "data-option-id": o.id,
        "data-kind": o.kind,
        "data-focus": `perm:${p.requestId}:${o.id}`,
        tabIndex: o.id === preferred ? 0 : -1,
        disabled: cancelling || p.answering !== "",
        "aria-busy": p.answering === o.id ? "true" : undefined,
        onClick: () => deps.answer(p.requestId, o.id),
      },
      p.answering === o.id ? `${o.name}…` : o.name,
    ),
  );
  const group = h("div", { class: "perm-options", role: "group", "aria-label": "Answer the agent" }, ...buttons);
  group.addEventListener("keydown", (e) => moveFocus(e, buttons));
  group.addEventListener("focusin", (e) => {
    // Roving focus: Tab comes back to the option last focused.
    for (const b of buttons) b.tabIndex = b === e.target ? 0 : -1;
  });
  return group;
}

function moveFocus(e: KeyboardEvent, buttons: HTMLButtonElement[]): void {
  const at = buttons.indexOf(e.target as HTMLButtonElement);
  if (at < 0) return;
  let next = -1;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") next = (at + 1) % buttons.length;
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = (at - 1 + buttons.length) % buttons.length;
  else if (e.key === "Home") next = 0;
  else if (e.key === "End") next = buttons.length - 1;
  if (next < 0) return;
  e.preventDefault();
  buttons[next].focus();
}

/** readOnlyKinds are the tool kinds (ACP ToolKind) that change nothing: only for them is "allow once" focused. */
const readOnlyKinds = new Set(["read", "search", "fetch", "think"]);

/**
 * preferredOption is the option focused when a card appears: Reject when the
 * request reaches outside the grant or would change something (an edit, a
 * command, a kind not known to be read-only), so a stray Enter never allows
 * it; else "allow once" (never "always"), else the agent's first.
 */
export function preferredOption(p: Pick<PermissionRequest, "inVault" | "options"> & { kind?: string }): string {
  const find = (test: (o: PermissionOption) => boolean) => p.options.find(test)?.id;
  if (p.inVault || !readOnlyKinds.has(p.kind ?? "")) return find((o) => o.kind === "reject_once") ?? find((o) => o.kind.startsWith("reject")) ?? p.options[0]?.id ?? "";
  return find((o) => o.kind === "allow_once") ?? p.options[0]?.id ?? "";
}

/** outcomeText says how a request was decided. */
export function outcomeText(p: Pick<PermissionRequest, "outcome" | "optionId" | "options">): string {
  if (p.outcome === "cancelled") return "Cancelled: the turn ended before an answer.";
  const o = p.options.find((x) => x.id === p.optionId);
  if (!o) return "Answered.";
  return `${o.kind.startsWith("reject") ? "Rejected" : "Allowed"}: you chose “${o.name}”.`;
}

function kindWord(kind: string): string {
  return kind.replace(/_/g, " ");
}

function cssId(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, "_");
}
