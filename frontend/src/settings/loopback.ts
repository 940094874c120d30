// The configurations the user pastes into their MCP clients to reach the
// vault: Claude Desktop (it starts its servers itself: stdio only), Claude
// Code, Cursor and VS Code, each as a stdio server (`agentero mcp VAULT`)
// and, but for Claude Desktop, as the app's loopback HTTP server with its
// bearer token. Formats as each client documents them:
// claude_desktop_config.json and Cursor's .cursor/mcp.json hold
// "mcpServers"; VS Code's .vscode/mcp.json holds "servers" with a "type";
// `claude mcp add` takes its options before the name and the command after
// "--".

export interface ClientConfig {
  client: string;
  /** where it goes: a file, or a terminal */
  where: string;
  transport: "stdio" | "http";
  text: string;
}

export interface ConfigInput {
  command: string; // the agentero program
  vault: string; // the vault's absolute path
  url: string; // the loopback endpoint, "" when the server is off
  token: string;
}

/** ServerName is the name clients list the server under. */
export const ServerName = "agentero";

function json(v: unknown): string {
  return JSON.stringify(v, null, 2);
}

/** shellQuote quotes a word for a POSIX shell when it needs it. */
export function shellQuote(s: string): string {
  if (s !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function clientConfigs(c: ConfigInput): ClientConfig[] {
  const stdio = { command: c.command, args: ["mcp", c.vault] };
  const auth = `Bearer ${c.token}`;
  const out: ClientConfig[] = [
    {
      client: "Claude Desktop",
      where: "claude_desktop_config.json (Settings → Developer → Edit Config), then restart Claude Desktop",
      transport: "stdio",
      text: json({ mcpServers: { [ServerName]: stdio } }),
    },
    {
      client: "Claude Code",
      where: "a terminal",
      transport: "stdio",
      text: ["claude", "mcp", "add", "--transport", "stdio", ServerName, "--", c.command, "mcp", c.vault].map(shellQuote).join(" "),
    },
    { client: "Cursor", where: ".cursor/mcp.json (or ~/.cursor/mcp.json)", transport: "stdio", text: json({ mcpServers: { [ServerName]: stdio } }) },
    { client: "VS Code", where: ".vscode/mcp.json", transport: "stdio", text: json({ servers: { [ServerName]: { type: "stdio", ...stdio } } }) },
  ];
  if (c.url) {
    out.push(
      {
        client: "Claude Code",
        where: "a terminal (while Agentero runs)",
        transport: "http",
        text: ["claude", "mcp", "add", "--transport", "http", ServerName, c.url, "--header", `Authorization: ${auth}`].map(shellQuote).join(" "),
      },
      {
        client: "Cursor",
        where: ".cursor/mcp.json (while Agentero runs)",
        transport: "http",
        text: json({ mcpServers: { [ServerName]: { url: c.url, headers: { Authorization: auth } } } }),
      },
      {
        client: "VS Code",
        where: ".vscode/mcp.json (while Agentero runs)",
        transport: "http",
        text: json({ servers: { [ServerName]: { type: "http", url: c.url, headers: { Authorization: auth } } } }),
      },
    );
  }
  return out;
}

/** parsePort reads the port field: empty is 0 (a free port). */
export function parsePort(text: string): { port: number } | { error: string } {
  const t = text.trim();
  if (t === "") return { port: 0 };
  if (!/^\d+$/.test(t)) return { error: "The port must be a whole number." };
  const n = Number(t);
  if (n === 0) return { port: 0 };
  if (n < 1024 || n > 65535) return { error: `The port must be between 1024 and 65535, not ${n}; leave it empty for a free one.` };
  return { port: n };
}
