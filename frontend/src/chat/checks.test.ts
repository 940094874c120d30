import { describe, expect, it } from "vitest";
import type { CitationCheck } from "../lib/backend";
import { alignChecks, checkedPlace, checkSummary, citationKey, describeCheck, shownChecks, verdicts } from "./checks";

const raft = "papers/raft/raft.pdf";

function check(uri: string, verdict: string, fields: Partial<CitationCheck> = {}): CitationCheck {
  const page = Number(/#page=(\d+)/.exec(uri)?.[1] ?? 0);
  return { uri, page, verdict, foundPage: 0, quote: "", why: "", passage: "", claim: "", line: 1, start: 0, end: 0, ...fields };
}

describe("describeCheck", () => {
  it("says what was checked for each verdict, never that a claim is true", () => {
    const cases: [CitationCheck, string][] = [
      [check(`${raft}#page=6`, "verified"), "Quote found on p. 6"],
      [check(`${raft}#page=6`, "supported"), "Words found on p. 6"],
      [check(`${raft}#page=6`, "weak"), "Only partly on p. 6"],
      [check(`${raft}#page=1`, "wrong-page", { foundPage: 6 }), "Found on p. 6"],
      [check(`${raft}#page=1`, "unsupported"), "Not found in this paper"],
      [check(`${raft}#page=1`, "outside"), "Outside this turn’s sources"],
      [check(`${raft}#page=99`, "broken"), "Can’t be opened"],
      [check("notes/consensus/raft.md", "unsupported"), "Not found in this file"],
      // A page-less citation: the page that holds it, when the check found one.
      [check(raft, "supported", { foundPage: 4 }), "Words found on p. 4"],
      [check(raft, "verified"), "Quote found in this paper"],
    ];
    for (const [c, want] of cases) {
      const got = describeCheck(c);
      expect(got?.words, `${c.verdict} ${c.uri}`).toBe(want);
      expect(got?.words).not.toMatch(/\btrue\b|correct|accurate/i);
    }
  });

  it("opens the page that holds a wrong-page claim, and no other verdict opens elsewhere", () => {
    expect(describeCheck(check(`${raft}#page=1`, "wrong-page", { foundPage: 6 }))?.opens).toBe(6);
    expect(describeCheck(check(`${raft}#page=1`, "wrong-page"))?.opens).toBe(0);
    for (const v of verdicts.filter((v) => v !== "wrong-page")) {
      expect(describeCheck(check(`${raft}#page=1`, v, { foundPage: 6 }))?.opens, v).toBe(0);
    }
  });

  it("gives no badge to a verdict it does not know", () => {
    expect(describeCheck(check(`${raft}#page=1`, "plausible"))).toBeNull();
    expect(describeCheck(check(`${raft}#page=1`, ""))).toBeNull();
  });

  it("colours by what was found", () => {
    const tone = (v: string) => describeCheck(check(`${raft}#page=1`, v, { foundPage: 2 }))?.tone;
    expect(verdicts.map(tone)).toEqual(["found", "found", "partial", "partial", "missing", "neutral", "missing"]);
  });
});

describe("checkSummary", () => {
  it("counts the verdicts, best first", () => {
    const checks = ["verified", "wrong-page", "verified", "unsupported", "verified"].map((v) => ({ verdict: v }));
    expect(checkSummary(checks)).toBe("5 citations: 3 quotes found, 1 on another page, 1 not found");
  });

  it("says one citation in the singular", () => {
    expect(checkSummary([{ verdict: "verified" }])).toBe("1 citation: 1 quote found");
    expect(checkSummary([{ verdict: "supported" }])).toBe("1 citation: 1 with its words on the page");
  });

  it("names every verdict, and counts the ones it does not know", () => {
    const all = [...verdicts, "plausible"].map((v) => ({ verdict: v }));
    expect(checkSummary(all)).toBe(
      "8 citations: 1 quote found, 1 with its words on the page, 1 only partly on the page, 1 on another page, 1 not found, 1 outside this turn’s sources, 1 can’t be opened, 1 not checked",
    );
  });

  it("is empty when nothing was checked", () => {
    expect(checkSummary([])).toBe("");
  });
});

describe("alignChecks", () => {
  const a = `${raft}#page=1`;
  const b = `${raft}#page=6`;
  const c = `${raft}#page=8`;
  const d = `${raft}#page=9`;

  it("pairs the n-th chip with the n-th check when they line up", () => {
    expect(alignChecks([a, b, a], [check(a, "verified"), check(b, "weak"), check(a, "supported")])).toEqual([0, 1, 2]);
  });

  it("pairs the same citation however it was escaped or bracketed", () => {
    const chip = "papers/my%20raft/raft.pdf#page=3&quote=Raft%20decomposes";
    const written = "papers/my raft/raft.pdf#page=3&quote=Raft+decomposes";
    expect(citationKey(chip)).toBe(citationKey(written));
    expect(citationKey(`[${written}]`)).toBe(citationKey(written));
    expect(alignChecks([chip], [check(written, "verified")])).toEqual([0]);
  });

  it("skips a check whose citation no chip shows, and a chip no check names", () => {
    // The backend checked a citation the thread draws as something else (in code, say).
    expect(alignChecks([a, c], [check(a, "verified"), check(b, "weak"), check(c, "supported")])).toEqual([0, 2]);
    // The thread drew a chip the backend did not check.
    expect(alignChecks([a, b, c], [check(a, "verified"), check(c, "supported")])).toEqual([0, -1, 1]);
  });

  it("shows no badge on a citation repeated a different number of times on each side", () => {
    // Which of the two chips of a is the checked one cannot be told.
    expect(alignChecks([a, b, a], [check(a, "verified"), check(b, "weak")])).toEqual([-1, 1, -1]);
    expect(alignChecks([a, d], [check(a, "verified"), check(a, "unsupported"), check(d, "weak")])).toEqual([-1, 2]);
  });

  it("does not pair citations out of order", () => {
    // The chips say b then a; the checks a then b: at most one pair keeps the order.
    const got = alignChecks([b, a], [check(a, "verified"), check(b, "weak")]);
    expect(got.filter((i) => i >= 0)).toHaveLength(1);
    got.forEach((j, i) => {
      if (j >= 0) expect(citationKey(check([b, a][i], "").uri)).toBe(citationKey([a, b][j]));
    });
  });

  it("pairs nothing when there are no checks", () => {
    expect(alignChecks([a, b], [])).toEqual([-1, -1]);
    expect(alignChecks([], [check(a, "verified")])).toEqual([]);
  });
});

describe("shownChecks", () => {
  const content = "Raft “elects a leader” [papers/raft/raft.pdf#page=3].\n\nSources:\n- papers/raft/raft.pdf#page=3\n";
  const shown = "Raft “elects a leader” [papers/raft/raft.pdf#page=3].";
  const inline = check("papers/raft/raft.pdf#page=3", "verified", { start: 28, end: 58 });
  const listed = check("papers/raft/raft.pdf#page=3", "supported", { start: 81, end: 108 });

  it("drops the checks of the trailing list of sources the thread draws apart", () => {
    expect(new TextEncoder().encode(shown).length).toBeLessThan(81);
    expect(shownChecks([inline, listed], content, shown)).toEqual([inline]);
  });

  it("keeps every check when the whole answer is drawn, or when checks carry no offsets", () => {
    expect(shownChecks([inline, listed], content, content)).toEqual([inline, listed]);
    const bare = [check("papers/raft/raft.pdf#page=3", "verified"), check("papers/raft/raft.pdf#page=3", "verified")];
    expect(shownChecks(bare, content, shown)).toEqual(bare);
  });
});

describe("checkedPlace", () => {
  const words = "Raft uses randomized election timeouts to ensure that split votes are rare.";
  it("marks the words of the page that hold the claim, on the page that holds it", () => {
    const cases: [CitationCheck, number, ReturnType<typeof checkedPlace>][] = [
      [check(`${raft}#page=6`, "supported", { passage: words }), 6, { page: 6, quote: words }],
      [check(`${raft}#page=6`, "weak", { passage: ` ${words}\n` }), 6, { page: 6, quote: words }],
      [check(`${raft}#page=1`, "wrong-page", { foundPage: 6, passage: words }), 1, { page: 6, quote: words }],
      // A wrong page found by its quote, without a passage: the quote, on the page that has it.
      [check(`${raft}#page=1`, "wrong-page", { foundPage: 6, quote: "randomized election timeouts" }), 1, { page: 6, quote: "randomized election timeouts" }],
      // A page-less citation: the page its words were found on (the chip's own page is 1).
      [check(raft, "supported", { foundPage: 4, passage: words }), 1, { page: 4, quote: words }],
    ];
    for (const [c, page, want] of cases) expect(checkedPlace(c, page), `${c.verdict} ${c.uri}`).toEqual(want);
  });

  it("changes nothing for the other verdicts, or without a passage", () => {
    for (const v of ["verified", "unsupported", "outside", "broken", "newer-verdict"]) {
      expect(checkedPlace(check(`${raft}#page=6`, v, { passage: words, foundPage: 3 }), 6), v).toBeNull();
    }
    expect(checkedPlace(check(`${raft}#page=6`, "supported"), 6)).toBeNull();
    expect(checkedPlace(check(`${raft}#page=6`, "weak", { passage: "  " }), 6)).toBeNull();
  });
});
