import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { FileSecretStore } from "../../../src/settings/secret-store";
import { makeTempDir, removeDir } from "../../helpers/temp";

describe("file secret store", () => {
  let dir: string;
  beforeEach(() => (dir = makeTempDir()));
  afterEach(() => removeDir(dir));

  it("stores, lists names by prefix, and deletes, in a 0600 file", async () => {
    const store = new FileSecretStore(dir);
    await store.set("apiKey/providers/gateway", "sk-a");
    await store.set("oauth/gateway/1", "sk-b");
    assert.equal(await store.get("apiKey/providers/gateway"), "sk-a");
    assert.deepEqual(await store.list("apiKey/"), ["apiKey/providers/gateway"]);
    assert.equal(fs.statSync(path.join(dir, "secrets.json")).mode & 0o777, 0o600);
    await store.delete("apiKey/providers/gateway");
    assert.equal(await store.get("apiKey/providers/gateway"), undefined);
    assert.equal(await store.get("oauth/gateway/1"), "sk-b");
  });

  it("loses no write when many run at once", async () => {
    const store = new FileSecretStore(dir);
    await Promise.all(Array.from({ length: 25 }, (_, i) => store.set(`k${i}`, `v${i}`)));
    assert.equal((await store.list("k")).length, 25);
  });

  it("refuses to overwrite a damaged secrets file", async () => {
    fs.writeFileSync(path.join(dir, "secrets.json"), "[garbage");
    const store = new FileSecretStore(dir);
    await assert.rejects(store.set("a", "b"));
    assert.equal(fs.readFileSync(path.join(dir, "secrets.json"), "utf8"), "[garbage");
  });
});
