import { describe, expect, it } from "vitest";
import { clampZoom, nextZoom } from "./zoom";

describe("nextZoom", () => {
  it.each([
    [100, "in", 110],
    [100, "out", 90],
    [104, "in", 110],
    [104, "out", 100],
    [400, "in", 400],
    [25, "out", 25],
  ] as const)("%d %s → %d", (from, dir, want) => expect(nextZoom(from, dir)).toBe(want));
});

describe("clampZoom", () => {
  it("keeps fit-width zoom within range", () => {
    expect(clampZoom(1000)).toBe(400);
    expect(clampZoom(3)).toBe(25);
    expect(clampZoom(123.4)).toBe(123.4);
  });
});
