// A scripted ACP agent on the official TypeScript SDK. The Go tests start it
// as a real agent process and read what it received from PEER_RECORD.
//
//   PEER_RECORD  file that gets one JSON line per request or notification received
//   PEER_CAPS    comma list of capabilities to offer: load, resume, close
//   PEER_FAULT   exit-mid-turn | hang | hang-mid-answer | garbage | reject-new | permission |
//                refuse-resume (hang-mid-answer: says a few words of its answer, then nothing)
//   PEER_PLAN    "first": send a plan (agent_plan) before the first turn's answer
//   PEER_BURST   N: before each answer, send N rounds of text, a tool call, text and the
//                tool call's update, as fast as the connection takes them
//   PEER_START   how it starts, as agents that are not ready do:
//                auth      offers two login methods and answers session/new with auth_required
//                hang      never answers initialize
//                garbage   prints a usage text on stdout and never answers initialize
//                exit      says why on stderr and exits with status 2 before reading anything
//                error     answers initialize with a JSON-RPC error
//   PEER_STUBBORN  "1": ignores SIGTERM and stays alive when its input ends, so that only
//                SIGKILL ends it (a wrapper's child that outlives its parent)
//   PEER_STYLE   claude | gemini: answer like that agent (see style.mjs): read through the
//                agentero-context MCP server it is given, asking permission before each tool
//                call the way that agent does, report tool calls with kinds and locations, and
//                answer citing what it read
//   PEER_EDIT    with PEER_STYLE: then ask permission to edit a file inside the vault
//                (PEER_EDIT_PATH, default <vault>/notes/ideas.md) and say what was decided
//   PEER_READ    with PEER_STYLE=claude: report a Read of the first card's PDF page (a tool call
//                of kind read whose location is in the vault), as allowed before
//   PEER_QUERY   with PEER_STYLE: what to search for (default: the question)
//   PEER_ANSWER  with PEER_STYLE: the answer, word for word, after the searches and reads
//   PEER_ANSWER_FILE  answer every turn with the text of this file
//   PEER_PROBE   a JSON list of paths to read with its own file access first, one answer line each
//   PEER_VAULT   the vault, for a confined agent that cannot read its grant file
import { appendFileSync, readFileSync, readdirSync, statSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { agent, ndJsonStream, RequestError } from "@agentclientprotocol/sdk";
import { Styled } from "./style.mjs";

const record = process.env.PEER_RECORD;
const caps = new Set((process.env.PEER_CAPS || "").split(",").filter(Boolean));
const fault = process.env.PEER_FAULT || "";
const start = process.env.PEER_START || "";
if (process.env.PEER_STUBBORN === "1") {
  process.on("SIGTERM", () => {});
  setInterval(() => {}, 1 << 30);
}
if (start === "exit") {
  process.stderr.write("peer: no configuration found, cannot start\n");
  process.exit(2);
}
if (start === "garbage") process.stdout.write("Usage: peer [--acp] [--verbose]\n");
const style = process.env.PEER_STYLE || "";
const styled = style ? new Styled(style, log) : null;
if (style === "gemini") {
  // Gemini CLI loads sessions but does not resume them.
  caps.add("load");
  caps.delete("resume");
}
let sessions = 0;
let turns = 0;

function log(method, params) {
  if (record) appendFileSync(record, JSON.stringify({ method, params, pid: process.pid }) + "\n");
}

function text(params) {
  return (params.prompt || []).filter((b) => b.type === "text").map((b) => b.text).join("\n");
}

async function say(client, sessionId, t) {
  await client.notify("session/update", {
    sessionId,
    update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } },
  });
}

