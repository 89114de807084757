import assert from "node:assert/strict";
import path from "node:path";
import { migrate, openDatabase, schemaVersion } from "../../../src/platform/db";
import { MIGRATIONS } from "../../../src/platform/migrations";
import { openSqlite } from "../../../src/platform/sqlite-binding";
import { makeTempDir, removeDir } from "../../helpers/temp";

describe("app database", () => {
  let dir: string;
  beforeEach(() => (dir = makeTempDir()));
  afterEach(() => removeDir(dir));

  it("opens in WAL mode at the latest schema with every foundation table", () => {
    const db = openDatabase(path.join(dir, "store.sqlite"));
    assert.equal(db.pragma("journal_mode", { simple: true }), "wal");
    assert.equal(schemaVersion(db), MIGRATIONS.length);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (t) => t.name,
    );
    for (const table of [
      "app_kv",
      "projects",
      "project_settings",
      "mcp_tool_cache",
      "recent_models",
      "prompts",
      "chats",
      "messages",
      "sessions",
    ]) {
      assert.ok(tables.includes(table), `missing table ${table}`);
    }
    db.close();
  });

  it("applies only pending migrations and is a no-op when reopened", () => {
    const file = path.join(dir, "store.sqlite");
    const steps = ["CREATE TABLE a (x)", "CREATE TABLE b (y)"];
    const db = openDatabase(file, steps.slice(0, 1));
    db.prepare("INSERT INTO a VALUES (1)").run();
    db.close();
    const again = openDatabase(file, steps);
    assert.equal(schemaVersion(again), 2);
    assert.deepEqual(again.prepare("SELECT x FROM a").all(), [{ x: 1 }]);
    migrate(again, steps);
    assert.equal(schemaVersion(again), 2);
    again.close();
  });

  it("rolls a failing migration back whole, leaving the earlier version intact", () => {
    const file = path.join(dir, "store.sqlite");
    openDatabase(file, ["CREATE TABLE a (x)"]).close();
    assert.throws(() => openDatabase(file, ["CREATE TABLE a (x)", "CREATE TABLE b (y); THIS IS NOT SQL"]));
    const db = openSqlite(file);
    assert.equal(schemaVersion(db), 1);
    assert.equal((db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'b'").get() as { n: number }).n, 0);
    db.close();
  });

  it("refuses a database written by a newer Parley instead of damaging it", () => {
    const file = path.join(dir, "store.sqlite");
    openDatabase(file, ["CREATE TABLE a (x)", "CREATE TABLE b (x)"]).close();
    assert.throws(() => openDatabase(file, ["CREATE TABLE a (x)"]), /newer than this Parley/);
  });
});
