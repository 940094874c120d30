import { describe, expect, it } from "vitest";
import { pageRects, passageText } from "./selection";

describe("pageRects", () => {
  const page = { left: 100, top: 50, width: 816, height: 1056 }; // Letter at 133 %
  const ppp = 612 / 816;

  it("maps client pixels to PDF points from the page's corner", () => {
    expect(pageRects([{ left: 200, top: 150, width: 408, height: 16 }], page, ppp)).toEqual([[75, 75, 306, 12]]);
  });

  it("drops empty rects and clips to the page", () => {
    const got = pageRects(
      [
        { left: 300, top: 300, width: 0, height: 12 },
        { left: 50, top: 40, width: 100, height: 20 },
      ],
      page,
      ppp,
    );
    expect(got).toEqual([[0, 0, 37.5, 7.5]]);
  });
});

describe("passageText", () => {
  it("joins lines and hyphenated words", () => {
    expect(passageText("The problem of course is the pay-\nee can't verify\n that one")).toBe("The problem of course is the payee can't verify that one");
  });
  it("keeps real hyphens", () => {
    expect(passageText("peer-to-peer  network")).toBe("peer-to-peer network");
  });
});
