import assert from "node:assert/strict";
import { builtInDefaults } from "../../../src/settings/settings-defaults";
import { validateLayer } from "../../../src/settings/settings-validate";
import { appSettingsPatchSchema, resolvedSettingsShape } from "../../../src/shared/settings";

describe("settings schema", () => {
  it("accepts every built-in default, key by key", () => {
    assert.deepEqual(validateLayer(builtInDefaults(), resolvedSettingsShape).issues, []);
  });

  it("lets a PATCH set the default model a new chat takes (one schema line, read by the turn)", () => {
    assert.ok(appSettingsPatchSchema.safeParse({ defaultModel: "fake/echo" }).success);
    assert.ok(!appSettingsPatchSchema.safeParse({ defaultModel: "" }).success);
  });
});
