// The direct-run routes of the UI's route table, checked against a real server: agents and actions
// lists, the composer route, a dispatch, and the refusals the composer explains.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { apiRoutes, type ApiRouteKey } from "../../../src/shared/api-routes";
import { routePath } from "../../../webview/src/lib/api/client";
import { startTestServer, type TestServer } from "../../helpers/test-server";
import { PLAN_AGENT } from "../../../src/projects/built-in-agents";

describe("UI direct-run routes against the server", function () {
  this.timeout(30_000);
  let server: TestServer;
  let chatId: string;

  async function call(
    key: ApiRouteKey,
    input: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown },
  ) {
    const response = await server.api(key.slice(0, key.indexOf(" ")), routePath(key, input), input.body);
    const data = response.status === 204 ? undefined : await response.json();
    if (response.ok) {
      const parsed = apiRoutes[key].response.safeParse(data);
      assert.ok(parsed.success, `${key} answered a shape its schema refuses: ${JSON.stringify(parsed.error?.issues)}`);
    }
    return { status: response.status, data };
  }

  before(async () => {
    server = await startTestServer();
    fs.writeFileSync(
      path.join(server.projectDir, ".app.json"),
      JSON.stringify({
        agents: [{ name: "reviewer", description: "Reviews", model: "fake/tools", tools: ["shell"] }],
        actions: [{ id: "hello", label: "Hello", description: "echo", run: { shell: "echo hi" } }],
        toolGates: { shell: "allow" },
      }),
    );
    // The user's own gate: the repository's `allow` counts only once the project is trusted (contract 7.1).
    await server.api("PATCH", "/api/settings/app", { toolGates: { shell: "allow" } });
    const project = await (await server.api("POST", "/api/projects", { dir: server.projectDir })).json();
    chatId = (await (await server.api("POST", `/api/projects/${project.id}/chats`, { title: "Direct" })).json()).id;
  });
  after(() => server?.stop());

  it("lists agents and actions, and routes composer text, in the shapes the table gives", async () => {
    const projectDir = server.projectDir;
    assert.deepEqual((await call("GET /api/agents", { query: { projectDir } })).data, [
      { name: "reviewer", description: "Reviews", model: "fake/tools", tools: ["shell"] },
      { name: "Plan", description: PLAN_AGENT.description, tools: ["file:read", "ask_user", "task"], builtIn: true },
    ]);
    assert.deepEqual((await call("GET /api/actions", { query: { projectDir } })).data, [
      { id: "hello", label: "Hello", description: "echo" },
    ]);
    assert.deepEqual((await call("POST /api/composer/route", { body: { projectDir, text: "@shell echo hi" } })).data, {
      kind: "tool",
      tool: "shell",
      arguments: { cmd: "echo hi" },
    });
    assert.equal(
      (await call("POST /api/composer/route", { body: { projectDir, text: "@hello" } })).data.kind,
      "action",
    );
  });

  it("dispatches with the client's call id, and refuses what the composer explains", async () => {
    const projectDir = server.projectDir;
    const ran = await call("POST /api/tools/dispatch", {
      body: { projectDir, chatId, tool: "shell", arguments: { cmd: "echo hi" }, callId: "call_ui_1" },
    });
    assert.equal(ran.data.callId, "call_ui_1");
    assert.equal(
      (await call("POST /api/tools/subagent", { body: { projectDir, chatId, agent: "nobody", task: "x" } })).status,
      404,
    );
    assert.equal(
      (await call("POST /api/actions/:id/run", { params: { id: "hello" }, body: { projectDir, chatId } })).status,
      403,
    );
  });
});
