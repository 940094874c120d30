// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { boxPixels, drawMarks, locationNotice, markBoxes } from "./marks";
import { CssUnitsPerPoint } from "./pdf";

// A US Letter page, 612 × 792 points, as the locator gives its rectangles.
const W = 612;
const H = 792;

describe("markBoxes", () => {
  it("places a rectangle in points on the page in percent", () => {
    expect(markBoxes([[61.2, 79.2, 306, 99]], W, H)).toEqual([{ left: 10, top: 10, width: 40, height: expect.closeTo(2.5, 9) }]);
  });

  it("follows every zoom: the same box lands on the same words at 50 %, 100 % and 250 %", () => {
    const [box] = markBoxes([[72, 100, 540, 112]], W, H);
    for (const percent of [50, 100, 250]) {
      const scale = (percent / 100) * CssUnitsPerPoint; // CSS px per point, as the viewer lays pages out
      const px = boxPixels(box, W * scale, H * scale);
      expect(px.x).toBeCloseTo(72 * scale, 6);
      expect(px.y).toBeCloseTo(100 * scale, 6);
      expect(px.width).toBeCloseTo(468 * scale, 6);
      expect(px.height).toBeCloseTo(12 * scale, 6);
    }
  });

  it("reads a rotated page's rectangles against its size as shown", () => {
    // Landscape (a page rotated by 90°): 792 wide, 612 high.
    const [box] = markBoxes([[396, 306, 792, 612]], H, W);
    expect(box).toEqual({ left: 50, top: 50, width: 50, height: 50 });
  });

  it("takes corners in either order, clips to the page, and drops what is empty or malformed", () => {
    expect(markBoxes([[306, 99, 61.2, 79.2]], W, H)).toEqual(markBoxes([[61.2, 79.2, 306, 99]], W, H));
    expect(markBoxes([[-10, 700, 100, 900]], W, H)).toEqual([{ left: 0, top: expect.closeTo((700 / H) * 100, 9), width: expect.closeTo((100 / W) * 100, 9), height: expect.closeTo((92 / H) * 100, 9) }]);
    expect(markBoxes([[10, 10, 10, 20], [700, 10, 800, 20], [1, 2, 3], [Number.NaN, 0, 5, 5]], W, H)).toEqual([]);
    expect(markBoxes([[10, 10, 20, 20]], 0, H)).toEqual([]);
  });
});

describe("drawMarks", () => {
  it("draws one mark per box, the first marked as the one to scroll to, and replaces what was there", () => {
    const layer = document.createElement("div");
    drawMarks(layer, markBoxes([[0, 0, 10, 10]], W, H));
    const marks = drawMarks(layer, markBoxes([[61.2, 79.2, 306, 99], [61.2, 100, 200, 110]], W, H));
    expect(layer.children).toHaveLength(2);
    expect(marks.map((m) => m.className)).toEqual(["quote-mark first", "quote-mark"]);
    expect(marks[0].style.left).toBe("10%");
    expect(marks[0].style.top).toBe("10%");
    expect(marks[0].style.width).toBe("40%");
  });
});

describe("locationNotice", () => {
  it("says nothing when the quote is marked on the page asked for", () => {
    expect(locationNotice({ found: true, foundPage: 0, page: 6, why: "the quote is on page 6" }, 6, true)).toMatchObject({ text: "", show: 0 });
  });

  it("says which page has the quote when it is another, and offers it", () => {
    const why = "the quote is not on page 1; it is on page 6";
    expect(locationNotice({ found: false, foundPage: 6, page: 6, why }, 1, true)).toEqual({ text: "The quote is on p. 6, not p. 1 —", show: 6, detail: why });
    // Known to be there, though it could not be marked: the page is still offered.
    expect(locationNotice({ found: false, foundPage: 6, page: 1, why }, 1, false)).toMatchObject({ text: "The quote is on p. 6, not p. 1 —", show: 6 });
  });

  it("says when the quote could not be found, in the locator's words, and shows the page asked for", () => {
    const why = "the quote is not on page 3, nor on any other page of this paper";
    expect(locationNotice({ found: false, foundPage: 0, page: 3, why }, 3, false)).toEqual({ text: `Not marked: ${why}.`, show: 0, detail: why });
    expect(locationNotice({ found: false, foundPage: 0, page: 3, why: "the citation's quote is too short to be found" }, 3, false).text).toBe(
      "Not marked: the citation's quote is too short to be found.",
    );
    expect(locationNotice({ found: false, foundPage: 0, page: 3, why: "" }, 3, false).text).toBe("Not marked: the quote was not found in this paper.");
  });

  it("says when the quote is on the page but could not be marked", () => {
    expect(locationNotice({ found: true, foundPage: 0, page: 3, why: "" }, 3, false).text).toBe("The quote is on p. 3, but where on the page could not be marked.");
  });
});
