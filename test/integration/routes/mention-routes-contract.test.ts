// The @ popup's search route in the UI's route table, checked against a real server: ranked rows
// in the table's shape (files first, with folder and highlights; tools with their schema for the
// Parameters chips), the filter, and the query the client builds.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { apiRoutes } from "../../../src/shared/api-routes";
import { routePath } from "../../../webview/src/lib/api/client";
import { startTestServer, type TestServer } from "../../helpers/test-server";

describe("UI mention search route against the server", function () {
  this.timeout(30_000);
  let server: TestServer;
  const search = async (query: Record<string, string>) => {
    const response = await server.api(
      "GET",
      routePath("GET /api/mentions/search", { query: { projectDir: server.projectDir, ...query } }),
    );
    assert.equal(response.status, 200);
    const parsed = apiRoutes["GET /api/mentions/search"].response.safeParse(await response.json());
    assert.ok(parsed.success, `the answer fits the table: ${JSON.stringify(parsed.error?.issues)}`);
    return parsed.data;
  };

  before(async () => {
    server = await startTestServer();
    fs.mkdirSync(path.join(server.projectDir, "src"));
    fs.writeFileSync(path.join(server.projectDir, "src", "shell-notes.md"), "notes\n");
    fs.writeFileSync(
      path.join(server.projectDir, ".app.json"),
      JSON.stringify({ agents: [{ name: "reviewer", description: "Reviews" }] }),
    );
  });
  after(() => server?.stop());

  it("answers ranked rows with files first, their folder, highlights, and tool schemas", async () => {
    const rows = await search({ q: "shell", clientId: "contract" });
    assert.deepEqual(rows[0], {
      category: "files",
      label: "shell-notes.md",
      detail: "src",
      insertText: "@src/shell-notes.md",
      highlights: [[0, 5]],
    });
    const shell = rows.find((r) => r.category === "tools" && r.label === "shell");
    assert.equal(shell?.insertText, "@shell:cmd=``");
    assert.deepEqual((shell?.parameters as { required?: string[] }).required, ["cmd"]);
  });

  it("filters by category with an empty query, uncapped", async () => {
    const rows = await search({ q: "", category: "tools" });
    assert.ok(rows.length > 4 && rows.every((r) => r.category === "tools"));
  });
});
