// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { outcomeText, preferredOption } from "./permission-view";
import { decisionVerb, locationList, permissionSubject, titleParts } from "./tool-view";

const claude = [
  { id: "allow_always", name: "Always Allow", kind: "allow_always" },
  { id: "allow", name: "Allow", kind: "allow_once" },
  { id: "reject", name: "Reject", kind: "reject_once" },
];

describe("the option a card focuses", () => {
  it("is Reject when the request reaches into the vault", () => {
    expect(preferredOption({ inVault: true, options: claude })).toBe("reject");
    expect(preferredOption({ inVault: true, options: [claude[0], { id: "never", name: "Never", kind: "reject_always" }] })).toBe("never");
  });
  it("is Reject for an edit, a command or a kind not known to be read-only", () => {
    expect(preferredOption({ inVault: false, kind: "edit", options: claude })).toBe("reject");
    expect(preferredOption({ inVault: false, kind: "execute", options: claude })).toBe("reject");
    expect(preferredOption({ inVault: false, kind: "", options: claude })).toBe("reject");
  });
  it("is allow once for a read, never allow always", () => {
    expect(preferredOption({ inVault: false, kind: "read", options: claude })).toBe("allow");
    expect(preferredOption({ inVault: false, kind: "search", options: [claude[0], claude[2]] })).toBe("allow_always");
    expect(preferredOption({ inVault: false, kind: "fetch", options: [] })).toBe("");
  });
});

describe("how a decision reads", () => {
  it("names the option chosen and whether it allowed", () => {
    expect(outcomeText({ outcome: "selected", optionId: "allow", options: claude })).toBe("Allowed: you chose “Allow”.");
    expect(outcomeText({ outcome: "selected", optionId: "reject", options: claude })).toBe("Rejected: you chose “Reject”.");
    expect(outcomeText({ outcome: "cancelled", optionId: "", options: claude })).toBe("Cancelled: the turn ended before an answer.");
    expect(decisionVerb({ outcome: "selected", optionId: "allow_always", options: claude })).toBe("allowed");
    expect(decisionVerb({ outcome: "selected", optionId: "reject", options: claude })).toBe("rejected");
  });

  it("names an MCP tool by its server and tool", () => {
    expect(permissionSubject("mcp__agentero-context__context_search")).toBe("agentero-context search");
    expect(permissionSubject("mcp__agentero-context__paper_relations")).toBe("agentero-context paper relations");
    // Gemini CLI: the arguments as the title, the tool in the call's id.
    expect(permissionSubject('{"query":"leader election","limit":5}', "context_search-17330001")).toBe("agentero-context search");
    expect(permissionSubject("Run npm test", "shell-1")).toBe("Run npm test");
  });
});

describe("titles and locations as a reader sees them", () => {
  it("code spans of a title are code", () => {
    const parts = titleParts("Edit `/v/notes/raft.md` now");
    expect(parts.map((p) => (typeof p === "string" ? p : `<${(p as Element).localName}>${p.textContent}`))).toEqual(["Edit ", "<code>/v/notes/raft.md", " now"]);
  });

  it("a location in the vault reads as its vault path and opens; one outside is only named", () => {
    const opened: string[] = [];
    const list = locationList(
      [
        { path: "/v/notes/consensus/raft.md", line: 3, inVault: true, citationUri: "notes/consensus/raft.md" },
        { path: "/v/papers/raft/raft.pdf", inVault: true, citationUri: "papers/raft/raft.pdf#page=4" },
        { path: "/etc/passwd", inVault: false },
      ],
      { openLocation: (uri) => opened.push(uri) },
    );
    expect(Array.from(list.querySelectorAll("li"), (li) => li.textContent)).toEqual(["notes/consensus/raft.md:3", "papers/raft/raft.pdf, p. 4", "/etc/passwd"]);
    list.querySelectorAll("button").forEach((b) => b.click());
    expect(opened).toEqual(["notes/consensus/raft.md", "papers/raft/raft.pdf#page=4"]);
  });
});
