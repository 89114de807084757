import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startTestServer, type TestServer } from "../helpers/test-server";

describe("projects routes", () => {
  let s: TestServer;
  beforeEach(async () => (s = await startTestServer()));
  afterEach(() => s.stop());

  it("registers a directory once (201, then 200) and lists it with its name", async () => {
    const first = await s.api("POST", "/api/projects", { dir: s.projectDir });
    assert.equal(first.status, 201);
    const project = await first.json();
    assert.deepEqual(Object.keys(project).sort(), ["dbBacked", "dir", "id", "name"]);
    assert.equal(project.name, "project");
    const again = await s.api("POST", "/api/projects", { dir: s.projectDir });
    assert.equal(again.status, 200);
    assert.equal((await again.json()).id, project.id);
    fs.writeFileSync(path.join(s.projectDir, ".app.json"), '{"name":"Nice Name"}');
    assert.deepEqual(await (await s.api("GET", "/api/projects")).json(), [{ ...project, name: "Nice Name" }]);
  });

  it("treats a symlink to a project as the same project", async () => {
    const link = path.join(path.dirname(s.projectDir), "link");
    fs.symlinkSync(s.projectDir, link);
    const a = await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json();
    const b = await (await s.api("POST", "/api/projects", { dir: link })).json();
    assert.equal(a.id, b.id);
  });

  it("answers 400 for a bad body, a relative path and a missing folder", async () => {
    for (const body of [
      {},
      { dir: 5 },
      { dir: "rel" },
      { dir: "/definitely/not/here" },
      { dir: s.projectDir, extra: 1 },
    ]) {
      const res = await s.api("POST", "/api/projects", body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal((await res.json()).error.code, "invalid_request");
    }
  });
});
