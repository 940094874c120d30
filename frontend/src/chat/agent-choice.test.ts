import { describe, expect, it } from "vitest";
import type { AgentList } from "../lib/backend";
import { agentOptions, agentStorageKey, chooseAgent, defaultAgent, fallbackNotice, rememberPick } from "./agent-choice";

const agent = (name: string) => ({ name, command: name === "builtin" ? "" : "npx", args: [], env: {} });
const list: AgentList = { default: "builtin", agents: [agent("builtin"), agent("claude"), agent("gemini")] };
const claudeDefault: AgentList = { ...list, default: "claude" };
const unread: AgentList = { default: "", agents: [] };

describe("agent options", () => {
  it("lists every agent, naming the built-in one and marking the default", () => {
    expect(agentOptions(claudeDefault)).toEqual([
      { name: "builtin", label: "Built-in agent", isDefault: false },
      { name: "claude", label: "claude (default)", isDefault: true },
      { name: "gemini", label: "gemini", isDefault: false },
    ]);
  });

  it("an unread list offers the backend's default", () => {
    expect(agentOptions(unread)).toEqual([{ name: "", label: "Default agent", isDefault: true }]);
    expect(defaultAgent(unread)).toBe("");
    expect(defaultAgent({ default: "gone", agents: [agent("builtin")] })).toBe("");
  });
});

describe("choosing the agent of a turn", () => {
  const cases: { name: string; list: AgentList; remembered: string | null; want: { name: string; missing: string } }[] = [
    { name: "nothing remembered: the default", list: claudeDefault, remembered: null, want: { name: "claude", missing: "" } },
    { name: "the remembered agent", list: claudeDefault, remembered: "gemini", want: { name: "gemini", missing: "" } },
    { name: "a removed agent falls back to the default and is named", list, remembered: "codex", want: { name: "builtin", missing: "codex" } },
    { name: "an unread list keeps the remembered name", list: unread, remembered: "gemini", want: { name: "gemini", missing: "" } },
    { name: "an unread list and nothing remembered asks the backend's default", list: unread, remembered: null, want: { name: "", missing: "" } },
  ];
  for (const c of cases) it(c.name, () => expect(chooseAgent(c.list, c.remembered)).toEqual(c.want));

  it("picking the default remembers nothing, so the surface follows a new default", () => {
    expect(rememberPick(list, "builtin")).toBeNull();
    expect(rememberPick(list, "")).toBeNull();
    expect(rememberPick(list, "gemini")).toBe("gemini");
    // Remembered builtin while claude is the default: builtin stays chosen.
    expect(chooseAgent(claudeDefault, rememberPick(claudeDefault, "builtin"))).toEqual({ name: "builtin", missing: "" });
    expect(chooseAgent(claudeDefault, rememberPick(list, "builtin"))).toEqual({ name: "claude", missing: "" });
  });

  it("the fallback says which agent is gone and who answers", () => {
    expect(fallbackNotice("codex", list)).toBe("“codex” is no longer set up, so the built-in agent (the default) answers instead.");
    expect(fallbackNotice("codex", claudeDefault)).toMatch(/so claude \(the default\) answers/);
  });

  it("each surface remembers its own pick", () => {
    expect(agentStorageKey("sidebar")).not.toBe(agentStorageKey("quickChat"));
  });
});
