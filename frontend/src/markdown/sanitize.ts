// The last gate between an answer and the page. markdown-it (raw HTML off)
// and KaTeX (trust off) already escape what the agent wrote; DOMPurify then
// keeps only the elements and attributes those two generate, so that a bug
// or a missed case in either still cannot put a script, a handler, a frame,
// a style sheet, an image or a live non-https link on the page.

import DOMPurify, { type Config, type DOMPurify as Purifier } from "dompurify";

// Elements markdown-it and our renderer rules write.
const markdownTags = [
  "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li",
  "pre", "code", "em", "strong", "s", "a", "span", "div", "button",
  "table", "thead", "tbody", "tr", "th", "td",
];
// Elements KaTeX writes: HTML spans, SVG for stretchy glyphs and roots, and
// MathML for screen readers (no annotation-xml, no mglyph).
const katexTags = [
  "svg", "path", "line",
  "math", "semantics", "annotation", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup", "msub",
  "msubsup", "mfrac", "msqrt", "mroot", "mover", "munder", "munderover", "mtable", "mtr", "mtd", "mpadded",
  "mphantom", "mstyle", "menclose", "merror",
];
const markdownAttrs = [
  "class", "style", "href", "title", "rel", "type", "role", "start", "aria-label", "aria-hidden",
  "data-testid", "data-uri", "data-cite-path", "data-cite-page", "data-cite-quote", "data-md-action", "data-md-block",
];
const katexAttrs = [
  // SVG
  "xmlns", "width", "height", "viewbox", "viewBox", "preserveaspectratio", "preserveAspectRatio", "d",
  "x1", "x2", "y1", "y2", "stroke-width",
  // MathML
  "encoding", "display", "mathvariant", "mathcolor", "mathbackground", "mathsize", "stretchy", "fence",
  "separator", "lspace", "rspace", "minsize", "maxsize", "largeop", "movablelimits", "accent", "accentunder",
  "columnalign", "columnlines", "columnspacing", "rowlines", "rowspacing", "depth", "voffset", "scriptlevel",
  "displaystyle", "linethickness", "notation",
];

const config: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: [...markdownTags, ...katexTags],
  ALLOWED_ATTR: [...markdownAttrs, ...katexAttrs],
  // DOMPurify checks every allowed attribute that is not "URI safe" against
  // ALLOWED_URI_REGEXP: all of ours but href hold no URL, so only href is.
  ADD_URI_SAFE_ATTR: [...markdownAttrs, ...katexAttrs].filter((a) => a !== "href"),
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // Every URL-valued attribute (href is the only one allowed) must be https:.
  ALLOWED_URI_REGEXP: /^https:/i,
  KEEP_CONTENT: true,
  RETURN_DOM_FRAGMENT: true,
};

// CSS that could fetch or run something. KaTeX and table alignment write
// plain lengths, colours and alignments, never these.
const riskyStyle = /url\s*\(|image-set|expression\s*\(|@import|javascript:|behavior\s*:|-moz-binding|\\/i;

let purifier: Purifier | null = null;

function instance(): Purifier {
  if (purifier) return purifier;
  // A DOMPurify of our own, so that the hooks and the configuration never
  // leak into (or from) any other user of the library.
  const p = DOMPurify(window);
  p.addHook("uponSanitizeAttribute", (_node, data) => {
    if (data.attrName === "style" && riskyStyle.test(data.attrValue)) data.keepAttr = false;
  });
  p.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName !== "A") return;
    const href = node.getAttribute("href") ?? "";
    if (!/^https:\/\//i.test(href)) node.removeAttribute("href");
    else node.setAttribute("rel", "noopener noreferrer");
  });
  purifier = p;
  return p;
}

/** sanitize turns HTML from the renderer into a fragment of the current document holding only what is allowed. */
export function sanitize(html: string): DocumentFragment {
  return instance().sanitize(html, config);
}
