import assert from "node:assert/strict";
import { apiKeySecretName, extractSecrets, redactSettings } from "../../../src/core/settings-secrets";

describe("settings secrets", () => {
  it("moves apiKey out of providers and models entries into secret changes", () => {
    const { patch, secrets } = extractSecrets({
      providers: [{ id: "gateway", apiKey: "sk-1", baseUrl: "https://x" }],
      models: [{ id: "a/b", apiKey: null, label: "AB" }],
      name: "n",
    });
    assert.deepEqual(patch, { providers: [{ id: "gateway", baseUrl: "https://x" }], models: [{ id: "a/b", label: "AB" }], name: "n" });
    assert.deepEqual(secrets, [
      { name: "apiKey/providers/gateway", value: "sk-1" },
      { name: "apiKey/models/a/b", value: null },
    ]);
  });

  it("drops an entry that carried nothing but its key, leaving no stub", () => {
    const { patch, secrets } = extractSecrets({ providers: [{ id: "gateway", apiKey: "sk-1" }] });
    assert.deepEqual(patch, { providers: [] });
    assert.equal(secrets.length, 1);
  });

  it("treats an empty apiKey as removing the key", () => {
    assert.deepEqual(extractSecrets({ providers: [{ id: "g", apiKey: "", label: "G" }] }).secrets, [
      { name: "apiKey/providers/g", value: null },
    ]);
  });

  it("redacts apiKey into hasApiKey and hides __dbBacked", () => {
    const stored = new Set([apiKeySecretName("providers", "gateway")]);
    const out = redactSettings(
      {
        __dbBacked: true,
        providers: [{ id: "gateway" }, { id: "inline", apiKey: "sk-inline" }, { id: "none" }],
        models: [{ id: "a/b", apiKey: "" }],
      },
      (name) => stored.has(name),
    );
    assert.deepEqual(out, {
      providers: [
        { id: "gateway", hasApiKey: true },
        { id: "inline", hasApiKey: true },
        { id: "none", hasApiKey: false },
      ],
      models: [{ id: "a/b", hasApiKey: false }],
    });
    assert.ok(!JSON.stringify(out).includes("sk-inline"));
  });
});
