// Turns that behave like real agents' ACP modes, for the Go tests: they read
// through the agentero-context MCP server (with the official MCP client),
// ask permission before each tool call the way the agent does, report tool
// calls with kinds, content and locations, and answer citing what they read.
//
// PEER_WRITE_DOC=text makes a turn write a context document twice.
// PEER_ANSWER=text is the answer, word for word, after the turn's reads.
//
//   claude: Claude Code's ACP adapter. Tool titles mcp__<server>__<tool> (also in
//           _meta.claudeCode.toolName), options allow_always / allow_once / reject_once;
//           after allow_always it stops asking for that tool in the session. Markdown
//           answers with inline citation links.
//   gemini: Gemini CLI's --experimental-acp. A permission request is the tool call's only
//           announcement; its title is the call's arguments as JSON, its options name the
//           server and the tool ("Always Allow agentero-context"), its id is <tool>-<time>.
//           Plain answers with bare citations and "quoted" passages.
//
// What the turn decided and cited is logged (PEER_RECORD) for the tests:
// permission-outcome {tool, outcome}, tool-result {tool, isError, text},
// answer-cites {linked, quoted}.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const SERVER = "agentero-context";

export class Styled {
  constructor(style, log) {
    this.style = style;
    this.log = log;
    this.servers = new Map(); // session id -> agentero-context's mcpServers entry
    this.clients = new Map(); // grant path -> connected MCP client
    this.allowed = new Set(); // what "always" allowed: per session (claude) or per process (gemini)
    this.seq = 0;
  }

  open(sessionId, mcpServers) {
    const s = (mcpServers || []).find((m) => m.name === SERVER);
    if (s) this.servers.set(sessionId, s);
    else this.servers.delete(sessionId);
  }

  async close() {
    await Promise.allSettled([...this.clients.values()].map((c) => c.close()));
  }

  async mcp(sessionId) {
    const s = this.servers.get(sessionId);
    if (!s) return null;
    const key = s.args.join(" ");
    if (!this.clients.has(key)) {
      const env = { ...process.env };
      for (const { name, value } of s.env || []) env[name] = value;
      const c = new Client({ name: "peer-agent", version: "1" });
      await c.connect(new StdioClientTransport({ command: s.command, args: s.args, env, stderr: "inherit" }));
      this.clients.set(key, c);
    }
    return this.clients.get(key);
  }

  // vault is the root of the vault the session's grant belongs to.
  vault(sessionId) {
    const s = this.servers.get(sessionId);
    if (!s) return "";
    // A confined agent's server is a bridge to a socket: no grant file to
    // read, and no vault to see (PEER_VAULT names it then).
    try {
      const g = JSON.parse(readFileSync(s.args[s.args.length - 1], "utf8"));
      return g.vault || "";
    } catch {
      return process.env.PEER_VAULT || "";
    }
  }

