// Agents written from the Agents page (POST, PUT, DELETE /api/agents) against a real server and real
// files: the shapes of the route table, what stays in `.app.json` (other entries, damaged ones, unknown
// keys), the refusals (400 bad input, 404 unknown agent, 409 taken name or an unreadable file that is
// never overwritten), the database-backed layer, and trust (contract 7.1) neither given nor lost.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { apiRoutes } from "../../src/shared/api-routes";
import { routePath } from "../../webview/src/lib/api/client";
import { startTestServer, type TestServer } from "../helpers/test-server";

describe("agents written through /api/agents", function () {
  this.timeout(30_000);
  let s: TestServer;
  let projectId: string;
  const appJson = () => path.join(s.projectDir, ".app.json");
  const readFile = () => JSON.parse(fs.readFileSync(appJson(), "utf8"));
  const writeFile = (value: unknown) => fs.writeFileSync(appJson(), JSON.stringify(value));
  const projectDir = () => s.projectDir;

  const create = (agent: unknown) => s.api("POST", routePath("POST /api/agents"), { projectDir: projectDir(), agent });
  const update = (name: string, agent: unknown) =>
    s.api("PUT", routePath("PUT /api/agents/:name", { params: { name } }), { projectDir: projectDir(), agent });
  const remove = (name: string) =>
    s.api("DELETE", routePath("DELETE /api/agents/:name", { params: { name }, query: { projectDir: projectDir() } }));
  /** The project's own agents (Parley's built-in ones are listed after them). */
  const list = async () => {
    const response = await s.api("GET", routePath("GET /api/agents", { query: { projectDir: projectDir() } }));
    return apiRoutes["GET /api/agents"].response.parse(await response.json()).filter((agent) => !agent.builtIn);
  };
  const errorOf = async (response: Response) => ((await response.json()) as { error: any }).error;
  const trust = async () => (await s.api("GET", `/api/projects/${projectId}/trust`)).json();

  beforeEach(async () => {
    s = await startTestServer();
    projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
  });
  afterEach(() => s?.stop());

  it("creates, edits and deletes an agent, answering in the table's shapes and writing .app.json", async () => {
    writeFile({ prompts: [{ id: "review", content: "Review strictly." }], tags: ["kept"] });
    const made = await create({
      name: "reviewer",
      description: "Reviews diffs",
      model: "fake/tools",
      tools: ["shell", "file:read", "shell", "mcp__calc__sum"],
      promptId: "review",
    });
    assert.equal(made.status, 201);
    const entry = apiRoutes["POST /api/agents"].response.parse(await made.json());
    assert.deepEqual(entry, {
      name: "reviewer",
      description: "Reviews diffs",
      model: "fake/tools",
      tools: ["shell", "file:read", "mcp__calc__sum"],
      promptId: "review",
    });
    assert.deepEqual(await list(), [entry]);
    assert.deepEqual(readFile().agents, [entry]);
    assert.deepEqual(readFile().tags, ["kept"], "the rest of the file stays");
    assert.match(fs.readFileSync(appJson(), "utf8"), /^\{\n {2}"/, "two-space JSON, as people commit it");

    const edited = await update("reviewer", { name: "reviewer", description: "Reviews", tools: [] });
    assert.equal(edited.status, 200);
    const after = apiRoutes["PUT /api/agents/:name"].response.parse(await edited.json());
    assert.deepEqual(after, { name: "reviewer", description: "Reviews", tools: [] }, "absent fields are unset");
    assert.deepEqual(readFile().agents, [after]);

    assert.equal((await remove("reviewer")).status, 204);
    assert.deepEqual(readFile().agents, []);
    assert.deepEqual(await list(), []);
    assert.equal((await remove("reviewer")).status, 404);
    const leftovers = fs.readdirSync(s.projectDir).filter((name) => name.includes("parley-tmp"));
    assert.deepEqual(leftovers, [], "atomic writes leave no temporary file behind");
  });

  it("keeps the other entries, damaged ones and keys it does not know, and edits only the agent asked for", async () => {
    writeFile({
      agents: [
        { name: "first", description: "One", custom: { keep: true }, model: "old/model" },
        { name: "??broken", custom: 1 },
        { name: "second", description: "Two" },
      ],
    });
    assert.equal((await update("first", { name: "first", description: "Uno" })).status, 200);
    assert.deepEqual(readFile().agents, [
      { name: "first", description: "Uno", custom: { keep: true } },
      { name: "??broken", custom: 1 },
      { name: "second", description: "Two" },
    ]);
    assert.equal((await remove("second")).status, 204);
    assert.deepEqual(
      readFile().agents.map((a: { name: string }) => a.name),
      ["first", "??broken"],
    );
  });

  it("refuses a taken name with 409, an invalid one with 400, and an unknown agent with 404", async () => {
    writeFile({
      agents: [
        { name: "reviewer", description: "" },
        { name: "damaged", tools: "not a list" },
      ],
    });
    const before = fs.readFileSync(appJson(), "utf8");

    const taken = await create({ name: "reviewer" });
    assert.equal(taken.status, 409);
    const takenError = await errorOf(taken);
    assert.match(takenError.message, /an agent named "reviewer" already exists/);
    assert.deepEqual(takenError.issues[0].path, ["agent", "name"], "the form shows it at the name");
    assert.equal((await create({ name: "damaged" })).status, 409, "a damaged entry holds its name too");
    for (const name of ["Plan", "plan"]) {
      const reserved = await create({ name });
      assert.equal(reserved.status, 409, `${name}: the built-in Plan agent's name`);
      assert.match((await errorOf(reserved)).message, /Parley's own agents/);
    }

    for (const name of ["", "-dash-first", "has space", "a/b", "__proto__", "x".repeat(65)]) {
      const refused = await create({ name });
      assert.equal(refused.status, 400, `name ${JSON.stringify(name)}`);
      const error = await errorOf(refused);
      assert.equal(error.code, "invalid_request");
      assert.deepEqual(error.issues[0].path, ["agent", "name"]);
    }
    const badTools = await create({ name: "tooled", tools: ["shell", "nope", "subagent", "Bad Name"] });
    assert.equal(badTools.status, 400);
    assert.deepEqual(
      (await errorOf(badTools)).issues.map((i: { path: unknown[] }) => i.path),
      [["agent", "tools", 3]],
      "the form of a name is the schema's",
    );
    const unknownTools = await errorOf(await create({ name: "tooled", tools: ["shell", "nope", "subagent"] }));
    assert.deepEqual(
      unknownTools.issues.map((i: { path: unknown[]; message: string }) => [i.path.join("."), i.message]),
      [
        ["agent.tools.1", 'no tool is called "nope"'],
        ["agent.tools.2", "an agent cannot run other agents (subagent)"],
      ],
    );
    const noPrompt = await errorOf(await create({ name: "prompted", promptId: "no-such" }));
    assert.deepEqual(noPrompt.issues[0].path, ["agent", "promptId"]);
    assert.equal((await create({ name: "extra", colour: "red" })).status, 400, "fields the page does not send");
    assert.equal((await create({ name: "pinned", model: "   " })).status, 400, "a blank model pin");
    assert.equal((await s.api("POST", "/api/agents", { agent: { name: "x" } })).status, 400, "no projectDir");

    for (const name of ["nobody", "toString", "constructor"]) {
      assert.equal((await update(name, { name })).status, 404, name);
      assert.equal((await remove(name)).status, 404, name);
    }
    const renamed = await update("reviewer", { name: "critic" });
    assert.equal(renamed.status, 400);
    assert.match((await errorOf(renamed)).message, /name cannot be changed/);
    assert.equal(fs.readFileSync(appJson(), "utf8"), before, "nothing refused was written");
  });

  it("keeps an agent's prompt that no longer exists when only its description changes", async () => {
    writeFile({ agents: [{ name: "reviewer", description: "", promptId: "deleted-since" }] });
    assert.equal(
      (await update("reviewer", { name: "reviewer", description: "Now", promptId: "deleted-since" })).status,
      200,
    );
    assert.equal(readFile().agents[0].promptId, "deleted-since");
    const other = await update("reviewer", { name: "reviewer", promptId: "another-missing" });
    assert.equal(other.status, 400, "a newly chosen prompt must exist");
  });

  it("never overwrites a .app.json it cannot parse, nor `agents` that is not a list", async () => {
    for (const text of ['{"agents": [', JSON.stringify({ agents: { reviewer: {} } })]) {
      fs.writeFileSync(appJson(), text);
      for (const response of [
        await create({ name: "new" }),
        await update("reviewer", { name: "reviewer" }),
        await remove("reviewer"),
      ]) {
        assert.equal(response.status, 409, text);
        assert.match(
          (await errorOf(response)).message,
          /(fix the file first|fix it first), Parley will not overwrite it/,
        );
      }
      assert.equal(fs.readFileSync(appJson(), "utf8"), text, "the file is untouched");
    }
  });

  it("writes into the app database when the project's settings live there", async () => {
    writeFile({ agents: [{ name: "reviewer", description: "" }] });
    assert.equal(
      (
        await s.api("PUT", `/api/settings/project/storage?projectDir=${encodeURIComponent(projectDir())}`, {
          dbBacked: true,
        })
      ).status,
      200,
    );
    assert.equal((await create({ name: "critic", description: "Stored in the database" })).status, 201);
    assert.equal(fs.existsSync(appJson()), false, "no .app.json appears");
    assert.deepEqual(
      (await list()).map((a: { name: string }) => a.name),
      ["reviewer", "critic"],
    );
  });

  it("needs no trust to write an agent, and neither gives nor takes the project's trust (contract 7.1)", async () => {
    writeFile({ actions: [{ id: "hello", label: "Hello", run: { shell: "echo hi" } }] });
    assert.equal((await trust()).trusted, false, "the repository's action waits for trust");
    assert.equal((await create({ name: "reviewer", tools: ["shell"] })).status, 201);
    assert.equal((await trust()).trusted, false, "writing an agent does not trust the project");
    assert.equal((await trust()).lapsed, false);

    assert.equal((await s.api("POST", `/api/projects/${projectId}/trust`, { trusted: true })).status, 200);
    assert.equal((await update("reviewer", { name: "reviewer", description: "Edited" })).status, 200);
    assert.equal((await remove("reviewer")).status, 204);
    const state = await trust();
    assert.equal(state.trusted, true, "what Parley writes keeps the trust");
    assert.equal(state.lapsed, false);
  });
});
