// drive.mjs drives Doorstep's tool server with one official MCP client, as
// an assistant's host would: it lists the tools, then makes each call of a
// plan, and prints what the client handed back, one JSON object per call.
// infra/local's TestOfficialMCPClients writes the plan and reads the answers.
//
//   node drive.mjs sdk-v1|client-v2|inspector URL PLAN.json
//
// PLAN.json is [{"name": "...", "tool": "...", "arguments": {...}}, ...].
// Each answer is {name, threw, isError, text, structured, exit}: threw is
// the message of anything the client threw (or, for the Inspector CLI, what
// it wrote to stderr when it failed), text the result's texts joined.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const [kind, url, planFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, "utf8"));

function answer(name, result, threw, exit) {
  const texts = (result?.content ?? []).filter((c) => c.type === "text").map((c) => c.text);
  return {
    name,
    threw: threw ?? null,
    isError: result?.isError === true,
    text: texts.join("\n"),
    structured: result?.structuredContent !== undefined,
    exit: exit ?? null,
  };
}

// The TypeScript SDK v1 and the v2 client share one shape: connect, list
// the tools (which arms the client's outputSchema checks), then call.
async function sdk(Client, Transport) {
  const client = new Client({ name: "doorstep-" + kind, version: "1.0.0" });
  await client.connect(new Transport(new URL(url)));
  const tools = await client.listTools();
  const answers = [{ name: "tools/list", threw: null, tools: tools.tools.map((t) => t.name) }];
  for (const call of plan) {
    try {
      answers.push(answer(call.name, await client.callTool({ name: call.tool, arguments: call.arguments })));
    } catch (err) {
      answers.push(answer(call.name, null, String(err?.message ?? err)));
    }
  }
  await client.close();
  return answers;
}

// The Inspector CLI runs once per call. It prints the result on stdout and
// exits 0, or 5 (its "tool_error") when the result has isError: true; any
// other exit is a failure it reports on stderr.
async function inspector() {
  const require = createRequire(import.meta.url);
  const cli = join(dirname(require.resolve("@modelcontextprotocol/inspector/package.json")), "clients/launcher/build/index.js");
  const run = async (args) => {
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [cli, "--cli", url, "--transport", "http", "--format", "json", ...args], { timeout: 60000 });
      return { stdout, exit: 0 };
    } catch (err) {
      return { stdout: err.stdout ?? "", stderr: err.stderr ?? String(err), exit: err.code ?? 1 };
    }
  };
  const list = await run(["--method", "tools/list"]);
  const answers = [{ name: "tools/list", threw: list.exit === 0 ? null : list.stderr, tools: list.exit === 0 ? JSON.parse(list.stdout).result.tools.map((t) => t.name) : [] }];
  // Three processes at a time: each spends its first second loading the CLI.
  const calls = plan.map((call) => async () => {
    const args = ["--method", "tools/call", "--tool-name", call.tool];
    for (const [k, v] of Object.entries(call.arguments)) {
      args.push("--tool-arg", k + "=" + (typeof v === "string" ? v : JSON.stringify(v)));
    }
    const out = await run(args);
    let result = null;
    try {
      result = JSON.parse(out.stdout).result;
    } catch {}
    const failed = !(out.exit === 0 || (out.exit === 5 && result?.isError === true));
    return answer(call.name, result, failed ? out.stderr || "exit " + out.exit : null, out.exit);
  });
  for (let i = 0; i < calls.length; i += 3) {
    answers.push(...(await Promise.all(calls.slice(i, i + 3).map((call) => call()))));
  }
  return answers;
}

let answers;
switch (kind) {
  case "sdk-v1": {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    answers = await sdk(Client, StreamableHTTPClientTransport);
    break;
  }
  case "client-v2": {
    const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
    answers = await sdk(Client, StreamableHTTPClientTransport);
    break;
  }
  case "inspector":
    answers = await inspector();
    break;
  default:
    console.error("usage: node drive.mjs sdk-v1|client-v2|inspector URL PLAN.json");
    process.exit(2);
}
console.log(JSON.stringify(answers));