  async turn(client, sessionId, query, signal) {
    const say = (text) =>
      client.notify("session/update", { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
    const mcp = await this.mcp(sessionId);
    let cards = [];
    let page = null;
    if (mcp) {
      const found = await this.tool(client, sessionId, mcp, "context_search", { query, limit: 5 });
      cards = found?.cards || [];
      if (cards[0]?.page) page = await this.tool(client, sessionId, mcp, "context_read", { ref: cards[0].ref, mode: "page", page: cards[0].page });
      if (cards[0]?.page && process.env.PEER_READ && this.style === "claude") await this.read(client, sessionId, cards[0]);
    }
    // PEER_WRITE_DOC: write a context document twice through
    // context_write_doc (each call asked for, as the agent does).
    if (mcp && process.env.PEER_WRITE_DOC && !signal.aborted) {
      for (const n of [1, 2]) {
        await this.tool(client, sessionId, mcp, "context_write_doc", { id: "peer-notes.md", content: `${process.env.PEER_WRITE_DOC} (write ${n})\n` });
      }
    }
    let edit = "";
    if (process.env.PEER_EDIT && !signal.aborted) edit = await this.edit(client, sessionId);
    if (signal.aborted) return;
    await say(this.answer(cards, page, edit));
  }

  // tool calls one agentero-context tool, asking first as the agent does.
  async tool(client, sessionId, mcp, tool, args) {
    const update = (u) => client.notify("session/update", { sessionId, update: u });
    let id;
    if (this.style === "gemini") {
      id = `${tool}-${Date.now()}${++this.seq}`;
      const title = JSON.stringify(args);
      if (!this.allowed.has(SERVER) && !this.allowed.has(`${SERVER}.${tool}`)) {
        const res = await client.request("session/request_permission", {
          sessionId,
          toolCall: { toolCallId: id, status: "pending", title, content: [], locations: [], kind: "other" },
          options: [
            { optionId: "proceed_always_server", name: `Always Allow ${SERVER}`, kind: "allow_always" },
            { optionId: "proceed_always_tool", name: `Always Allow ${tool}`, kind: "allow_always" },
            { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
            { optionId: "cancel", name: "Reject", kind: "reject_once" },
          ],
        });
        this.log("permission-outcome", { tool, outcome: res.outcome });
        const chosen = res.outcome.outcome === "selected" ? res.outcome.optionId : "cancel";
        if (chosen === "cancel") {
          await update({ sessionUpdate: "tool_call_update", toolCallId: id, status: "failed",
            content: [{ type: "content", content: { type: "text", text: `Tool "${tool}" was canceled by the user.` } }] });
          return null;
        }
        if (chosen === "proceed_always_server") this.allowed.add(SERVER);
        if (chosen === "proceed_always_tool") this.allowed.add(`${SERVER}.${tool}`);
      } else {
        await update({ sessionUpdate: "tool_call", toolCallId: id, status: "in_progress", title, content: [], locations: [], kind: "other" });
      }
    } else {
      id = `toolu_${process.pid}_${++this.seq}`;
      const title = `mcp__${SERVER}__${tool}`;
      await update({ sessionUpdate: "tool_call", toolCallId: id, title, kind: "other", status: "pending", rawInput: args,
        _meta: { claudeCode: { toolName: title } } });
      if (!this.allowed.has(`${sessionId} ${title}`)) {
        const res = await client.request("session/request_permission", {
          sessionId,
          toolCall: { toolCallId: id, title, rawInput: args },
          options: [
            { optionId: "allow_always", name: "Always Allow", kind: "allow_always" },
            { optionId: "allow", name: "Allow", kind: "allow_once" },
            { optionId: "reject", name: "Reject", kind: "reject_once" },
          ],
        });
        this.log("permission-outcome", { tool, outcome: res.outcome });
        const chosen = res.outcome.outcome === "selected" ? res.outcome.optionId : "reject";
        if (chosen === "reject") {
          await update({ sessionUpdate: "tool_call_update", toolCallId: id, status: "failed",
            content: [{ type: "content", content: { type: "text", text: "The user doesn't want to proceed with this tool use." } }] });
          return null;
        }
        if (chosen === "allow_always") this.allowed.add(`${sessionId} ${title}`);
      }
      await update({ sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress" });
    }
    const r = await mcp.callTool({ name: tool, arguments: args });
    const text = (r.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
    this.log("tool-result", { tool, isError: !!r.isError, text });
    await update({ sessionUpdate: "tool_call_update", toolCallId: id, status: r.isError ? "failed" : "completed",
      content: [{ type: "content", content: { type: "text", text } }] });
    if (r.isError) return null;
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  }

  // read reports Claude Code's Read of a card's PDF page, allowed before.
  async read(client, sessionId, card) {
    const vault = this.vault(sessionId);
    const uri = card.citationUri.split("#")[0];
    const file = path.join(vault, uri);
    const id = `toolu_${process.pid}_${++this.seq}`;
    const update = (u) => client.notify("session/update", { sessionId, update: u });
    await update({ sessionUpdate: "tool_call", toolCallId: id, title: `Read ${file}`, kind: "read", status: "pending",
      rawInput: { file_path: file, pages: String(card.page) }, locations: [{ path: file }] });
    await update({ sessionUpdate: "tool_call_update", toolCallId: id, status: "completed",
      content: [{ type: "content", content: { type: "text", text: `(page ${card.page} of ${uri})` } }] });
  }

  // edit asks to change a file inside the vault and says what was decided.
  async edit(client, sessionId) {
    const file = process.env.PEER_EDIT_PATH || path.join(this.vault(sessionId), "notes", "ideas.md");
    let old = "";
    try {
      old = readFileSync(file, "utf8");
    } catch {}
    const text = old + "A note the agent would add.\n";
    const diff = { type: "diff", path: file, oldText: old, newText: text };
    let req;
    if (this.style === "gemini") {
      req = {
        toolCall: { toolCallId: `replace-${Date.now()}`, status: "pending", title: `${path.basename(file)}: => A note the agent would add.`,
          content: [diff], locations: [{ path: file }], kind: "edit" },
        options: [
          { optionId: "proceed_always", name: "Allow All Edits", kind: "allow_always" },
          { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
          { optionId: "cancel", name: "Reject", kind: "reject_once" },
        ],
      };
    } else {
      const id = `toolu_${process.pid}_${++this.seq}`;
      const rawInput = { file_path: file, old_string: old, new_string: text };
      await client.notify("session/update", { sessionId, update: { sessionUpdate: "tool_call", toolCallId: id,
        title: `Edit \`${file}\``, kind: "edit", status: "pending", rawInput, content: [diff], locations: [{ path: file, line: 1 }] } });
      req = {
        toolCall: { toolCallId: id, title: `Edit \`${file}\``, kind: "edit", rawInput, content: [diff], locations: [{ path: file, line: 1 }] },
        options: [
          { optionId: "allow_always", name: "Always Allow", kind: "allow_always" },
          { optionId: "allow", name: "Allow", kind: "allow_once" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
      };
    }
    const res = await client.request("session/request_permission", { sessionId, ...req });
    this.log("permission-outcome", { tool: "edit", outcome: res.outcome });
    const chosen = res.outcome.outcome === "selected" ? res.outcome.optionId : "cancelled";
    await client.notify("session/update", { sessionId, update: { sessionUpdate: "tool_call_update", toolCallId: req.toolCall.toolCallId,
      status: /^(allow|proceed)/.test(chosen) ? "completed" : "failed" } });
    return chosen;
  }

  // answer cites the first card by its URI and quotes the second without one
  // (or is PEER_ANSWER).
  answer(cards, page, edit) {
    if (process.env.PEER_ANSWER) return process.env.PEER_ANSWER + (edit ? `\n\nedit outcome: ${edit}` : "");
    const [first, second] = cards;
    const linked = first ? first.citationUri : "";
    const passage = second ? quotable(second.snippet) : "";
    this.log("answer-cites", { linked, quoted: passage ? second.citationUri : "" });
    const parts = [];
    if (this.style === "gemini") {
      parts.push(first ? `The best match is ${first.title} (${linked}).` : "I could not read anything for this.");
      if (passage) parts.push(`It also says "${passage}"`);
    } else {
      parts.push("## What your papers say", "");
      parts.push(first ? `The closest passage is in *${first.title}* ([p. ${first.page}](${linked})).` : "I could not read anything for this.");
      if (page?.text) parts.push("", `- The page I read has ${page.text.length} characters.`, "- It is cited inline above.");
      if (passage) parts.push("", `> ${passage}`);
      parts.push("", "| card | page |", "|---|---|");
      for (const c of cards) parts.push(`| ${c.title.replaceAll("|", "/")} | ${c.page || ""} |`);
      parts.push("", "```text", "read through agentero-context", "```");
    }
    if (edit) parts.push("", `edit outcome: ${edit}`);
    return parts.join("\n");
  }
}

// quotable is a passage of a snippet: its longest run between cuts, a few
// words trimmed at both ends so it starts and ends on whole words.
function quotable(snippet) {
  const runs = (snippet || "").split("…").map((s) => s.trim());
  const longest = runs.reduce((a, b) => (b.length > a.length ? b : a), "");
  const words = longest.split(/\s+/).slice(1, -1);
  return words.slice(0, 30).join(" ");
}
