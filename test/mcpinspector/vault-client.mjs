// The official MCP TypeScript client (@modelcontextprotocol/sdk) against the
// whole-vault server, over stdio (`agentero mcp VAULT`) or streamable HTTP
// (the loopback server, with its bearer token). It lists the tools, runs
// the calls it is given as JSON on stdin ([{tool, args}]), and prints
// {tools, calls: [{tool, isError, text}]}.
//
//   node vault-client.mjs stdio BIN VAULT < calls.json
//   node vault-client.mjs http URL TOKEN < calls.json

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, a, b] = process.argv.slice(2);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const calls = JSON.parse(input || "[]");

const transport =
  mode === "stdio"
    ? new StdioClientTransport({ command: a, args: ["mcp", b], stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(a), { requestInit: { headers: { Authorization: `Bearer ${b}` } } });
const client = new Client({ name: "agentero-ts-test", version: "1" });
await client.connect(transport);
const { tools } = await client.listTools();
const out = { server: client.getServerVersion(), tools, calls: [] };
for (const c of calls) {
  const res = await client.callTool({ name: c.tool, arguments: c.args });
  out.calls.push({ tool: c.tool, isError: Boolean(res.isError), text: res.content?.[0]?.text ?? "" });
}
await client.close();
process.stdout.write(JSON.stringify(out));
