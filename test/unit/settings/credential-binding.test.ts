import assert from "node:assert/strict";
import { boundSecretName, entryOrigin, originOf, parseBoundSecretName } from "../../../src/settings/credential-binding";
import { exceedsJsonDepth } from "../../../src/platform/json-depth";

describe("credential binding", () => {
  it("takes the origin of http(s) URLs only", () => {
    assert.equal(originOf("https://openrouter.ai/api/v1"), "https://openrouter.ai");
    assert.equal(originOf("http://127.0.0.1:4000/v1"), "http://127.0.0.1:4000");
    assert.equal(originOf("HTTP://Example.COM:80/x"), "http://example.com");
    for (const bad of ["file:///etc/passwd", "javascript:alert(1)", "not a url", "", 42, undefined])
      assert.equal(originOf(bad), undefined, String(bad));
  });

  it("round-trips bound names and leaves legacy names unbound", () => {
    const name = boundSecretName("apiKey/models/vendor/m@v2", "http://127.0.0.1:8080");
    assert.deepEqual(parseBoundSecretName(name), {
      slot: "apiKey/models/vendor/m@v2",
      origin: "http://127.0.0.1:8080",
    });
    assert.equal(parseBoundSecretName("apiKey/providers/gateway"), undefined);
    assert.equal(parseBoundSecretName("apiKey/models/name@revision"), undefined);
  });

  it("finds the origin of a model through its provider", () => {
    const settings = {
      providers: [
        { id: "gateway", baseUrl: "https://openrouter.ai/api/v1" },
        { id: "local", baseUrl: "http://localhost:11434/v1" },
      ],
      models: [{ id: "llama", provider: "local" }],
    };
    assert.equal(entryOrigin(settings, "models", "llama"), "http://localhost:11434");
    assert.equal(entryOrigin(settings, "models", "other/x"), "https://openrouter.ai");
    assert.equal(entryOrigin(settings, "providers", "missing"), undefined);
    assert.equal(entryOrigin({ providers: "toString" } as never, "providers", "gateway"), undefined);
  });
});

describe("JSON depth", () => {
  it("measures nesting without recursion", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    assert.equal(exceedsJsonDepth(deep), true);
    assert.equal(exceedsJsonDepth({ a: [{ b: { c: [1, 2, { d: null }] } }] }), false);
    assert.equal(exceedsJsonDepth([[[1]]], 3), false);
    assert.equal(exceedsJsonDepth([[[[1]]]], 3), true);
    assert.equal(exceedsJsonDepth("text"), false);
  });
});
