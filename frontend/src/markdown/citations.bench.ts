// How findCitations grows with long runs of path-like text (`npx vitest
// bench`): a linear scan takes about ten times as long for ten times the
// text; a quadratic one, a hundred times.

import { bench, describe } from "vitest";
import { findCitations } from "./citations";

function pathLike(n: number): string {
  return ",a/".repeat(n) + " " + "a/".repeat(n);
}

describe("findCitations on path-like text", () => {
  for (const n of [3_000, 30_000]) {
    const text = pathLike(n);
    bench(`${n.toLocaleString("en")} segments`, () => {
      findCitations(text);
    });
  }
});
