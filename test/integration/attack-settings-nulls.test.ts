// PATCH /api/settings/app|project with `null` in odd places (null now removes one key of an object
// setting): every body gets a 2xx or a contract 4xx, a refused one writes nothing, Object.prototype is
// untouched, and the provenance output of GET /api/settings/resolved never carries a secret.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { apiErrorBodySchema } from "../../src/shared/api-error";
import { provenanceSchema } from "../../src/shared/settings";
import { projectQuery, startTestServer, type TestServer } from "../helpers/test-server";

const prototypeSnapshot = () =>
  JSON.stringify(Object.getOwnPropertyNames(Object.prototype).sort()) +
  String(Object.getPrototypeOf({}) === Object.prototype);

/** Raw JSON texts: `__proto__` keys only survive as text. */
const HOSTILE_BODIES = [
  '{"__proto__": null}',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": null}',
  '{"toolGates": {"__proto__": null}}',
  '{"toolGates": {"__proto__": "allow"}}',
  '{"toolGates": {"__proto__": {"polluted": true}}}',
  '{"toolGates": {"constructor": null, "toString": null}}',
  '{"toolGates": {"shell": null, "nope": null}}',
  '{"toolGates": null}',
  '{"providers": null}',
  '{"models": null}',
  '{"mcpServers": null}',
  '{"providers": [null]}',
  '{"providers": [{"id": null}]}',
  '{"providers": [{"id": "gateway", "headers": {"__proto__": null}}]}',
  '{"providers": [{"id": "gateway", "headers": null}]}',
  '{"mcpServers": [{"id": "m", "transport": "stdio", "command": "x", "env": {"A": null}}]}',
  '{"mcpServers": [{"id": "m", "transport": null}]}',
  '{"tags": [null, "a"]}',
  '{"agentFileNames": [null]}',
  '{"agentFileNames": [[null]]}',
  '{"fileTags": {"a.ts": null}}',
  '{"fileTags": {"a.ts": [null]}}',
  '{"fileTags": {"__proto__": ["x"]}}',
  '{"name": null}',
  '{"defaultModel": null}',
  '{"chat": null}',
  '{"chat": {"defaultPromptStyle": null, "maxSteps": null, "maxTurnCost": null}}',
  '{"chat": {"__proto__": {"polluted": true}}}',
  '{"chat": {"maxSteps": [null]}}',
  '{"dictation": {"modelId": null}}',
  '{"dictation": {"modelId": null, "providerId": null}}',
  '{"dictation": null}',
  '{"access": {"sessionIdleDays": null}}',
  '{"access": {"__proto__": null}}',
  "null",
  "[null]",
  '{"a": {"b": null}}',
];

