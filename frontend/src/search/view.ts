// The search box over the whole index and its result list. Typing is
// debounced; answers to superseded queries are dropped; ↑/↓ move through the
// hits, Enter opens one, Escape clears the search.

import { errorText, type SearchHit } from "../lib/backend";
import { h } from "../lib/dom";
import { placeText, snippetHtml } from "./hit";

export const SearchLimit = 50;
const DebounceMs = 200;

export interface SearchDeps {
  search(query: string, limit: number): Promise<SearchHit[]>;
  open(hit: SearchHit, query: string): void;
  /** active is called with true while a query is in the box (the library list hides). */
  active(on: boolean): void;
  /** indexing tells whether results may still be incomplete. */
  indexing(): boolean;
}

export interface SearchView {
  focus(): void;
  clear(): void;
  /** refresh re-runs the current query, e.g. after the index changed. */
  refresh(): void;
}

export function mountSearch(host: HTMLElement, results: HTMLElement, deps: SearchDeps): SearchView {
  const input = h("input", {
    type: "search",
    class: "search-input",
    placeholder: "Search all papers  (Ctrl+F)",
    "aria-label": "Search all papers",
    "aria-controls": "search-hits",
    "aria-autocomplete": "list",
    autocomplete: "off",
    spellcheck: false,
    "data-testid": "search-input",
  });
  const status = h("div", { class: "pane-message", role: "status" });
  const list = h("ul", { id: "search-hits", class: "search-hits", role: "listbox", "aria-label": "Search results" });
  host.append(input);
  results.append(status, list);
  results.hidden = true;

  let hits: SearchHit[] = [];
  let query = "";
  /** The query the hits on screen answer. */
  let hitsQuery = "";
  let activeIndex = -1;
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function setStatus(text: string, tone = "") {
    status.textContent = text;
    status.className = `pane-message ${tone}`;
    status.hidden = text === "";
  }

  async function run(q: string) {
    const mine = ++seq;
    setStatus("Searching…");
    try {
      const found = await deps.search(q, SearchLimit);
      if (mine !== seq) return;
      hits = found;
      hitsQuery = q;
      activeIndex = hits.length > 0 ? 0 : -1;
      renderHits();
      if (hits.length === 0) {
        setStatus(`No passages match “${q}”. Try fewer or different words.`);
      } else if (deps.indexing()) {
        setStatus("Indexing is still running, so some papers may be missing from these results.");
      } else {
        setStatus(hits.length >= SearchLimit ? `Showing the first ${SearchLimit} passages.` : "");
      }
    } catch (err) {
      if (mine !== seq) return;
      hits = [];
      hitsQuery = q;
      renderHits();
      setStatus(`Search failed: ${errorText(err)}`, "error");
    }
  }

  function schedule() {
    clearTimeout(timer);
    query = input.value.trim();
    if (query === "") {
      seq++; // drop any answer still on its way
      hits = [];
      hitsQuery = "";
      renderHits();
      setStatus("");
      results.hidden = true;
      deps.active(false);
      return;
    }
    results.hidden = false;
    deps.active(true);
    timer = setTimeout(() => void run(query), DebounceMs);
  }

  function renderHits() {
    list.replaceChildren(
      ...hits.map((hit, i) => {
        const snippet = h("p", { class: "hit-snippet" });
        snippet.innerHTML = snippetHtml(hit.snippet);
        return h(
          "li",
          {
            id: `search-hit-${i}`,
            class: "search-hit",
            role: "option",
            "data-testid": "search-hit",
            "data-index": i,
            "aria-selected": String(i === activeIndex),
          },
          h("div", { class: "hit-head" }, h("span", { class: "hit-title" }, hit.title || hit.ref), h("span", { class: "hit-page", title: placeText(hit) }, placeText(hit))),
          snippet,
        );
      }),
    );
    markActive();
  }

  function markActive() {
    for (const li of list.children) {
      const selected = Number((li as HTMLElement).dataset.index) === activeIndex;
      li.setAttribute("aria-selected", String(selected));
      if (selected) li.scrollIntoView({ block: "nearest" });
    }
    if (activeIndex >= 0) input.setAttribute("aria-activedescendant", `search-hit-${activeIndex}`);
    else input.removeAttribute("aria-activedescendant");
  }

  function openAt(i: number) {
    const hit = hits[i];
    if (!hit) return;
    activeIndex = i;
    markActive();
    deps.open(hit, query);
  }

  input.addEventListener("input", schedule);
  input.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (hits.length === 0) return;
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      activeIndex = (activeIndex + step + hits.length) % hits.length;
      markActive();
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (hitsQuery !== query) {
        // Enter before the answer arrived: search now; the next Enter opens.
        clearTimeout(timer);
        if (query) void run(query);
        return;
      }
      openAt(Math.max(0, activeIndex));
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      if (input.value) {
        input.value = "";
        schedule();
      } else {
        input.blur();
      }
    }
  });
  list.addEventListener("click", (e) => {
    const li = (e.target as HTMLElement).closest<HTMLElement>("[data-index]");
    if (li) openAt(Number(li.dataset.index));
  });

  return {
    focus() {
      input.focus();
      input.select();
    },
    clear() {
      input.value = "";
      schedule();
    },
    refresh() {
      if (query) void run(query);
    },
  };
}
