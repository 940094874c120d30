import { describe, expect, it } from "vitest";
import type { ConversationSummary } from "../lib/backend";
import { metaLine, paperMissing, placeLabel, whenLabel } from "./state";

const now = new Date(2026, 11, 1, 15, 0);
const conv = (f: Partial<ConversationSummary>): ConversationSummary => ({
  id: "paper.papers_bitcoin",
  surface: "sidebar",
  title: "How does it work?",
  named: false,
  paper: "papers/bitcoin",
  agent: "builtin",
  messages: 2,
  createdAt: new Date(2026, 11, 1, 9, 30).toISOString(),
  updatedAt: new Date(2026, 11, 1, 9, 30).toISOString(),
  match: "",
  ...f,
});

describe("conversations panel", () => {
  it("says when, relative to today", () => {
    expect(whenLabel(new Date(2026, 11, 1, 9, 5).toISOString(), now)).toBe("Today 09:05");
    expect(whenLabel(new Date(2026, 10, 30, 23, 59).toISOString(), now)).toBe("Yesterday 23:59");
    expect(whenLabel(new Date(2026, 10, 3).toISOString(), now)).toBe("3 Nov");
    expect(whenLabel(new Date(2025, 10, 3).toISOString(), now)).toBe("3 Nov 2025");
    expect(whenLabel("0001-01-01T00:00:00Z", now)).toBe("");
  });

  it("names the paper by its title, Quick Chat as such", () => {
    const titles = (ref: string) => (ref === "papers/bitcoin" ? "Bitcoin" : "");
    expect(placeLabel(conv({}), titles)).toBe("About Bitcoin");
    expect(placeLabel(conv({ paper: "papers/gone" }), titles)).toBe("About papers/gone");
    expect(placeLabel(conv({ surface: "quickChat", paper: "" }), titles)).toBe("Quick Chat");
    expect(metaLine(conv({}), titles, now)).toBe("About Bitcoin · agent: builtin · 2 messages · Today 09:30");
  });

  it("knows a paper's conversation whose paper is gone", () => {
    const has = (ref: string) => ref === "papers/bitcoin";
    expect(paperMissing(conv({}), has)).toBe(false);
    expect(paperMissing(conv({ paper: "papers/gone" }), has)).toBe(true);
    expect(paperMissing(conv({ surface: "quickChat", paper: "" }), has)).toBe(false);
  });
});
