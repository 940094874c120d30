// Citation URIs are how sources point into the vault (SPEC §1):
//   papers/raft/paper.pdf#page=3&quote=Raft%20decomposes
//   papers/raft/paper.pdf#page=3&region=72,96.5,230,180
// a vault-relative file path plus an optional fragment (1-based physical page,
// a region of the page — a figure or table, x,y,width,height in PDF points
// from the page's top-left — and url-encoded first words of the quote). Cards may also carry external links,
// but only to https://doi.org/<doi> and https://arxiv.org/abs/<id>.

/** MaxQuote is the longest quote a citation carries (SPEC §11). */
export const MaxQuote = 1200;

export interface VaultCitation {
  kind: "vault";
  /** Decoded vault-relative path with "/" separators. */
  path: string;
  /** 1-based physical page; 1 when the URI names none. */
  page: number;
  /** Decoded quote text, "" when absent. */
  quote: string;
  /** The part of the page cited (a figure, a table); absent when the URI names none. */
  region?: Region;
}

/** Region is a rectangle of a page in PDF points from its top-left corner, as backend/citation.Region. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** MaxSide is the longest side of any PDF page, in points: no region reaches past it (citation.MaxSide). */
export const MaxSide = 14400;

export interface ExternalCitation {
  kind: "external";
  url: string;
}

export type Citation = VaultCitation | ExternalCitation;

const externalPrefixes = ["https://doi.org/", "https://arxiv.org/abs/"];

/**
 * parseCitation reads a citation URI. It returns null for anything that is
 * not a safe vault path or an allowed external link: other schemes, absolute
 * paths, "..", Agentero's own .agentero/ folder, malformed escapes, bad pages.
 */
export function parseCitation(uri: string): Citation | null {
  const text = uri.trim();
  if (text === "") return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return parseExternal(text);

  const hash = text.indexOf("#");
  const rawPath = hash < 0 ? text : text.slice(0, hash);
  const fragment = hash < 0 ? "" : text.slice(hash + 1);

  const path = parsePath(rawPath);
  if (path === null) return null;

  let page = 1;
  let quote = "";
  let region: Region | null = null;
  if (fragment !== "") {
    if (!validEscapes(fragment)) return null;
    // URLSearchParams decodes "+" as a space, as Go's url.QueryEscape writes it.
    const params = new URLSearchParams(fragment);
    const pageText = params.get("page");
    if (pageText !== null) {
      if (!/^[1-9][0-9]{0,5}$/.test(pageText)) return null;
      page = Number(pageText);
    }
    quote = (params.get("quote") ?? "").trim().slice(0, MaxQuote);
    const regions = params.getAll("region");
    if (regions.length > 1) return null;
    // The raw text: a region is plain digits, dots and commas, never encoded.
    const raw = /(?:^|&)region=([^&]*)/.exec(fragment)?.[1];
    if (raw !== undefined) {
      const r = parseRegion(raw);
      if (r === undefined) return null;
      if (pageText !== null) region = r;
    }
  }
  return region ? { kind: "vault", path, page, quote, region } : { kind: "vault", path, page, quote };
}

/**
 * parseRegion reads "x,y,width,height" as a citation writes it (numbers
 * with at most one decimal): undefined when it is not that (the URI is
 * refused), null when it can lie on no page (the region is dropped, the
 * page still cited), as backend/citation.ParseRegion.
 */
export function parseRegion(text: string): Region | null | undefined {
  const parts = text.split(",");
  if (parts.length !== 4 || !parts.every((p) => /^[0-9]{1,5}(\.[0-9])?$/.test(p))) return undefined;
  const [x, y, width, height] = parts.map(Number);
  if (width <= 0 || height <= 0 || x + width > MaxSide || y + height > MaxSide) return null;
  return { x, y, width, height };
}

/**
 * regionOnPage says whether a region lies on a page width × height points,
 * give or take a point at its edges (a figure's stroke): one that does not
 * is dropped, never drawn off its page (backend/citation.Region.Inside).
 */
export function regionOnPage(r: Region, width: number, height: number): boolean {
  const slack = 1;
  return r.width > 0 && r.height > 0 && r.x >= 0 && r.y >= 0 && r.x + r.width <= width + slack && r.y + r.height <= height + slack;
}

/** formatRegion writes a region as a citation carries it, each number to a tenth of a point. */
export function formatRegion(r: Region): string {
  return [r.x, r.y, r.width, r.height].map((v) => String(Math.round(v * 10) / 10)).join(",");
}

/**
 * citedFile reads a citation URI written inside an answer, where brackets
 * and links also hold footnotes ("[1]", "[sic]") and ordinary paths: a vault
 * citation counts only when it names a file under a folder (its last segment
 * has an extension), so "papers/raft" or "paper.pdf" stay text. Allowed
 * external links always count. It returns null for anything else.
 */
export function citedFile(uri: string): Citation | null {
  const c = parseCitation(uri);
  if (c === null || c.kind === "external") return c;
  const last = c.path.split("/").pop() ?? "";
  return c.path.includes("/") && /\.[A-Za-z0-9]{1,8}$/.test(last) ? c : null;
}

/** formatCitation writes a vault citation back as a URI. */
export function formatCitation(c: { path: string; page: number; quote?: string; region?: Region | null }): string {
  const path = c.path.split("/").map(encodeURIComponent).join("/");
  let uri = `${path}#page=${c.page}`;
  if (c.region && parseRegion(formatRegion(c.region))) uri += `&region=${formatRegion(c.region)}`;
  if (c.quote) uri += `&quote=${encodeURIComponent(c.quote.slice(0, MaxQuote))}`;
  return uri;
}

function parseExternal(text: string): ExternalCitation | null {
  for (const prefix of externalPrefixes) {
    if (text.startsWith(prefix) && text.length > prefix.length && !/\s/.test(text)) {
      return { kind: "external", url: text };
    }
  }
  return null;
}

function parsePath(raw: string): string | null {
  if (raw === "" || raw.startsWith("/") || raw.includes("\\")) return null;
  const segments: string[] = [];
  for (const part of raw.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (segment === "" || segment === "." || segment === ".." || /[\\/\u0000]/.test(segment)) return null;
    segments.push(segment);
  }
  if (segments[0] === ".agentero") return null;
  return segments.join("/");
}

// validEscapes rejects "%" not followed by two hex digits, which
// URLSearchParams would otherwise pass through silently.
function validEscapes(s: string): boolean {
  return !/%(?![0-9a-f]{2})/i.test(s);
}
