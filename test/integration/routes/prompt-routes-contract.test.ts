// The prompt routes the editor calls, checked against a real server: create, save and delete in the
// shapes the route table gives (paths filled in by the client's own routePath), a 400's issues under
// `prompt.<field>` as the editor maps them, and GET /api/instructions for the preset tree.
import assert from "node:assert/strict";
import { apiRoutes } from "../../../src/shared/api-routes";
import { routePath } from "../../../webview/src/lib/api/client";
import { blankDraft, fieldErrors, inputFromDraft } from "../../../webview/src/lib/prompt-draft";
import { startTestServer, type TestServer } from "../../helpers/test-server";

describe("UI prompt routes against the server", function () {
  let server: TestServer;
  before(async () => (server = await startTestServer()));
  after(() => server?.stop());

  it("creates, saves and deletes a project prompt the way the editor sends it", async () => {
    const draft = {
      ...blankDraft("project"),
      title: "Review",
      content: "Review strictly.",
      presetOn: true,
      preset: { tools: ["shell"], agentFiles: true, skills: false },
    };
    const body = { scope: "project" as const, projectDir: server.projectDir, prompt: inputFromDraft(draft) };
    const created = await server.api("POST", routePath("POST /api/prompts"), body);
    assert.equal(created.status, 201);
    const prompt = apiRoutes["POST /api/prompts"].response.parse(await created.json());
    assert.deepEqual(prompt.preset, { tools: ["shell"], agentFiles: true, skills: false });

    const put = routePath("PUT /api/prompts/:id", { params: { id: prompt.id } });
    const saved = await server.api("PUT", put, {
      ...body,
      prompt: inputFromDraft({ ...draft, id: prompt.id, presetOn: false }),
    });
    assert.equal(saved.status, 200);
    assert.equal(apiRoutes["PUT /api/prompts/:id"].response.parse(await saved.json()).preset, null);

    const del = routePath("DELETE /api/prompts/:id", {
      params: { id: prompt.id },
      query: { scope: "project", projectDir: server.projectDir },
    });
    assert.equal((await server.api("DELETE", del)).status, 204);
    assert.equal((await server.api("DELETE", del)).status, 404);
  });

  it("answers a refused prompt with issues the editor places at its fields", async () => {
    const response = await server.api("POST", "/api/prompts", {
      scope: "app",
      prompt: { title: "x".repeat(201), content: "" },
    });
    assert.equal(response.status, 400);
    const errors = fieldErrors((await response.json()).error.issues);
    assert.equal(errors.title, "Title: at most 200 characters.");
    assert.equal(errors.content, "Content must not be empty.");
  });

  it("answers GET /api/instructions in the shape the table gives", async () => {
    const response = await server.api(
      "GET",
      routePath("GET /api/instructions", { query: { projectDir: server.projectDir } }),
    );
    const parsed = apiRoutes["GET /api/instructions"].response.safeParse(await response.json());
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  });
});
