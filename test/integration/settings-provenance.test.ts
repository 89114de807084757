// GET /api/settings/resolved says which layer each value comes from, and a PATCH can reset one value
// of an object-valued key (a tool's gate, one chat default) to what the lower layers give.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startTestServer, projectQuery, type TestServer } from "../helpers/test-server";

describe("settings provenance and reset to inherited", () => {
  let s: TestServer;
  let q: string;
  beforeEach(async () => {
    s = await startTestServer();
    q = projectQuery(s.projectDir);
  });
  afterEach(() => s.stop());

  const resolved = async (query = q) =>
    (await s.api("GET", `/api/settings/resolved${query ? `?${query}` : ""}`)).json();

  it("names the layer of every value: default, app or project, objects key by key", async () => {
    await s.api("PATCH", "/api/settings/app", {
      skills: false,
      tags: ["app"],
      chat: { maxSteps: 12 },
      toolGates: { shell: "allow", file: "off" },
    });
    await s.api("PATCH", `/api/settings/project?${q}`, { name: "Proj", tags: ["proj"], toolGates: { shell: "off" } });
    const { settings, provenance } = await resolved();
    assert.equal(settings.name, "Proj");
    assert.equal(provenance.name, "project");
    assert.equal(provenance.tags, "project", "an array is replaced whole by the higher layer");
    assert.equal(provenance.skills, "app");
    assert.equal(provenance.agentFiles, "default");
    assert.equal(provenance.agentFileNames, "default");
    assert.deepEqual(provenance.toolGates, { shell: "project", file: "app" });
    assert.deepEqual(provenance.chat, {
      defaultPromptStyle: "default",
      enterInsertsNewline: "default",
      autoRetryFailedSends: "default",
      maxSteps: "app",
    });
    assert.equal(provenance.providers, "default");

    const appOnly = await resolved("");
    assert.equal(appOnly.provenance.name, undefined, "no project, no project values");
    assert.equal(appOnly.provenance.tags, "app");
    assert.deepEqual(appOnly.provenance.toolGates, { shell: "app", file: "app" });
  });

  it("stays backward compatible: `settings` is what it was", async () => {
    const body = await resolved();
    assert.deepEqual(Object.keys(body).sort(), ["provenance", "settings"]);
    assert.equal(body.settings.agentFiles, true);
  });

  it("resets one tool gate of the project to the app's, and the catalog follows", async () => {
    await s.api("PATCH", "/api/settings/app", { toolGates: { shell: "allow" } });
    const gateOf = async (name: string) =>
      ((await (await s.api("GET", `/api/tools/catalog?${q}`)).json()) as { name: string; gate: string }[]).find(
        (t) => t.name === name,
      )!.gate;
    await s.api("PATCH", `/api/settings/project?${q}`, { toolGates: { shell: "off", task: "ask" } });
    assert.equal(await gateOf("shell"), "off");
    const reset = await s.api("PATCH", `/api/settings/project?${q}`, { toolGates: { shell: null } });
    assert.equal(reset.status, 200);
    assert.deepEqual((await reset.json()).project.toolGates, { task: "ask" }, "only that gate went");
    assert.equal(await gateOf("shell"), "allow", "the app's gate again");
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(s.projectDir, ".app.json"), "utf8")).toolGates, {
      task: "ask",
    });
    assert.deepEqual((await resolved()).provenance.toolGates, { shell: "app", task: "project" });
  });

  it("resets one chat default of the app layer and keeps the others", async () => {
    await s.api("PATCH", "/api/settings/app", { chat: { maxSteps: 7, maxTurnCost: 0.5, enterInsertsNewline: true } });
    let { settings } = await resolved("");
    assert.equal(settings.chat.maxSteps, 7);
    assert.equal(settings.chat.maxTurnCost, 0.5);
    const res = await s.api("PATCH", "/api/settings/app", { chat: { maxSteps: null, maxTurnCost: null } });
    assert.equal(res.status, 200);
    ({ settings } = await resolved(""));
    assert.equal(settings.chat.maxSteps, undefined, "back to the built-in limit (50, applied by the agent loop)");
    assert.equal(settings.chat.maxTurnCost, undefined);
    assert.equal(settings.chat.enterInsertsNewline, true);
  });

  it("refuses bad nested values with 400 and writes nothing", async () => {
    for (const body of [
      { toolGates: { shell: "sometimes" } },
      { chat: { maxSteps: 0 } },
      { chat: { maxTurnCost: -1 } },
      { chat: { maxSteps: 2.5 } },
    ]) {
      const res = await s.api("PATCH", "/api/settings/app", body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal((await res.json()).error.code, "invalid_request");
    }
    const { settings } = await resolved("");
    assert.deepEqual(settings.toolGates, undefined);
    assert.equal(settings.chat.maxSteps, undefined);
  });
});
