import assert from "node:assert/strict";
import {
  extractSecrets,
  isCredentialHeader,
  redactSettings,
  SECRET_PLACEHOLDER,
} from "../../../src/settings/settings-secrets";

describe("settings secrets", () => {
  it("moves apiKey out of providers and models entries into secret changes", () => {
    const { patch, secrets } = extractSecrets({
      providers: [{ id: "gateway", apiKey: "sk-1", baseUrl: "https://x" }],
      models: [{ id: "a/b", apiKey: null, label: "AB" }],
      name: "n",
    });
    assert.deepEqual(patch, {
      providers: [{ id: "gateway", baseUrl: "https://x" }],
      models: [{ id: "a/b", label: "AB" }],
      name: "n",
    });
    assert.deepEqual(secrets, [
      { kind: "providers", id: "gateway", slot: "apiKey/providers/gateway", value: "sk-1" },
      { kind: "models", id: "a/b", slot: "apiKey/models/a/b", value: null },
    ]);
  });

  it("drops an entry that carried nothing but its key, leaving no stub", () => {
    const { patch, secrets } = extractSecrets({ providers: [{ id: "gateway", apiKey: "sk-1" }] });
    assert.deepEqual(patch, { providers: [] });
    assert.equal(secrets.length, 1);
  });

  it("treats an empty apiKey as removing the key", () => {
    assert.deepEqual(extractSecrets({ providers: [{ id: "g", apiKey: "", label: "G" }] }).secrets, [
      { kind: "providers", id: "g", slot: "apiKey/providers/g", value: null },
    ]);
  });

  it("moves credential headers to secrets and keeps a placeholder; a null header removes both", () => {
    const { patch, secrets } = extractSecrets({
      models: [
        {
          id: "m",
          headers: {
            Authorization: "Bearer s3",
            "X-Title": "Mine",
            "X-Session-Token": "t",
            "x-api-key": null,
            Cookie: SECRET_PLACEHOLDER,
          },
        },
      ],
    });
    assert.deepEqual(patch, {
      models: [
        {
          id: "m",
          headers: {
            Authorization: SECRET_PLACEHOLDER,
            "X-Title": "Mine",
            "X-Session-Token": SECRET_PLACEHOLDER,
            "x-api-key": null,
            Cookie: SECRET_PLACEHOLDER,
          },
        },
      ],
    });
    assert.deepEqual(secrets, [
      { kind: "models", id: "m", slot: "header/models/m/authorization", value: "Bearer s3" },
      { kind: "models", id: "m", slot: "header/models/m/x-session-token", value: "t" },
      { kind: "models", id: "m", slot: "header/models/m/x-api-key", value: null },
    ]);
  });

  it("knows which headers carry credentials", () => {
    for (const name of [
      "Authorization",
      "proxy-authorization",
      "X-API-Key",
      "api-key",
      "Cookie",
      "X-Auth-Token",
      "client-secret",
      "OpenAI-Key",
    ])
      assert.ok(isCredentialHeader(name), name);
    for (const name of ["HTTP-Referer", "X-Title", "X-Gateway-Title", "Accept", "User-Agent"])
      assert.ok(!isCredentialHeader(name), name);
  });

  it("redacts apiKey into hasApiKey, credential headers into the placeholder, and hides __dbBacked", () => {
    const out = redactSettings(
      {
        __dbBacked: true,
        providers: [
          { id: "gateway" },
          { id: "inline", apiKey: "sk-inline", headers: { authorization: "Bearer hand-written", "x-title": "T" } },
          { id: "none" },
        ],
        models: [{ id: "a/b", apiKey: "" }],
      },
      (kind, id) => kind === "providers" && id === "gateway",
    );
    assert.deepEqual(out, {
      providers: [
        { id: "gateway", hasApiKey: true },
        { id: "inline", headers: { authorization: SECRET_PLACEHOLDER, "x-title": "T" }, hasApiKey: true },
        { id: "none", hasApiKey: false },
      ],
      models: [{ id: "a/b", hasApiKey: false }],
    });
    assert.ok(!JSON.stringify(out).includes("sk-inline"));
    assert.ok(!JSON.stringify(out).includes("hand-written"));
  });
});
