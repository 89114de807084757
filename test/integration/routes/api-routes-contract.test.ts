// The route table the UI client is typed by, checked against what a real server answers: a
// response that stops matching its schema fails here, not as a blank view in the UI.
import assert from "node:assert/strict";
import { apiRoutes, type ApiRouteKey } from "../../../src/shared/api-routes";
import { startTestServer, type TestServer } from "../../helpers/test-server";

describe("UI route table against the server", function () {
  let server: TestServer;
  let projectId: string;
  let chatId: string;
  const projectDir = () => ({ projectDir: server.projectDir });

  async function check(key: ApiRouteKey, path: string, body?: unknown): Promise<void> {
    const method = key.slice(0, key.indexOf(" "));
    const response = await server.api(method, path, body);
    assert.ok(response.ok, `${key}: ${response.status} ${await response.clone().text()}`);
    const data = response.status === 204 ? undefined : await response.json();
    const parsed = apiRoutes[key].response.safeParse(data);
    assert.ok(parsed.success, `${key} answered a shape its schema refuses: ${JSON.stringify(parsed.error?.issues)}`);
  }
  const withQuery = (path: string, query: Record<string, string>) => `${path}?${new URLSearchParams(query)}`;

  before(async () => {
    server = await startTestServer();
    const project = await (await server.api("POST", "/api/projects", { dir: server.projectDir })).json();
    projectId = project.id;
    await server.api("PATCH", "/api/settings/app", {
      providers: [{ id: "gateway", apiKey: "sk-contract" }],
      models: [{ id: "x/y", pricing: { prompt: 0.000001, completion: 0.000002 } }],
    });
    chatId = (await (await server.api("POST", `/api/projects/${projectId}/chats`, { title: "Contract" })).json()).id;
  });
  after(() => server?.stop());

  it("answers project, chat and prompt reads in the shapes the table gives", async () => {
    await check("GET /api/projects", "/api/projects");
    await check("GET /api/projects/:id/chats", `/api/projects/${projectId}/chats`);
    await check("GET /api/chats/:id", `/api/chats/${chatId}`);
    await check("PATCH /api/chats/:id", `/api/chats/${chatId}`, { title: "Renamed" });
    await check("GET /api/prompts", withQuery("/api/prompts", projectDir()));
    await check("GET /api/prompts", withQuery("/api/prompts", { scope: "app" }));
    await check("GET /api/prompts/defaults", "/api/prompts/defaults");
  });

  it("answers settings reads and writes redacted, in the shapes the table gives", async () => {
    await check("GET /api/settings/app", "/api/settings/app");
    await check("PATCH /api/settings/app", "/api/settings/app", { chat: { enterInsertsNewline: true } });
    await check("GET /api/settings/resolved", "/api/settings/resolved");
    await check("GET /api/settings/resolved", withQuery("/api/settings/resolved", projectDir()));
    await check("GET /api/settings/project", withQuery("/api/settings/project", projectDir()));
    await check("PATCH /api/settings/project", withQuery("/api/settings/project", projectDir()), {
      name: "Contract project",
    });
    await check("PUT /api/settings/project/storage", withQuery("/api/settings/project/storage", projectDir()), {
      dbBacked: true,
    });
  });

  it("answers the gateway account routes in the shapes the table gives", async () => {
    await check("GET /api/providers/gateway/accounts", "/api/providers/gateway/accounts");
    await check("POST /api/chats/:id/cancel", `/api/chats/${chatId}/cancel`, {});
    await check("DELETE /api/chats/:id", `/api/chats/${chatId}`);
  });
});
