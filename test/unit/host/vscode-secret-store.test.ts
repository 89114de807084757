import assert from "node:assert/strict";
import { VscodeSecretStore } from "../../../src/host/vscode-secret-store";

/** The three SecretStorage methods, backed by a Map, as VS Code's own in-memory keyring behaves. */
function keyring() {
  const values = new Map<string, string>();
  return {
    values,
    get: async (key: string) => values.get(key),
    store: async (key: string, value: string) => void values.set(key, value),
    delete: async (key: string) => void values.delete(key),
  };
}

describe("VS Code secret store", () => {
  it("keeps API keys and gateway sign-ins apart under Parley's names, and lists names by prefix", async () => {
    const ring = keyring();
    const store = new VscodeSecretStore(ring);
    await store.set("apiKey/providers/gateway", "sk-pasted");
    await store.set("oauth/gateway/a_1", '{"accessToken":"sk-oauth"}');
    assert.deepEqual(await store.list("apiKey/"), ["apiKey/providers/gateway"]);
    assert.deepEqual(await store.list("oauth/gateway/"), ["oauth/gateway/a_1"]);
    assert.equal(ring.values.get("parley/apiKey/providers/gateway"), "sk-pasted");
    assert.ok(!ring.values.get("parley/__index")!.includes("sk-"), "the index holds names only");
  });

  it("forgets deleted names and loses none under concurrent writes", async () => {
    const store = new VscodeSecretStore(keyring());
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`k/${i}`, "v")));
    await store.delete("k/3");
    assert.equal((await store.list("k/")).length, 19);
    assert.equal(await store.get("k/3"), undefined);
  });

  it("does not list a name whose secret vanished outside Parley", async () => {
    const ring = keyring();
    const store = new VscodeSecretStore(ring);
    await store.set("a", "1");
    ring.values.delete("parley/a");
    assert.deepEqual(await store.list(""), []);
  });
});
