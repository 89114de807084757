import assert from "node:assert/strict";
import { issuesForTouchedKeys, validateLayer } from "../../../src/settings/settings-validate";
import { appSettingsShape, projectSettingsShape } from "../../../src/shared/settings";

describe("settings validation", () => {
  it("keeps good keys, reports bad ones, and passes unknown keys through", () => {
    const { value, issues } = validateLayer(
      { name: "P", skills: "yes", futureKey: { a: 1 }, tools: { shell: "allow" } },
      projectSettingsShape,
    );
    assert.deepEqual(value, { name: "P", futureKey: { a: 1 }, tools: { shell: "allow" } });
    assert.equal(issues.length, 1);
    assert.equal(issues[0]!.key, "skills");
  });

  it("rejects a tool gate other than off, ask or allow", () => {
    const issues = issuesForTouchedKeys({ tools: { shell: "sometimes" } }, ["tools"], projectSettingsShape);
    assert.deepEqual(issues[0]!.path, ["tools", "shell"]);
  });

  it("checks only the keys a patch touched", () => {
    assert.deepEqual(issuesForTouchedKeys({ skills: "bad", name: "ok" }, ["name"], projectSettingsShape), []);
  });

  it("validates dictation and chat defaults on the app layer", () => {
    assert.equal(issuesForTouchedKeys({ dictation: { modelId: "m" } }, ["dictation"], appSettingsShape).length, 1);
    assert.equal(issuesForTouchedKeys({ chat: { enterInsertsNewline: true } }, ["chat"], appSettingsShape).length, 0);
    assert.equal(issuesForTouchedKeys({ chat: { defaultPromptStyle: "huge" } }, ["chat"], appSettingsShape).length, 1);
  });
});