const app = agent()
  .onRequest("initialize", ({ params }) => {
    log("initialize", params);
    if (start === "hang" || start === "garbage") return new Promise(() => {});
    if (start === "error") throw RequestError.methodNotFound("initialize");
    return {
      protocolVersion: 1,
      agentInfo: { name: "peeragent", title: "Peer Agent", version: "2.4.0-test" },
      agentCapabilities: {
        loadSession: caps.has("load"),
        mcpCapabilities: { http: caps.has("http"), sse: false },
        sessionCapabilities: {
          ...(caps.has("resume") ? { resume: {} } : {}),
          ...(caps.has("close") ? { close: {} } : {}),
        },
      },
      authMethods:
        start === "auth"
          ? [
              { id: "peer-login", name: "Log in with Peer", description: "Opens a browser" },
              { id: "peer-key", name: "Peer API key", type: "env_var", vars: [{ name: "PEER_API_KEY" }] },
            ]
          : [],
    };
  })
  .onRequest("session/new", ({ params }) => {
    log("session/new", params);
    if (start === "auth") throw RequestError.authRequired();
    if (fault === "reject-new") throw RequestError.internalError(undefined, "peer refuses new sessions");
    sessions++;
    const sessionId = `peer-${process.pid}-${sessions}`;
    styled?.open(sessionId, params.mcpServers);
    return { sessionId };
  })
  .onRequest("session/load", async ({ params, client }) => {
    log("session/load", params);
    styled?.open(params.sessionId, params.mcpServers);
    // Replays history, as agents do; the host must not show it again.
    await client.notify("session/update", {
      sessionId: params.sessionId,
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "REPLAYED HISTORY" } },
    });
    return {};
  })
  .onRequest("session/resume", ({ params }) => {
    log("session/resume", params);
    if (fault === "refuse-resume") throw RequestError.methodNotFound("session/resume");
    styled?.open(params.sessionId, params.mcpServers);
    return {};
  })
  .onRequest("session/close", ({ params }) => {
    log("session/close", params);
    return {};
  })
  .onRequest("session/prompt", async ({ params, client, signal }) => {
    log("session/prompt", { sessionId: params.sessionId, text: text(params) });
    turns++;
    if (fault === "exit-mid-turn") {
      await say(client, params.sessionId, "partial answer before the crash");
      setTimeout(() => process.exit(3), 50);
      return new Promise(() => {});
    }
    if (fault === "hang") return new Promise(() => {});
    if (fault === "hang-mid-answer") {
      await say(client, params.sessionId, "partial answer, then silence");
      return new Promise(() => {});
    }
    if (fault === "garbage") {
      process.stdout.write("this is not JSON-RPC at all\n{{{\n");
      setTimeout(() => process.exit(4), 50);
      return new Promise(() => {});
    }
    if (fault === "permission") {
      const res = await client.request("session/request_permission", {
        sessionId: params.sessionId,
        toolCall: { toolCallId: "w1", title: "write notes.md" },
        options: [
          { optionId: "allow", name: "Allow", kind: "allow_once" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
      });
      log("permission-outcome", res.outcome);
      await say(client, params.sessionId, `permission outcome: ${JSON.stringify(res.outcome)}`);
      return { stopReason: "end_turn" };
    }
    if (process.env.PEER_PLAN === "first" && turns === 1) {
      await client.notify("session/update", {
        sessionId: params.sessionId,
        update: {
          sessionUpdate: "plan",
          entries: [
            { content: "Read the abstract", priority: "high", status: "completed" },
            { content: "Compare with the related work", priority: "medium", status: "in_progress" },
          ],
        },
      });
    }
    // PEER_PROBE: a JSON list of paths the agent tries to read with its own
    // file access (as an agent's Read tool would) before it answers; each
    // result is a line of the answer.
    if (process.env.PEER_PROBE) {
      for (const p of JSON.parse(process.env.PEER_PROBE)) {
        let line;
        try {
          const got = statSync(p).isDirectory() ? readdirSync(p).join(",") : readFileSync(p, "utf8");
          line = `probe ${p}: read ${got.length} characters`;
        } catch (e) {
          line = `probe ${p}: refused (${e.code || e.message})`;
        }
        log("probe", { path: p, result: line });
        await say(client, params.sessionId, line + "\n");
      }
    }
    if (styled) {
      const blocks = (params.prompt || []).filter((b) => b.type === "text");
      const question = blocks.length ? blocks[blocks.length - 1].text : "";
      await styled.turn(client, params.sessionId, process.env.PEER_QUERY || question, signal);
      return { stopReason: signal.aborted ? "cancelled" : "end_turn" };
    }
    if (process.env.PEER_ANSWER_FILE) {
      await say(client, params.sessionId, readFileSync(process.env.PEER_ANSWER_FILE, "utf8"));
      return { stopReason: "end_turn" };
    }
    const burst = Number(process.env.PEER_BURST || 0);
    for (let i = 1; i <= burst; i++) {
      await say(client, params.sessionId, `text ${i} `);
      await client.notify("session/update", {
        sessionId: params.sessionId,
        update: { sessionUpdate: "tool_call", toolCallId: `t${i}`, title: `tool ${i}`, kind: "read", status: "pending" },
      });
      await say(client, params.sessionId, `mid ${i} `);
      await client.notify("session/update", {
        sessionId: params.sessionId,
        update: { sessionUpdate: "tool_call_update", toolCallId: `t${i}`, status: "completed" },
      });
    }
    await say(client, params.sessionId, `peer answer ${turns}`);
    if (signal.aborted) return { stopReason: "cancelled" };
    return { stopReason: "end_turn" };
  })
  .onNotification("session/cancel", ({ params }) => {
    log("session/cancel", params);
  });

const conn = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
// The MCP servers it started would keep it running: close them with the connection.
conn.closed.finally(async () => {
  await styled?.close();
  process.exit(0);
});
