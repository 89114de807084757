// The tool routes the UI's cards call, checked against a real server: the catalog in the shape the
// route table gives, and approvals, answers and reverts refused plainly when nothing waits.
import assert from "node:assert/strict";
import { apiRoutes } from "../../../src/shared/api-routes";
import { routePath } from "../../../webview/src/lib/api/client";
import { startTestServer, type TestServer } from "../../helpers/test-server";

describe("UI tool routes against the server", function () {
  let server: TestServer;
  let chatId: string;

  before(async () => {
    server = await startTestServer();
    const project = await (await server.api("POST", "/api/projects", { dir: server.projectDir })).json();
    chatId = (await (await server.api("POST", `/api/projects/${project.id}/chats`, { title: "Tools" })).json()).id;
  });
  after(() => server?.stop());

  it("answers the tool catalog with gates, in the shape the table gives", async () => {
    const path = routePath("GET /api/tools/catalog", { query: { projectDir: server.projectDir } });
    const tools = await (await server.api("GET", path)).json();
    const parsed = apiRoutes["GET /api/tools/catalog"].response.safeParse(tools);
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
    const gates = Object.fromEntries(parsed.data.map((t) => [t.name, t.gate]));
    assert.equal(gates.shell, "ask");
    assert.equal(gates.task, "allow");
  });

  it("fills the approval, answer and revert paths, and the server answers 404 when nothing waits", async () => {
    const approval = routePath("POST /api/chats/:id/approvals/:call", { params: { id: chatId, call: "call_x" } });
    assert.equal(approval, `/api/chats/${chatId}/approvals/call_x`);
    assert.equal((await server.api("POST", approval, { decision: "allow" })).status, 404);
    const answer = routePath("POST /api/chats/:id/answers/:call", { params: { id: chatId, call: "call_y" } });
    assert.equal((await server.api("POST", answer, { answer: "yes" })).status, 404);
    const revert = routePath("POST /api/chats/:id/turns/:turn/revert", { params: { id: chatId, turn: "t_none" } });
    assert.equal((await server.api("POST", revert, {})).status, 404);
  });
});
