// The MCP routes the settings page calls, checked against a real server: the status list in the shape
// the route table gives (an untrusted project command included), and the trust switch.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { apiRoutes } from "../../../src/shared/api-routes";
import { routePath } from "../../../webview/src/lib/api/client";
import { startTestServer, type TestServer } from "../../helpers/test-server";

describe("UI MCP routes against the server", function () {
  let server: TestServer;
  let projectId: string;

  before(async () => {
    server = await startTestServer();
    projectId = (await (await server.api("POST", "/api/projects", { dir: server.projectDir })).json()).id;
    fs.writeFileSync(
      path.join(server.projectDir, ".app.json"),
      JSON.stringify({
        mcpServers: [{ id: "repo", transport: "stdio", command: "definitely-not-run", args: ["--x"] }],
      }),
    );
    await server.api("PATCH", "/api/settings/app", {
      mcpServers: [{ id: "remote", name: "Remote", transport: "http", url: "http://127.0.0.1:9/mcp", enabled: false }],
    });
  });
  after(() => server?.stop());

  it("lists app and project servers with status, scope and command, in the shape the table gives", async () => {
    const answer = await (
      await server.api("GET", routePath("GET /api/mcp/servers", { query: { projectDir: server.projectDir } }))
    ).json();
    const parsed = apiRoutes["GET /api/mcp/servers"].response.safeParse(answer);
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
    const byId = Object.fromEntries(parsed.data.map((s) => [s.id, s]));
    assert.deepEqual(
      [byId.remote?.scope, byId.remote?.status, byId.remote?.enabled, byId.remote?.name],
      ["app", "stopped", false, "Remote"],
    );
    assert.deepEqual([byId.repo?.scope, byId.repo?.status], ["project", "untrusted"]);
    assert.match(byId.repo!.command!, /definitely-not-run/);
  });

  it("refuses to restart an untrusted server, and answers the trust switch in the table's shape", async () => {
    const restart = routePath("POST /api/mcp/servers/:id/restart", {
      params: { id: "repo" },
      query: { projectDir: server.projectDir },
    });
    assert.equal((await server.api("POST", restart, {})).status, 400);
    const trust = await server.api("POST", routePath("POST /api/projects/:id/trust", { params: { id: projectId } }), {
      trusted: false,
    });
    assert.deepEqual(apiRoutes["POST /api/projects/:id/trust"].response.parse(await trust.json()), { trusted: false });
  });
});
