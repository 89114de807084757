import assert from "node:assert/strict";
import path from "node:path";
import { openDatabase, type Db } from "../../../src/platform/db";
import { ProjectsRepo } from "../../../src/projects/projects-repo";
import { ProjectSettingsRepo } from "../../../src/settings/project-settings-repo";
import { SessionsRepo, hashSessionId } from "../../../src/access/sessions-repo";
import { McpToolCacheRepo } from "../../../src/tools/mcp/tool-cache-repo";
import { RecentModelsRepo } from "../../../src/chat/recent-models-repo";
import { AppKvRepo } from "../../../src/platform/app-kv-repo";
import { makeTempDir, removeDir } from "../../helpers/temp";

describe("repositories", () => {
  let dir: string;
  let db: Db;
  beforeEach(() => {
    dir = makeTempDir();
    db = openDatabase(path.join(dir, "store.sqlite"));
  });
  afterEach(() => {
    db.close();
    removeDir(dir);
  });

  it("projects: ensure creates once and returns the same id afterwards", () => {
    const repo = new ProjectsRepo(db);
    const first = repo.ensure("/a");
    const second = repo.ensure("/a");
    assert.equal(first.created, true);
    assert.equal(second.created, false);
    assert.equal(first.project.id, second.project.id);
    assert.equal(repo.byId(first.project.id)?.dir, "/a");
    assert.equal(repo.list().length, 1);
  });

  it("project settings: put, replace, list db-backed ids, delete", () => {
    const { project } = new ProjectsRepo(db).ensure("/p");
    const repo = new ProjectSettingsRepo(db);
    repo.put(project.id, '{"a":1}');
    repo.put(project.id, '{"a":2}');
    assert.equal(repo.get(project.id), '{"a":2}');
    assert.deepEqual([...repo.dbBackedProjectIds()], [project.id]);
    repo.delete(project.id);
    assert.equal(repo.has(project.id), false);
  });

  it("sessions: stores only a hash, honours expiry, and can be revoked", () => {
    const repo = new SessionsRepo(db);
    repo.create("live", "ua", 60_000);
    repo.create("expired", "ua", -1);
    assert.equal(repo.touch("live"), true);
    assert.equal(repo.touch("expired"), false);
    assert.equal(repo.touch("unknown"), false);
    assert.ok(!JSON.stringify(db.prepare("SELECT * FROM sessions").all()).includes("live"));
    assert.deepEqual(
      repo.list().map((s) => s.idHash),
      [hashSessionId("live")],
    );
    assert.equal(repo.revoke(hashSessionId("live")), true);
    assert.equal(repo.touch("live"), false);
  });

  it("mcp tool cache: replaces a server's tools and lists them parsed, one row per cache key", () => {
    const repo = new McpToolCacheRepo(db);
    repo.put("project:a:fs#1", "fs", [{ name: "read" }]);
    repo.put("project:a:fs#1", "fs", [{ name: "write" }]);
    repo.put("project:b:fs#2", "fs", [{ name: "list" }]);
    assert.deepEqual(
      repo.all().map((r) => [r.cacheKey, r.serverId, r.tools]),
      [
        ["project:a:fs#1", "fs", [{ name: "write" }]],
        ["project:b:fs#2", "fs", [{ name: "list" }]],
      ],
    );
    assert.deepEqual(repo.get("project:b:fs#2")?.tools, [{ name: "list" }]);
    assert.equal(repo.get("project:c:fs#3"), undefined);
    repo.delete("project:a:fs#1");
    repo.delete("project:b:fs#2");
    assert.deepEqual(repo.all(), []);
  });

  it("mcp tool cache: prunes one server's older configurations, keeping the newest and other servers'", () => {
    const repo = new McpToolCacheRepo(db);
    for (let n = 1; n <= 6; n++) repo.put(`app:fs_1#${n}`, "fs_1", [{ name: `t${n}` }]);
    repo.put("app:fs_10#1", "fs_10", []);
    repo.put("app:fsx1#1", "fsx1", []);
    repo.prune("app:fs_1#", 2);
    assert.deepEqual(
      repo.all().map((r) => r.cacheKey),
      ["app:fs_1#5", "app:fs_1#6", "app:fs_10#1", "app:fsx1#1"],
    );
  });

  it("recent models: newest first, one row per model", () => {
    const repo = new RecentModelsRepo(db);
    repo.touch("gateway", "a/one");
    repo.touch("gateway", "b/two");
    repo.touch("gateway", "a/one");
    assert.deepEqual(
      repo.list().map((m) => m.modelId),
      ["a/one", "b/two"],
    );
  });

  it("app kv: prefix listing treats _ and % literally", () => {
    const repo = new AppKvRepo(db);
    repo.set("a_b", "1");
    repo.set("axb", "2");
    assert.deepEqual(
      repo.listByPrefix("a_").map((r) => r.key),
      ["a_b"],
    );
  });
});
