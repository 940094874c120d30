import { describe, expect, it } from "vitest";
import type { ContextDoc } from "../lib/backend";
import { contextDocTemplate, docIdProblem, normalizeDocId, sizeText, sortDocs, triggerLabel } from "./context-docs";

describe("context document template", () => {
  it("is the front matter of SPEC §8.2 with manual and normal defaults", () => {
    expect(contextDocTemplate).toBe("---\ndescription: \ntrigger: manual\npriority: normal\n---\n");
    const lines = contextDocTemplate.split("\n");
    expect(lines[0]).toBe("---");
    expect(lines.slice(1, 4).map((l) => l.split(":")[0])).toEqual(["description", "trigger", "priority"]);
    expect(lines[4]).toBe("---");
  });
});

describe("context document ids", () => {
  it("normalizeDocId trims and adds .md when missing", () => {
    expect(normalizeDocId("  citing.md ")).toBe("citing.md");
    expect(normalizeDocId("citing")).toBe("citing.md");
    expect(normalizeDocId("style/Notes.MARKDOWN")).toBe("style/Notes.MARKDOWN");
    expect(normalizeDocId("   ")).toBe("");
  });

  it("accepts relative Markdown paths", () => {
    for (const id of ["citing.md", "style/citing.md", "a b/c-d_e.markdown", "x.MD"]) expect(docIdProblem(id, []), id).toBe("");
  });

  const bad: [string, RegExp][] = [
    ["", /Give the document a file name/],
    ["/abs.md", /leading \//],
    ["a\\b.md", /Use \//],
    ["a//b.md", /empty folder parts/],
    ["a/", /empty folder parts/],
    ["../up.md", /no \. or \.\. parts/],
    ["a/./b.md", /no \. or \.\. parts/],
    [".hidden.md", /hidden/],
    ["dir/.secret/x.md", /“\.secret” is hidden/],
    ["notes.txt", /end its name in \.md/],
    ["x".repeat(1030) + ".md", /at most 1024/],
  ];
  for (const [id, want] of bad) {
    it(`refuses ${JSON.stringify(id.slice(0, 20))}`, () => expect(docIdProblem(id, [])).toMatch(want));
  }

  it("refuses an id already in use", () => {
    expect(docIdProblem("citing.md", ["other.md", "citing.md"])).toMatch(/already a document named citing\.md/);
  });
});

describe("context document list", () => {
  const doc = (id: string, trigger: ContextDoc["trigger"], priority: ContextDoc["priority"]): ContextDoc => ({
    id,
    trigger,
    priority,
    description: "",
    bytes: 0,
    preload: false,
    forbidden: false,
    trustLevel: "workspace",
    sensitivity: "internal",
    noFrontMatter: false,
  });

  it("orders always on first, then by priority, then by id", () => {
    const got = sortDocs([
      doc("m.md", "manual", "critical"),
      doc("b.md", "always_on", "low"),
      doc("a.md", "always_on", "low"),
      doc("c.md", "always_on", "critical"),
      doc("d.md", "model_decision", "high"),
    ]);
    expect(got.map((d) => d.id)).toEqual(["c.md", "a.md", "b.md", "d.md", "m.md"]);
  });

  it("labels triggers in words and passes unknown ones through", () => {
    expect(triggerLabel("always_on")).toBe("always on");
    expect(triggerLabel("model_decision")).toBe("agent decides");
    expect(triggerLabel("manual")).toBe("manual");
    expect(triggerLabel("other")).toBe("other");
  });

  it("sizeText", () => {
    expect(sizeText(0)).toBe("0 B");
    expect(sizeText(999)).toBe("999 B");
    expect(sizeText(1500)).toBe("1.5 KB");
    expect(sizeText(16000)).toBe("16 KB");
  });
});
