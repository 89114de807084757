// Hostile settings files and bodies never take the app down: any JSON object as `.app.json` or as a PATCH
// body gives a 2xx or a 4xx in the contract's error shape, never a 500, and never touches Object.prototype.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { apiErrorBodySchema } from "../../src/shared/api-error";
import { startTestServer, projectQuery, type TestServer } from "../helpers/test-server";

const BUILT_IN_NAMES = [
  "toString",
  "constructor",
  "hasOwnProperty",
  "valueOf",
  "__proto__",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "prototype",
];
const SETTINGS_KEYS = [
  "name",
  "tags",
  "fileTags",
  "tools",
  "providers",
  "models",
  "prompts",
  "agents",
  "actions",
  "skills",
  "agentFiles",
  "agentFileNames",
  "defaultAgent",
  "chat",
  "allowedHosts",
];

const key = fc.oneof(
  fc.constantFrom(...BUILT_IN_NAMES, ...SETTINGS_KEYS, "id", "baseUrl", "apiKey", "headers", "$remove"),
  fc.string({ maxLength: 8 }),
);
const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, "", "x", "https://example.com"),
    fc.string({ maxLength: 12 }),
    fc.double(),
    fc.array(tie("value"), { maxLength: 4 }),
    tie("object"),
  ),
  object: fc.dictionary(key, tie("value"), { maxKeys: 6, noNullPrototype: true }),
})).object as fc.Arbitrary<Record<string, unknown>>;

function prototypeSnapshot(): string {
  return (
    JSON.stringify(Object.getOwnPropertyNames(Object.prototype).sort()) +
    String(Object.getPrototypeOf({}) === Object.prototype)
  );
}

async function expectContract(res: Response, what: string): Promise<void> {
  const text = await res.text();
  assert.ok(res.status < 500, `${what} answered ${res.status}: ${text.slice(0, 300)}`);
  if (res.status >= 400)
    assert.ok(apiErrorBodySchema.safeParse(JSON.parse(text)).success, `${what}: ${text.slice(0, 300)}`);
}

describe("hostile settings", function () {
  this.timeout(120_000);
  let s: TestServer;
  let q: string;
  let projectId: string;
  const appJson = () => path.join(s.projectDir, ".app.json");
  before(async () => {
    s = await startTestServer();
    q = projectQuery(s.projectDir);
    projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
  });
  after(() => s.stop());

  it("serves every project route when .app.json has keys named after built-ins, and keeps them in the file", async () => {
    fs.writeFileSync(
      appJson(),
      '{"toString":1,"constructor":{"x":1},"hasOwnProperty":"no","valueOf":[],"__proto__":{"polluted":true},"name":"Hostile"}',
    );
    for (const route of [
      "/api/projects",
      `/api/settings/project?${q}`,
      `/api/settings/resolved?${q}`,
      `/api/prompts?${q}`,
      `/api/agents?${q}`,
      `/api/actions?${q}`,
      `/api/mentions/catalog?${q}`,
      `/api/projects/${projectId}/tags`,
    ]) {
      const res = await s.api("GET", route);
      assert.ok(res.status === 200 || res.status === 404, `${route}: ${res.status} ${await res.clone().text()}`);
    }
    assert.equal((await s.api("PATCH", `/api/settings/project?${q}`, { tags: ["a"] })).status, 200);
    const kept = JSON.parse(fs.readFileSync(appJson(), "utf8"));
    assert.deepEqual(
      Object.keys(kept).sort(),
      ["__proto__", "constructor", "hasOwnProperty", "name", "tags", "toString", "valueOf"].sort(),
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it("ignores the app's own keys in a project's .app.json (limits, budget, hosts), says so, and keeps them in the file", async () => {
    const before = await (await s.api("GET", `/api/settings/resolved?${q}`)).json();
    fs.writeFileSync(
      appJson(),
      JSON.stringify({
        name: "Cloned",
        chat: { maxSteps: 1000, maxTurnCost: null },
        allowedHosts: ["evil.example"],
        refererUrl: "https://evil.example/",
      }),
    );
    const resolved = await (await s.api("GET", `/api/settings/resolved?${q}`)).json();
    assert.deepEqual(resolved.chat, before.chat, "a repository cannot lift the step limit or the budget");
    assert.deepEqual(resolved.allowedHosts, before.allowedHosts);
    assert.equal(resolved.refererUrl, before.refererUrl);
    const project = await (await s.api("GET", `/api/settings/project?${q}`)).json();
    assert.deepEqual(project.issues.map((issue: { key: string }) => issue.key).sort(), [
      "allowedHosts",
      "chat",
      "refererUrl",
    ]);
    assert.match(project.issues[0].message, /app setting: a project cannot set it/);
    assert.equal((await s.api("PATCH", `/api/settings/project?${q}`, { tags: ["kept"] })).status, 200);
    assert.deepEqual(
      JSON.parse(fs.readFileSync(appJson(), "utf8")).chat,
      { maxSteps: 1000, maxTurnCost: null },
      "kept in the file, as written",
    );
    const refused = await s.api("PATCH", `/api/settings/project?${q}`, { chat: { maxSteps: 5 } });
    assert.equal(refused.status, 400);
  });

  it("answers any JSON object as .app.json or as a PATCH body with 2xx or a contract 4xx, never touching Object.prototype", async () => {
    const before = prototypeSnapshot();
    await fc.assert(
      fc.asyncProperty(hostileJson, hostileJson, async (file, patch) => {
        fs.writeFileSync(appJson(), JSON.stringify(file));
        for (const route of [
          "/api/projects",
          `/api/settings/project?${q}`,
          `/api/settings/resolved?${q}`,
          `/api/prompts?${q}`,
          `/api/mentions/catalog?${q}`,
        ]) {
          await expectContract(await s.api("GET", route), `GET ${route}`);
        }
        await expectContract(await s.api("PATCH", `/api/settings/project?${q}`, patch), "PATCH project");
        await expectContract(await s.api("PATCH", "/api/settings/app", patch), "PATCH app");
        await expectContract(await s.api("POST", `/api/projects/${projectId}/chats`, patch), "POST chat");
        assert.equal(prototypeSnapshot(), before);
      }),
      { numRuns: 60 },
    );
    fs.rmSync(appJson(), { force: true });
  });

  it("refuses bodies nested thousands of levels deep with 400, and serves a deep .app.json as damaged", async () => {
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
    for (const route of ["/api/settings/app", `/api/settings/project?${q}`]) {
      const res = await fetch(`${s.url}${route}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
        body: `{"chat":${deep(5000)}}`,
      });
      assert.equal(res.status, 400, route);
      assert.equal((await res.json()).error.code, "invalid_request");
    }
    const arrays = await fetch(`${s.url}/api/projects`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
      body: `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
    });
    assert.equal(arrays.status, 400);
    fs.writeFileSync(appJson(), `{"name":"deep","x":${deep(5000)}}`);
    const res = await s.api("GET", `/api/settings/project?${q}`);
    assert.equal(res.status, 200);
    assert.match((await res.json()).error, /nests more than 64 levels/);
    assert.equal(
      (await s.api("PATCH", `/api/settings/project?${q}`, { tags: [] })).status,
      409,
      "a file Parley cannot handle is never overwritten",
    );
    assert.equal((await s.api("GET", "/api/projects")).status, 200);
    fs.rmSync(appJson(), { force: true });
  });
});
