import assert from "node:assert/strict";
import fc from "fast-check";
import { applyPatch, overlay, resolveLayers } from "../../../src/settings/settings-merge";

describe("settings merge", () => {
  it("merges nested objects key by key and lets the upper layer win", () => {
    const merged = resolveLayers({ chat: { a: 1, b: 1 }, x: 1 }, { chat: { b: 2 } }, { chat: { c: 3 }, x: 3 });
    assert.deepEqual(merged, { chat: { a: 1, b: 2, c: 3 }, x: 3 });
  });

  it("replaces plain arrays instead of concatenating them", () => {
    assert.deepEqual(overlay({ tags: ["a", "b"] }, { tags: ["c"] }), { tags: ["c"] });
  });

  it("merges providers and models entries by id, keeping order and appending new ids", () => {
    const lower = {
      providers: [
        { id: "gateway", baseUrl: "https://a", authMode: "apiKey" },
        { id: "other", label: "O" },
      ],
    };
    const upper = {
      providers: [
        { id: "gateway", baseUrl: "https://b" },
        { id: "new", label: "N" },
      ],
    };
    assert.deepEqual(overlay(lower, upper).providers, [
      { id: "gateway", baseUrl: "https://b", authMode: "apiKey" },
      { id: "other", label: "O" },
      { id: "new", label: "N" },
    ]);
  });

  it("deletes a key when a patch sets it to null, also inside an entry", () => {
    const base = {
      dictation: { modelId: "m", providerId: "p" },
      models: [{ id: "a/b", label: "L", headers: { x: "1" } }],
    };
    const next = applyPatch(base, { dictation: null, models: [{ id: "a/b", headers: null }] });
    assert.deepEqual(next, { models: [{ id: "a/b", label: "L" }] });
  });

  it("removes an entry marked $remove and ignores $remove for an unknown id", () => {
    const base = { models: [{ id: "a/b" }, { id: "c/d" }] };
    assert.deepEqual(
      applyPatch(base, {
        models: [
          { id: "a/b", $remove: true },
          { id: "zz", $remove: true },
        ],
      }),
      {
        models: [{ id: "c/d" }],
      },
    );
  });

  it("treats a __proto__ key as data and never changes a prototype", () => {
    const fromFile = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const merged = resolveLayers({ b: 2 }, fromFile);
    assert.equal(Object.getPrototypeOf(merged), Object.prototype);
    assert.equal((merged as { polluted?: boolean }).polluted, undefined);
    assert.deepEqual(Object.keys(merged).sort(), ["__proto__", "a", "b"]);
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
  });

  it("keeps null as a value when overlaying layers (only patches delete)", () => {
    assert.deepEqual(overlay({ a: 1 }, { a: null }), { a: null });
  });

  it("never mutates its inputs", () => {
    const base = { chat: { a: 1 }, providers: [{ id: "g", x: 1 }] };
    const patch = { chat: { b: 2 }, providers: [{ id: "g", x: 2 }] };
    const before = structuredClone({ base, patch });
    const merged = applyPatch(base, patch);
    (merged.chat as Record<string, number>).z = 9;
    assert.deepEqual({ base, patch }, before);
  });

  it("is the identity for an empty patch and idempotent for any patch (property)", () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const object = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 6, noNullPrototype: true });
    fc.assert(
      fc.property(object, object, (base, patch) => {
        assert.deepEqual(applyPatch(base, {}), base);
        const once = applyPatch(base, patch);
        assert.deepEqual(applyPatch(once, patch), once);
      }),
    );
  });

  it("lets the last layer win for every scalar key it sets (property)", () => {
    const scalars = fc.dictionary(
      fc.constantFrom("a", "b", "c", "d"),
      fc.oneof(fc.integer(), fc.string(), fc.boolean()),
    );
    fc.assert(
      fc.property(scalars, scalars, scalars, (d, a, p) => {
        const merged = resolveLayers(d, a, p);
        for (const key of Object.keys(merged))
          assert.equal(merged[key], key in p ? p[key] : key in a ? a[key] : d[key]);
      }),
    );
  });
});
