import { describe, expect, it } from "vitest";
import { clientConfigs, parsePort, shellQuote } from "./loopback";

const input = { command: "/opt/agentero/agentero", vault: "/home/ada/My Papers", url: "http://127.0.0.1:41234/mcp", token: "tok_abc" };

describe("client configurations", () => {
  const all = clientConfigs(input);
  const get = (client: string, transport: string) => all.find((c) => c.client === client && c.transport === transport)!;

  it("offers stdio for every client and HTTP for the clients that take headers", () => {
    expect(all.map((c) => `${c.client}/${c.transport}`)).toEqual([
      "Claude Desktop/stdio",
      "Claude Code/stdio",
      "Cursor/stdio",
      "VS Code/stdio",
      "Claude Code/http",
      "Cursor/http",
      "VS Code/http",
    ]);
    expect(clientConfigs({ ...input, url: "" }).every((c) => c.transport === "stdio")).toBe(true);
  });

  it("writes Claude Desktop's mcpServers with command and args", () => {
    expect(JSON.parse(get("Claude Desktop", "stdio").text)).toEqual({
      mcpServers: { agentero: { command: "/opt/agentero/agentero", args: ["mcp", "/home/ada/My Papers"] } },
    });
  });

  it("quotes claude mcp add for the shell, options before the name", () => {
    expect(get("Claude Code", "stdio").text).toBe("claude mcp add --transport stdio agentero -- /opt/agentero/agentero mcp '/home/ada/My Papers'");
    expect(get("Claude Code", "http").text).toBe(
      "claude mcp add --transport http agentero http://127.0.0.1:41234/mcp --header 'Authorization: Bearer tok_abc'",
    );
  });

  it("writes VS Code's servers with a type, Cursor's mcpServers with url and headers", () => {
    expect(JSON.parse(get("VS Code", "stdio").text)).toEqual({
      servers: { agentero: { type: "stdio", command: "/opt/agentero/agentero", args: ["mcp", "/home/ada/My Papers"] } },
    });
    expect(JSON.parse(get("VS Code", "http").text)).toEqual({
      servers: { agentero: { type: "http", url: "http://127.0.0.1:41234/mcp", headers: { Authorization: "Bearer tok_abc" } } },
    });
    expect(JSON.parse(get("Cursor", "http").text)).toEqual({
      mcpServers: { agentero: { url: "http://127.0.0.1:41234/mcp", headers: { Authorization: "Bearer tok_abc" } } },
    });
  });
});

describe("shell quoting", () => {
  it("leaves plain words, quotes the rest", () => {
    expect(shellQuote("/usr/bin/agentero")).toBe("/usr/bin/agentero");
    expect(shellQuote("it's here")).toBe(`'it'\\''s here'`);
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("$HOME")).toBe("'$HOME'");
  });
});

describe("port field", () => {
  it("reads a port, empty or 0 as a free one", () => {
    expect(parsePort("")).toEqual({ port: 0 });
    expect(parsePort(" 0 ")).toEqual({ port: 0 });
    expect(parsePort("8765")).toEqual({ port: 8765 });
  });
  it("refuses what is not a usable port", () => {
    for (const bad of ["80", "70000", "12.5", "abc", "-1"]) expect("error" in parsePort(bad)).toBe(true);
  });
});