describe("settings PATCH with hostile nulls", function () {
  this.timeout(60_000);
  let s: TestServer;
  let q: string;
  const appJson = () => path.join(s.projectDir, ".app.json");
  before(async () => {
    s = await startTestServer();
    q = projectQuery(s.projectDir);
    await s.api("POST", "/api/projects", { dir: s.projectDir });
  });
  after(() => s.stop());

  it("answers every body with 2xx or a contract 4xx, and a refused one changes nothing", async () => {
    const before = prototypeSnapshot();
    const base = {
      toolGates: { shell: "ask" },
      chat: { maxSteps: 7 },
      dictation: { modelId: "openai/whisper-1", providerId: "gateway" },
      tags: ["keep"],
    };
    for (const body of HOSTILE_BODIES) {
      for (const [scope, route] of [
        ["app", "/api/settings/app"],
        ["project", `/api/settings/project?${q}`],
      ] as const) {
        // A known starting point for each body.
        if (scope === "app") s.runtime.appStore.update(() => structuredClone(base));
        else fs.writeFileSync(appJson(), JSON.stringify({ toolGates: { shell: "ask" }, tags: ["keep"] }));
        const stored = () =>
          scope === "app" ? JSON.stringify(s.runtime.appStore.read()) : fs.readFileSync(appJson(), "utf8");
        const was = stored();
        const res = await s.api("PATCH", route, body);
        const text = await res.text();
        assert.ok(res.status < 500, `${scope} ${body}: ${res.status} ${text}`);
        if (res.status >= 400) {
          assert.ok(apiErrorBodySchema.safeParse(JSON.parse(text)).success, `${scope} ${body}: ${text}`);
          assert.equal(stored(), was, `${scope} ${body}: a refused patch wrote nothing`);
        }
        for (const read of [
          "/api/settings/app",
          `/api/settings/project?${q}`,
          `/api/settings/resolved?${q}`,
          "/api/settings/resolved",
        ]) {
          const after = await s.api("GET", read);
          assert.equal(after.status, 200, `${read} after ${scope} ${body}`);
        }
        assert.equal(prototypeSnapshot(), before, `${scope} ${body}`);
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
      }
    }
  });

  it("removes one key with null and leaves its siblings (reset to inherited), in both scopes", async () => {
    s.runtime.appStore.update(() => ({
      toolGates: { shell: "ask", read_file: "off" },
      chat: { maxSteps: 7, enterInsertsNewline: true },
    }));
    assert.equal(
      (await s.api("PATCH", "/api/settings/app", { toolGates: { shell: null }, chat: { maxSteps: null } })).status,
      200,
    );
    assert.deepEqual(s.runtime.appStore.read(), {
      toolGates: { read_file: "off" },
      chat: { enterInsertsNewline: true },
    });
    fs.writeFileSync(appJson(), JSON.stringify({ toolGates: { shell: "allow", write_file: "off" } }));
    assert.equal((await s.api("PATCH", `/api/settings/project?${q}`, { toolGates: { shell: null } })).status, 200);
    assert.deepEqual(JSON.parse(fs.readFileSync(appJson(), "utf8")), { toolGates: { write_file: "off" } });
  });

  it("refuses null for a required key of an object setting and keeps the whole object", async () => {
    s.runtime.appStore.update(() => ({ dictation: { modelId: "openai/whisper-1", providerId: "gateway" } }));
    const res = await s.api("PATCH", "/api/settings/app", { dictation: { modelId: null } });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.code, "invalid_request");
    assert.deepEqual(s.runtime.appStore.read(), { dictation: { modelId: "openai/whisper-1", providerId: "gateway" } });
  });

  it("refuses a misspelt key inside an object setting with 400 rather than answer 200 having saved nothing", async () => {
    s.runtime.appStore.update(() => ({ chat: { maxSteps: 7 } }));
    for (const body of [
      { chat: { maxStep: 5 } },
      { access: { sessionIdleDay: 3 } },
      { dictation: { modelId: "openai/whisper-1", providerId: "gateway", model: "x" } },
    ]) {
      const res = await s.api("PATCH", "/api/settings/app", body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal((await res.json()).error.code, "invalid_request");
    }
    assert.deepEqual(s.runtime.appStore.read(), { chat: { maxSteps: 7 } });
  });

  it("shows no secret (API keys, MCP env and header values) in the resolved settings, their provenance or the log", async () => {
    const secrets = [
      "sk-provider-secret-1111",
      "sk-model-secret-2222",
      "env-secret-3333",
      "header-secret-4444",
      "proj-env-secret-5555",
    ];
    const patch = await s.api("PATCH", "/api/settings/app", {
      providers: [{ id: "gateway", apiKey: secrets[0] }],
      models: [{ id: "fake/echo", provider: "gateway", apiKey: secrets[1] }],
      mcpServers: [
        { id: "srv", transport: "stdio", command: "node", env: { TOKEN: secrets[2] } },
        { id: "web", transport: "http", url: "https://mcp.example.com/x", headers: { Authorization: secrets[3] } },
      ],
    });
    assert.equal(patch.status, 200, await patch.clone().text());
    fs.writeFileSync(
      appJson(),
      JSON.stringify({ mcpServers: [{ id: "local", transport: "stdio", command: "node", env: { KEY: secrets[4] } }] }),
    );
    for (const route of [
      `/api/settings/resolved?${q}`,
      "/api/settings/resolved",
      "/api/settings/app",
      `/api/settings/project?${q}`,
      `/api/instructions?${q}`,
      "/api/usage",
    ]) {
      const res = await s.api("GET", route);
      assert.equal(res.status, 200, route);
      const text = await res.text();
      for (const secret of secrets) assert.ok(!text.includes(secret), `${route} shows ${secret}`);
      if (route.startsWith("/api/settings/resolved"))
        assert.ok(provenanceSchema.safeParse(JSON.parse(text).provenance).success, route);
    }
    for (const secret of secrets)
      assert.ok(!s.logLines.some((line) => line.includes(secret)), `the log shows ${secret}`);
  });
});
