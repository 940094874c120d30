// The relations panel under the library: what the open paper cites, the
// library papers that cite it, and related papers, each list with its count
// and collapsible. A library paper opens in the viewer, a work with a DOI or
// arXiv id opens in the browser, anything else is listed but not clickable.
// Up and Down move between the panel's controls.

import { errorText, type RelationCard, type RelationKind, type Relations } from "../lib/backend";
import { h } from "../lib/dom";
import "./relations.css";
import {
  actionHint,
  cardAction,
  cardMeta,
  countText,
  emptyTexts,
  initialRelations,
  kindTitles,
  reduceRelations,
  relationKinds,
  type CardAction,
  type RelationsEvent,
  type RelationsState,
} from "./state";

/** Cards asked for per list. */
export const RelationsLimit = 100;
const OpenKey = "agentero.relationsOpen";

export interface RelationsDeps {
  load(ref: string, limit: number): Promise<Relations>;
  /** openPaper opens a library paper (by ref, or by its PDF's vault path) in the viewer. */
  openPaper(ref: string, path: string): void;
  openExternal(url: string): Promise<void>;
}

export interface RelationsPanel {
  el: HTMLElement;
  /** setPaper shows the relations of this library paper (null: none is open). */
  setPaper(ref: string | null, title: string): void;
  /** reload asks again for the open paper's relations (the library changed). */
  reload(): void;
  /** focus opens the panel and puts the keyboard in it. */
  focus(): void;
}

// The counts beside the panel's title, each labelled.
const countLabels: Record<RelationKind, string> = { references: "refs", citedBy: "cited by", related: "related" };

