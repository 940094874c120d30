// The sources under an answer (SPEC §6): the citations it uses, as clickable
// locations, and, on demand, the ones its tools returned that it does not
// use ("N more consulted").

import { h } from "../lib/dom";
import { disclosure, type Opened } from "./disclosure";
import { sourceLabel, sourceLink, type SourceLink } from "./sources";

export interface SourcesDeps {
  titleOfPath(path: string): string;
  openSource(link: SourceLink): void;
}

/**
 * consultedLinks lists the consulted URIs that are not already among the
 * cited ones and can be opened, with the passages the tools returned for
 * their pages (read).
 */
export function consultedLinks(consulted: readonly string[], cited: readonly SourceLink[], read: ReadonlyMap<string, string> = new Map()): SourceLink[] {
  const seen = new Set(cited.map((l) => l.uri));
  const out: SourceLink[] = [];
  for (const uri of consulted) {
    if (seen.has(uri)) continue;
    seen.add(uri);
    const link = sourceLink(uri, "", read);
    if (link) out.push(link);
  }
  return out;
}

/** sourceList draws the cited sources and the consulted ones behind a toggle; null when there are neither. */
export function sourceList(cited: SourceLink[], consulted: SourceLink[], exists: Record<string, boolean>, opened: Opened, deps: SourcesDeps): HTMLElement | null {
  if (cited.length === 0 && consulted.length === 0) return null;
  const el = h("div", { class: "msg-sources", "data-testid": "sources" });
  if (cited.length > 0) {
    el.append(h("h3", {}, "Sources"), h("ul", {}, ...cited.map((l) => h("li", {}, sourceButton(l, exists, deps, "source")))));
  }
  if (consulted.length > 0) {
    const n = consulted.length;
    const label = cited.length > 0 ? `${n} more consulted` : `${n} consulted, none cited`;
    el.append(
      disclosure(
        opened,
        "consulted",
        { class: "msg-consulted", "data-testid": "consulted" },
        [h("span", { title: "What the agent’s tools returned that the answer does not cite" }, label)],
        () => [h("ul", {}, ...consulted.map((l) => h("li", {}, sourceButton(l, exists, deps, "consulted-source"))))],
      ),
    );
  }
  return el;
}

function sourceButton(link: SourceLink, exists: Record<string, boolean>, deps: SourcesDeps, testid: "source" | "consulted-source"): HTMLElement {
  const missing = exists[link.uri] === false;
  const external = link.citation.kind === "external";
  const button = h(
    "button",
    {
      type: "button",
      class: `source source${missing ? " missing" : ""}${external ? " external" : ""}${link.region ? " figure" : ""}`,
      "data-testid": testid,
      "data-uri": link.uri,
      "data-region": link.region ? "true" : undefined,
      title: missing
        ? `${link.uri}\nThis source is no longer in the vault.`
        : external
          ? `${link.uri}\nOpens in your browser.`
          : link.region
            ? `${link.uri}\nOutlines the figure or table it cites on p. ${link.citation.kind === "vault" ? link.citation.page : ""}`
            : `${link.uri}${link.quote ? `\nHighlights “${link.quote}”` : ""}`,
      onClick: () => deps.openSource(link),
    },
    sourceLabel(link, deps.titleOfPath),
  );
  if (missing) return h("span", { class: "source-row" }, button, h("span", { class: "source-missing" }, "no longer in the vault"));
  if (external) return h("span", { class: "source-row" }, button, h("span", { class: "source-hint" }, "opens in browser ↗"));
  return button;
}
