// The page's Content-Security-Policy (index.html): the app's page may call
// the Go bindings, so it must run nothing but the app's own code.

import { describe, expect, it } from "vitest";
import html from "../../index.html?raw";

function policy(): Map<string, string[]> {
  const m = html.match(/http-equiv="Content-Security-Policy"\s+content="([^"]+)"/);
  if (!m) throw new Error("index.html has no Content-Security-Policy meta tag");
  const out = new Map<string, string[]>();
  for (const part of m[1].split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

describe("the page's Content-Security-Policy", () => {
  const p = policy();

  it("runs scripts only from the app, never inline or through eval", () => {
    expect(p.get("script-src")).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(p.get("default-src")).toEqual(["'self'"]);
  });

  it("connects, loads workers and fonts only from the app", () => {
    expect(p.get("connect-src")).toEqual(["'self'"]);
    expect(p.get("worker-src")).toEqual(["'self'"]);
    expect(p.get("font-src")).toEqual(["'self'", "data:"]);
  });

  it("embeds no plugins or frames and posts no forms", () => {
    for (const d of ["object-src", "base-uri", "form-action", "frame-src"]) expect(p.get(d), d).toEqual(["'none'"]);
  });

  it("comes before any script of the page", () => {
    expect(html.indexOf("Content-Security-Policy")).toBeLessThan(html.indexOf("<script"));
  });
});