export function mountRelations(host: HTMLElement, deps: RelationsDeps): RelationsPanel {
  let state: RelationsState = initialRelations;
  let seq = 0;
  let open = localStorage.getItem(OpenKey) !== "false";

  const counts = h("span", { class: "relations-counts", "data-testid": "relations-counts" });
  const toggle = h(
    "button",
    { type: "button", class: "relations-toggle", "aria-controls": "relations-body", "data-testid": "relations-toggle", title: "Show or hide the open paper’s relations (Ctrl+Shift+L)" },
    h("span", { class: "relations-chevron", "aria-hidden": "true" }),
    h("span", { class: "relations-heading" }, "Relations"),
    counts,
  );
  const paperLine = h("p", { class: "relations-paper", "data-testid": "relations-paper" });
  const notice = h("p", { class: "relations-notice", role: "alert", hidden: true });
  const body = h("div", { id: "relations-body", class: "relations-body" });
  const el = h(
    "section",
    { class: "relations", "aria-label": "Relations of the open paper", "data-testid": "relations" },
    h("h2", { class: "relations-title" }, toggle),
    h("div", { class: "relations-content" }, paperLine, notice, body),
  );
  host.append(el);

  function dispatch(e: RelationsEvent) {
    const next = reduceRelations(state, e);
    if (next === state) return;
    state = next;
    render();
  }

  function setNotice(text: string) {
    notice.textContent = text;
    notice.hidden = text === "";
  }

  async function load() {
    const ref = state.ref;
    if (ref === null) return;
    const mine = ++seq;
    dispatch({ type: "request", seq: mine });
    try {
      dispatch({ type: "loaded", seq: mine, relations: await deps.load(ref, RelationsLimit) });
    } catch (err) {
      dispatch({ type: "failed", seq: mine, error: errorText(err) });
    }
  }

  function follow(action: CardAction) {
    setNotice("");
    if (action.kind === "paper") deps.openPaper(action.ref, action.path);
    else if (action.kind === "external") deps.openExternal(action.url).catch((err) => setNotice(`Couldn’t open ${action.url}: ${errorText(err)}`));
  }

  function render() {
    el.classList.toggle("collapsed", !open);
    el.dataset.status = state.status;
    toggle.setAttribute("aria-expanded", String(open));
    const r = state.relations;
    counts.textContent = r ? relationKinds.map((k) => `${countText(r[k].length, RelationsLimit)} ${countLabels[k]}`).join(" · ") : "";
    counts.title = r ? relationKinds.map((k) => `${kindTitles[k]}: ${r[k].length}`).join(", ") : "";
    body.hidden = !open;
    paperLine.hidden = !open;
    if (!open) {
      notice.hidden = true;
      return;
    }
    notice.hidden = notice.textContent === "";
    if (state.ref === null) {
      paperLine.textContent = "";
      body.replaceChildren(h("p", { class: "relations-empty" }, "Open a paper to see what it cites, who cites it and what is related."));
      return;
    }
    paperLine.textContent = state.status === "loading" && !r ? "Reading the relations…" : state.status === "error" ? `Couldn’t read the relations: ${state.error}` : "";
    paperLine.classList.toggle("error", state.status === "error");
    if (!r) {
      body.replaceChildren();
      return;
    }
    const focus = focusKey(body);
    body.replaceChildren(...relationKinds.map((k) => list(k, r[k])));
    if (focus) body.querySelector<HTMLElement>(focus)?.focus();
  }

  function list(kind: RelationKind, cards: RelationCard[]): HTMLElement {
    const expanded = state.expanded[kind];
    const id = `relations-${kind}`;
    const head = h(
      "button",
      {
        type: "button",
        class: "relations-kind",
        "aria-expanded": String(expanded),
        "aria-controls": id,
        "data-testid": "relations-kind",
        "data-kind": kind,
        onClick: () => dispatch({ type: "toggle", kind }),
      },
      h("span", { class: "relations-chevron", "aria-hidden": "true" }),
      h("span", {}, kindTitles[kind]),
      h("span", { class: "relations-count", "data-testid": "relations-count" }, countText(cards.length, RelationsLimit)),
    );
    const items = cards.length
      ? h("ul", { id, class: "relations-cards", hidden: !expanded }, ...cards.map((c, i) => h("li", {}, card(c, kind, i))))
      : h("p", { id, class: "relations-empty", hidden: !expanded }, emptyTexts[kind]);
    return h("div", { class: "relations-list", "data-kind": kind, "data-testid": `relations-${kind}` }, head, items);
  }

  function card(c: RelationCard, kind: RelationKind, index: number): HTMLElement {
    const action = cardAction(c);
    const meta = cardMeta(c);
    const parts = [
      h("span", { class: "relation-title" }, c.title || "(untitled)"),
      meta ? h("span", { class: "relation-meta" }, meta) : null,
      h("span", { class: "relation-hint" }, actionHint(action)),
    ];
    const attrs = {
      "data-testid": "relation-card",
      "data-kind": kind,
      "data-index": index,
      "data-action": action.kind,
      "data-match": c.matchBy,
      "data-ref": c.paperPath || undefined,
    };
    if (action.kind === "none") return h("div", { class: "relation-card inert", ...attrs, title: `${c.title}\nNot in your library and no DOI or arXiv id to look it up by.` }, ...parts);
    const title = action.kind === "paper" ? `${c.title}\nOpen ${action.path || action.ref}` : `${c.title}\nOpen ${action.url} in your browser`;
    return h("button", { type: "button", class: `relation-card ${action.kind}`, ...attrs, title, onClick: () => follow(action) }, ...parts);
  }

  toggle.addEventListener("click", () => {
    open = !open;
    localStorage.setItem(OpenKey, String(open));
    render();
  });
  el.addEventListener("keydown", (e) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const controls = [...el.querySelectorAll<HTMLElement>("button")].filter((b) => b.offsetParent !== null);
    const at = controls.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    e.preventDefault();
    controls[Math.min(controls.length - 1, Math.max(0, at + (e.key === "ArrowDown" ? 1 : -1)))]?.focus();
  });
  render();

  return {
    el,
    setPaper(ref, title) {
      paperLine.title = title;
      if (ref === state.ref) return;
      setNotice("");
      dispatch({ type: "paper", ref });
      void load();
    },
    reload() {
      void load();
    },
    focus() {
      if (!open) toggle.click();
      const first = body.querySelector<HTMLElement>("button.relation-card, .relations-kind") ?? toggle;
      first.focus();
    },
  };
}

// focusKey names the focused control inside the lists, so that it keeps the
// focus when the lists are drawn again (a reload after the library changed).
function focusKey(body: HTMLElement): string {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement) || !body.contains(el)) return "";
  if (el.dataset.testid === "relations-kind") return `[data-testid="relations-kind"][data-kind="${el.dataset.kind}"]`;
  if (el.dataset.testid === "relation-card") return `[data-testid="relation-card"][data-kind="${el.dataset.kind}"][data-index="${el.dataset.index}"]`;
  return "";
}
