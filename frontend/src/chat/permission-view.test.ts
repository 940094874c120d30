import { describe, expect, it } from "vitest";
import { outcomeText, preferredOption } from "./permission-view";
import { decisionVerb, permissionSubject } from "./tool-view";

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
  it("is allow once otherwise, never allow always", () => {
    expect(preferredOption({ inVault: false, options: claude })).toBe("allow");
    expect(preferredOption({ inVault: false, options: [claude[0], claude[2]] })).toBe("allow_always");
    expect(preferredOption({ inVault: false, options: [] })).toBe("");
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
    expect(permissionSubject("context_read (agentero-context MCP Server)")).toBe("context_read (agentero-context MCP Server)");
  });
});
