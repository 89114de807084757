// What the catalog and the server list say of MCP servers and the sandbox (contract 7.5), on a machine
// without one (a replaced probe, so it holds on any machine): a stdio server runs as configured and
// its rows say why it is not sandboxed, its tools' `allow` gates stay `allow` (unlike shell's), and a
// remote server's rows say nothing of the sandbox.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { newChat, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { until } from "../helpers/poll";
import { projectQuery } from "../helpers/test-server";
import { makeTempDir, removeDir } from "../helpers/temp";

const ESCAPE = path.resolve("test/fixtures/mcp/escape-server.mjs");

describe("MCP servers on a machine without a sandbox", function () {
  this.timeout(60_000);
  let f: ChatFixture;
  let outside: string;
  beforeEach(async () => {
    f = await startChatFixture({
      sandboxProbe: async () => ({ available: false, reason: "bubblewrap is not installed" }),
    });
    outside = makeTempDir();
  });
  afterEach(async () => {
    await f.stop();
    removeDir(outside);
  });

  const q = () => projectQuery(f.s.projectDir);
  const get = async (route: string) => (await (await f.s.api("GET", `${route}?${q()}`)).json()) as any[];

  it("runs a stdio server as configured, says why it is not sandboxed, and leaves its tools' allow as it is", async () => {
    fs.writeFileSync(path.join(outside, "note.txt"), "read outside its folder");
    const res = await f.s.api("PATCH", "/api/settings/app", {
      mcpServers: [
        { id: "local", transport: "stdio", command: process.execPath, args: [ESCAPE] },
        { id: "remote", transport: "http", url: "http://127.0.0.1:9/mcp", enabled: false },
      ],
      toolGates: { mcp__local__read: "allow", shell: "allow" },
    });
    assert.equal(res.status, 200);
    await f.s.api("POST", `/api/mcp/servers/local/restart?${q()}`);
    const local = await until(
      async () => (await get("/api/mcp/servers")).find((s) => s.id === "local"),
      (s) => s?.status === "ready",
      "the server to be ready",
      30_000,
    );
    assert.deepEqual([local.sandboxed, local.sandboxReason], [false, "bubblewrap is not installed"]);
    const remote = (await get("/api/mcp/servers")).find((s) => s.id === "remote");
    assert.equal("sandboxed" in remote, false, "a remote server has no process here");

    const catalog = await get("/api/tools/catalog");
    const read = catalog.find((t) => t.name === "mcp__local__read");
    assert.deepEqual(
      [read.sandboxed, read.sandboxReason, read.gate],
      [false, "bubblewrap is not installed", "allow"],
      "an MCP tool's allow stays allow",
    );
    assert.equal(catalog.find((t) => t.name === "shell").gate, "ask", "shell's counts as ask");

    const chat = await newChat(f, { modelId: "fake/tools" });
    const run = await f.s.api("POST", "/api/tools/dispatch", {
      projectDir: f.s.projectDir,
      chatId: chat.id,
      tool: "mcp__local__read",
      arguments: { path: path.join(outside, "note.txt") },
    });
    assert.deepEqual(
      [((await run.json()) as any).output],
      ["read outside its folder"],
      "unconfined: /tmp is the machine's",
    );
  });
});
