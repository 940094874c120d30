import { describe, expect, it } from "vitest";
import { agentProblem, formatArgs, formatEnv, parseArgs, parseEnv } from "./agents";
import { parseTheme, resolveTheme } from "./theme";

describe("agent arguments", () => {
  const cases: [string, string[]][] = [
    ["", []],
    ["--experimental-acp", ["--experimental-acp"]],
    ["a  b\tc", ["a", "b", "c"]],
    [`"two words" 'single quoted' x\\ y`, ["two words", "single quoted", "x y"]],
    [`--model="gpt 5"`, ["--model=gpt 5"]],
    [`''`, [""]],
  ];
  for (const [line, want] of cases) {
    it(JSON.stringify(line), () => expect(parseArgs(line)).toEqual(want));
  }
  it("formatArgs round-trips", () => {
    for (const args of [["a", "b c", "", "it's", "--x=1"], []]) expect(parseArgs(formatArgs(args))).toEqual(args);
  });
});

describe("agent environment", () => {
  it("reads KEY=VALUE lines, skipping blanks and comments", () => {
    expect(parseEnv("A=1\n\n# note\nB = two=2\n")).toEqual({ A: "1", B: " two=2" });
  });
  it("refuses a malformed line", () => {
    expect(() => parseEnv("A=1\nnot a pair")).toThrow(/Line 2/);
  });
  it("formatEnv round-trips", () => {
    expect(parseEnv(formatEnv({ X: "1", Y: "a=b" }))).toEqual({ X: "1", Y: "a=b" });
  });
  it("agentProblem", () => {
    const others = [{ name: "claude", command: "npx", args: [], env: {} }];
    expect(agentProblem({ name: "", command: "x", args: [], env: {} }, others, "")).toMatch(/name/);
    expect(agentProblem({ name: "builtin", command: "x", args: [], env: {} }, others, "")).toMatch(/built-in/);
    expect(agentProblem({ name: "claude", command: "x", args: [], env: {} }, others, "")).toMatch(/already/);
    expect(agentProblem({ name: "claude", command: "x", args: [], env: {} }, others, "claude")).toBe("");
    expect(agentProblem({ name: "gemini", command: " ", args: [], env: {} }, others, "")).toMatch(/command/);
  });
});

describe("theme", () => {
  it("follows the system unless overridden", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
    expect(parseTheme("bogus")).toBe("system");
    expect(parseTheme(null)).toBe("system");
  });
});
