import assert from "node:assert/strict";
import fc from "fast-check";
import { resolveLayers, type JsonObject } from "../../../src/settings/settings-merge";
import { settingsProvenance } from "../../../src/settings/settings-provenance";
import type { Provenance } from "../../../src/shared/settings";

const layers = (d: JsonObject, a: JsonObject, p: JsonObject) => [
  { name: "default" as const, value: d },
  { name: "app" as const, value: a },
  { name: "project" as const, value: p },
];

describe("settings provenance", () => {
  it("names the highest layer that sets each value, objects key by key", () => {
    const tree = settingsProvenance(
      layers(
        { chat: { maxSteps: 50, style: "none" }, skills: true, tags: [] },
        { chat: { maxSteps: 9 }, tags: ["a"] },
        { tags: ["b"], toolGates: { shell: "off" } },
      ),
    );
    assert.deepEqual(tree, {
      chat: { maxSteps: "app", style: "default" },
      skills: "default",
      tags: "project",
      toolGates: { shell: "project" },
    });
  });

  it("treats arrays and id-merged lists as one value, replaced whole", () => {
    const tree = settingsProvenance(
      layers({ providers: [{ id: "gateway", baseUrl: "x" }] }, { providers: [{ id: "gateway", label: "L" }] }, {}),
    );
    assert.equal(tree.providers, "app");
  });

  it("starts an object afresh over a scalar, and a scalar over an object is one value", () => {
    assert.deepEqual(settingsProvenance(layers({ chat: "odd" }, { chat: { maxSteps: 3 } }, {})), {
      chat: { maxSteps: "app" },
    });
    assert.equal(settingsProvenance(layers({ chat: { maxSteps: 3 } }, {}, { chat: 7 })).chat, "project");
  });

  it("keeps keys named like built-ins as plain data", () => {
    const tree = settingsProvenance(
      layers({}, { fileTags: { __proto__x: ["a"], toString: ["b"] } }, JSON.parse('{"fileTags":{"__proto__":["c"]}}')),
    );
    assert.deepEqual(Object.keys(tree.fileTags as Provenance).sort(), ["__proto__", "__proto__x", "toString"]);
    assert.equal(Object.getPrototypeOf(tree.fileTags), Object.prototype);
  });

  it("has a layer name exactly where the merged settings have a non-object value (property)", () => {
    const value = fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.array(fc.integer(), { maxLength: 2 }),
      fc.dictionary(
        fc.constantFrom("a", "b"),
        fc.oneof(fc.integer(), fc.dictionary(fc.constantFrom("x", "y"), fc.integer())),
      ),
    );
    const layer = fc.dictionary(fc.constantFrom("k", "m", "n"), value);
    fc.assert(
      fc.property(layer, layer, layer, (d, a, p) => {
        const merged = resolveLayers(d, a, p);
        const tree = settingsProvenance(layers(d, a, p));
        const check = (m: unknown, t: unknown): void => {
          if (typeof m === "object" && m !== null && !Array.isArray(m)) {
            assert.equal(typeof t, "object");
            assert.deepEqual(Object.keys(t as object).sort(), Object.keys(m).sort());
            for (const key of Object.keys(m)) check((m as JsonObject)[key], (t as Provenance)[key]);
          } else assert.ok(t === "default" || t === "app" || t === "project");
        };
        check(merged, tree);
      }),
    );
  });
});
