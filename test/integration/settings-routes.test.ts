import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startTestServer, projectQuery, type TestServer } from "../helpers/test-server";

describe("settings routes", () => {
  let s: TestServer;
  let q: string;
  const appJson = () => path.join(s.projectDir, ".app.json");
  beforeEach(async () => {
    s = await startTestServer();
    q = projectQuery(s.projectDir);
  });
  afterEach(() => s.stop());

  it("resolves defaults < app < project, project winning, entries merged by id", async () => {
    assert.equal(
      (
        await s.api("PATCH", "/api/settings/app", {
          tags: ["app"],
          skills: false,
          providers: [{ id: "gateway", label: "From app" }],
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await s.api("PATCH", `/api/settings/project?${q}`, {
          tags: ["proj"],
          providers: [{ id: "gateway", baseUrl: "http://127.0.0.1:9/v1" }],
        })
      ).status,
      200,
    );
    const { settings } = await (await s.api("GET", `/api/settings/resolved?${q}`)).json();
    assert.deepEqual(settings.tags, ["proj"]);
    assert.equal(settings.skills, false, "app value over the default");
    assert.equal(settings.agentFiles, true, "default kept");
    assert.deepEqual(settings.providers, [
      {
        id: "gateway",
        provider: "gateway",
        label: "From app",
        baseUrl: "http://127.0.0.1:9/v1",
        authMode: "apiKey",
        hasApiKey: false,
      },
    ]);
    const appOnly = (await (await s.api("GET", "/api/settings/resolved")).json()).settings;
    assert.deepEqual(appOnly.tags, ["app"]);
  });

  it("stores an apiKey in the secret store only, and answers with hasApiKey", async () => {
    const secret = "sk-test-DO-NOT-LEAK-1234567890";
    const res = await s.api("PATCH", `/api/settings/project?${q}`, {
      models: [{ id: "vendor/model", label: "M", apiKey: secret }],
    });
    const body = await res.text();
    assert.ok(!body.includes(secret));
    assert.deepEqual(JSON.parse(body).project.models, [{ id: "vendor/model", label: "M", hasApiKey: true }]);
    assert.ok(!fs.readFileSync(appJson(), "utf8").includes(secret), ".app.json holds no key");
    s.runtime.db.pragma("wal_checkpoint(TRUNCATE)");
    for (const name of fs.readdirSync(s.home).filter((f) => f.startsWith("store.sqlite"))) {
      assert.ok(!fs.readFileSync(path.join(s.home, name)).includes(secret), `${name} holds no key`);
    }
    // Bound to the origin the model's provider (the default gateway) points at.
    assert.equal(await s.runtime.secrets.get("apiKey/models/vendor/model@https://openrouter.ai"), secret);
    // Credentials are global: the app view of the same entry sees the key too.
    await s.api("PATCH", "/api/settings/app", { models: [{ id: "vendor/model", label: "App M" }] });
    assert.equal((await (await s.api("GET", "/api/settings/app")).json()).models[0].hasApiKey, true);
    // apiKey: null removes it.
    await s.api("PATCH", "/api/settings/app", { models: [{ id: "vendor/model", apiKey: null }] });
    assert.equal(await s.runtime.secrets.get("apiKey/models/vendor/model@https://openrouter.ai"), undefined);
  });

  it("deletes keys with null and entries with $remove", async () => {
    await s.api("PATCH", "/api/settings/app", {
      dictation: { modelId: "openai/whisper-1", providerId: "gateway" },
      models: [{ id: "a/b" }, { id: "c/d" }],
    });
    const res = await s.api("PATCH", "/api/settings/app", { dictation: null, models: [{ id: "a/b", $remove: true }] });
    const app = await res.json();
    assert.equal(app.dictation, undefined);
    assert.deepEqual(app.models, [{ id: "c/d", hasApiKey: false }]);
  });

  it("saves each chat default on its own without touching the others", async () => {
    await s.api("PATCH", "/api/settings/app", { chat: { enterInsertsNewline: true } });
    await s.api("PATCH", "/api/settings/app", { chat: { autoRetryFailedSends: false } });
    const { settings } = await (await s.api("GET", "/api/settings/resolved")).json();
    assert.deepEqual(settings.chat, {
      defaultPromptStyle: "none",
      enterInsertsNewline: true,
      autoRetryFailedSends: false,
    });
  });

  for (const [label, body] of [
    ["a wrong type", { skills: "yes" }],
    ["an unknown key", { skillz: true }],
    ["a bad tool gate", { tools: { shell: "sometimes" } }],
    ["a provider without id", { providers: [{ baseUrl: "http://x" }] }],
    ["a provider with a bad URL", { providers: [{ id: "gateway", baseUrl: "not a url" }] }],
    ["an array body", [1, 2]],
  ] as const) {
    it(`answers 400 with issues for ${label} and writes nothing`, async () => {
      fs.writeFileSync(appJson(), '{"name":"Kept"}\n');
      const res = await s.api("PATCH", `/api/settings/project?${q}`, body);
      assert.equal(res.status, 400);
      const error = (await res.json()).error;
      assert.equal(error.code, "invalid_request");
      assert.ok(Array.isArray(error.issues) && error.issues.length > 0);
      assert.equal(fs.readFileSync(appJson(), "utf8"), '{"name":"Kept"}\n');
    });
  }

  it("answers 400 for malformed JSON and 413 for a huge body", async () => {
    const bad = await s.api("PATCH", "/api/settings/app", "{not json");
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error.code, "invalid_request");
    const huge = await s.api("PATCH", "/api/settings/app", JSON.stringify({ tags: ["x".repeat(2 * 1024 * 1024)] }));
    assert.equal(huge.status, 413);
    assert.equal((await huge.json()).error.code, "payload_too_large");
    assert.deepEqual(await (await s.api("GET", "/api/settings/app")).json(), {});
  });

  it("answers 400 for a relative, missing or non-directory projectDir", async () => {
    const file = path.join(s.projectDir, "file.txt");
    fs.writeFileSync(file, "x");
    for (const dir of ["relative/dir", path.join(s.projectDir, "nope"), file]) {
      const res = await s.api("GET", `/api/settings/project?${projectQuery(dir)}`);
      assert.equal(res.status, 400, dir);
      assert.equal((await res.json()).error.code, "invalid_request");
    }
    assert.equal((await s.api("GET", "/api/settings/project")).status, 400);
  });

  it("serves defaults for a garbage .app.json, reports it, and never overwrites it", async () => {
    const garbage = '{"name": "half written",,, \u0000';
    fs.writeFileSync(appJson(), garbage);
    const res = await s.api("GET", `/api/settings/project?${q}`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(body.project, {});
    assert.match(body.error, /not valid JSON/);
    const patch = await s.api("PATCH", `/api/settings/project?${q}`, { name: "New" });
    assert.equal(patch.status, 409);
    assert.equal((await patch.json()).error.code, "conflict");
    assert.equal((await s.api("PUT", `/api/settings/project/storage?${q}`, { dbBacked: true })).status, 409);
    assert.equal(fs.readFileSync(appJson(), "utf8"), garbage);
    const resolved = (await (await s.api("GET", `/api/settings/resolved?${q}`)).json()).settings;
    assert.equal(resolved.agentFiles, true, "the other layers still apply");
  });

  it("keeps keys it does not know and reports a bad known key without dropping it from the file", async () => {
    fs.writeFileSync(appJson(), JSON.stringify({ custom: { x: [1, 2] }, skills: "maybe", name: "P" }));
    const get = await (await s.api("GET", `/api/settings/project?${q}`)).json();
    assert.deepEqual(get.project, { custom: { x: [1, 2] }, name: "P" });
    assert.equal(get.issues[0].key, "skills");
    await s.api("PATCH", `/api/settings/project?${q}`, { tags: ["t"] });
    assert.deepEqual(JSON.parse(fs.readFileSync(appJson(), "utf8")), {
      custom: { x: [1, 2] },
      skills: "maybe",
      name: "P",
      tags: ["t"],
    });
  });

  it("moves settings into the app database and back without loss", async () => {
    const original = { name: "Moved", custom: { keep: "me" }, tools: { shell: "off" } };
    fs.writeFileSync(appJson(), JSON.stringify(original));
    const toDb = await (await s.api("PUT", `/api/settings/project/storage?${q}`, { dbBacked: true })).json();
    assert.equal(toDb.dbBacked, true);
    assert.equal(toDb.path, path.join(s.home, "store.sqlite"));
    assert.deepEqual(toDb.project, original, "no __dbBacked in the response");
    assert.equal(fs.existsSync(appJson()), false);
    const projects = await (await s.api("GET", "/api/projects")).json();
    assert.equal(projects[0].dbBacked, true);

    await s.api("PATCH", `/api/settings/project?${q}`, { tags: ["while-in-db"] });
    const back = await (await s.api("PUT", `/api/settings/project/storage?${q}`, { dbBacked: false })).json();
    assert.equal(back.dbBacked, false);
    assert.deepEqual(JSON.parse(fs.readFileSync(appJson(), "utf8")), { ...original, tags: ["while-in-db"] });
    assert.ok(!fs.readFileSync(appJson(), "utf8").includes("__dbBacked"));
  });

  it("refuses to switch back when a new .app.json appeared, keeping both copies", async () => {
    await s.api("PATCH", `/api/settings/project?${q}`, { name: "In DB" });
    await s.api("PUT", `/api/settings/project/storage?${q}`, { dbBacked: true });
    fs.writeFileSync(appJson(), '{"name":"pulled from git"}');
    const res = await s.api("PUT", `/api/settings/project/storage?${q}`, { dbBacked: false });
    assert.equal(res.status, 409);
    assert.equal(fs.readFileSync(appJson(), "utf8"), '{"name":"pulled from git"}');
    assert.equal((await (await s.api("GET", `/api/settings/project?${q}`)).json()).project.name, "In DB");
  });

  it("quarantines a garbage settings row and lists it with the original bytes", async () => {
    s.runtime.db
      .prepare("INSERT INTO app_kv (key, value, created_at, updated_at) VALUES ('settings', ?, 'x', 'x')")
      .run('{"chat": oops');
    const app = await s.api("GET", "/api/settings/app");
    assert.equal(app.status, 200);
    assert.deepEqual(await app.json(), {});
    const rows = await (await s.api("GET", "/api/settings/app/quarantine")).json();
    assert.equal(rows.length, 1);
    assert.equal(rows[0].value, '{"chat": oops');
    assert.ok(s.logLines.some((line) => line.includes(rows[0].key)));
    assert.equal(
      (await s.api("PATCH", "/api/settings/app", { tags: ["fresh"] })).status,
      200,
      "the server keeps working",
    );
  });

  it("never loses an update when many patches race", async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.api("PATCH", `/api/settings/project?${q}`, { fileTags: { [`f${i}.ts`]: ["t"] } }),
      ),
    );
    const file = JSON.parse(fs.readFileSync(appJson(), "utf8"));
    assert.equal(Object.keys(file.fileTags).length, 20);
  });

  it("resolves a project's settings once while nothing changes, frozen, and afresh when any layer changes", async () => {
    const { project } = await s.runtime.projects.register(s.projectDir);
    const settings = async () => (await s.runtime.settings.snapshot(project)).settings;
    const first = await settings();
    assert.equal(await settings(), first, "a project without settings shares one resolution");
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.chat), "shared, so nobody may change it");
    assert.throws(() => {
      (first as { defaultModel?: string }).defaultModel = "changed/by-a-reader";
    }, TypeError);

    await s.api("PATCH", "/api/settings/app", { defaultModel: "app/model" });
    const afterApp = await settings();
    assert.notEqual(afterApp, first);
    assert.equal(afterApp.defaultModel, "app/model");

    fs.writeFileSync(appJson(), JSON.stringify({ defaultModel: "file/model" }));
    assert.equal((await settings()).defaultModel, "file/model", "an edited .app.json is read at once");
    const fromFile = await settings();
    assert.equal(await settings(), fromFile);

    await s.api("PUT", `/api/settings/project/storage?${q}`, { dbBacked: true });
    const fromRow = await settings();
    assert.equal(fromRow.defaultModel, "file/model");
    assert.equal(await settings(), fromRow, "an unchanged database row shares one resolution too");
    await s.api("PATCH", `/api/settings/project?${q}`, { defaultModel: "row/model" });
    assert.equal((await settings()).defaultModel, "row/model");
  });

  it("hands out one snapshot of a project while nothing it is made of changes, and a new one when anything does", async () => {
    const { project } = await s.runtime.projects.register(s.projectDir);
    const snapshot = () => s.runtime.settings.snapshot(project);
    const first = await snapshot();
    assert.equal(await snapshot(), first, "what it worked out (gates, MCP configs) is kept for the next turn");

    await s.api("PATCH", "/api/settings/app", { toolGates: { shell: "off" } });
    const afterApp = await snapshot();
    assert.notEqual(afterApp, first);
    assert.equal(afterApp.gates.shell, "off");
    assert.equal(await snapshot(), afterApp);

    fs.writeFileSync(appJson(), JSON.stringify({ toolGates: { file: "allow" }, agents: [{ name: "helper" }] }));
    const afterFile = await snapshot();
    assert.notEqual(afterFile, afterApp);
    assert.equal(afterFile.trusted, false, "a project bringing an allow gate waits for trust");
    assert.deepEqual(
      afterFile.agents.agents.map((a) => a.name),
      ["helper"],
    );

    await s.api("POST", `/api/projects/${project.id}/trust`, { trusted: true });
    const trusted = await snapshot();
    assert.notEqual(trusted, afterFile, "trusting the project is a new snapshot");
    assert.equal(trusted.trusted, true);
    assert.equal(trusted.gates.file, "allow");
  });
});
