import assert from "node:assert/strict";
import path from "node:path";
import { openDatabase, type Db } from "../../../src/platform/db";
import { AppKvRepo } from "../../../src/platform/app-kv-repo";
import { AppSettingsStore, listQuarantinedAppSettings } from "../../../src/settings/app-settings-store";
import { makeTempDir, removeDir } from "../../helpers/temp";

describe("app settings store", () => {
  let dir: string;
  let db: Db;
  let kv: AppKvRepo;
  let logged: string[];
  let store: AppSettingsStore;

  beforeEach(() => {
    dir = makeTempDir();
    db = openDatabase(path.join(dir, "store.sqlite"));
    kv = new AppKvRepo(db);
    logged = [];
    store = new AppSettingsStore(kv, (line) => logged.push(line));
  });
  afterEach(() => {
    db.close();
    removeDir(dir);
  });

  it("reads {} when nothing is stored and round-trips an object", () => {
    assert.deepEqual(store.read(), {});
    store.write({ chat: { enterInsertsNewline: true } });
    assert.deepEqual(store.read(), { chat: { enterInsertsNewline: true } });
  });

  for (const [label, bytes] of [
    ["text that does not parse", "{not json"],
    ["an array", "[1,2]"],
    ["a number", "42"],
    ["a string", '"settings"'],
    ["null", "null"],
  ] as const) {
    it(`quarantines ${label} with its original bytes and starts from defaults`, () => {
      kv.set("settings", bytes);
      assert.deepEqual(store.read(), {});
      assert.equal(kv.get("settings"), undefined, "the unreadable live row is deleted");
      const rows = listQuarantinedAppSettings(kv);
      assert.equal(rows.length, 1);
      assert.match(rows[0]!.key, /^settings\.corrupt-\d+-[0-9a-f]{8}$/);
      assert.equal(rows[0]!.value, bytes);
      assert.equal(logged.length, 1);
      assert.ok(logged[0]!.includes(rows[0]!.key), "the quarantine key is logged");
    });
  }

  it("keeps every quarantined copy and lets a repaired value be restored", () => {
    kv.set("settings", "{broken 1");
    store.read();
    kv.set("settings", "{broken 2");
    store.read();
    const rows = store.listQuarantined();
    assert.deepEqual(rows.map((r) => r.value).sort(), ["{broken 1", "{broken 2"]);
    kv.set("settings", '{"restored":true}');
    assert.deepEqual(store.read(), { restored: true });
  });

  it("does not list keys that merely look similar", () => {
    kv.set("settings_corrupt-x", "a");
    kv.set("settings.corruptible", "b");
    assert.deepEqual(store.listQuarantined(), []);
  });

  it("applies read-modify-write updates in one transaction", () => {
    store.update((s) => ({ ...s, a: 1 }));
    store.update((s) => ({ ...s, b: 2 }));
    assert.deepEqual(store.read(), { a: 1, b: 2 });
    assert.throws(() =>
      store.update(() => {
        throw new Error("boom");
      }),
    );
    assert.deepEqual(store.read(), { a: 1, b: 2 });
  });
});
