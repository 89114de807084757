import assert from "node:assert/strict";
import { packageScriptsChanged, protectedPathRule, protectedWrite } from "../../../src/tools/protected-paths";

const change = (given: string, before: string | null, after: string, rel = given) => ({
  given,
  rel,
  before: before === null ? null : Buffer.from(before),
  after: Buffer.from(after),
});

describe("protected paths: by name", () => {
  it("protects VS Code's folder, CI workflows and local actions, Husky's hooks", () => {
    assert.deepEqual(
      [".vscode/tasks.json", ".vscode/settings.json", ".github/workflows/ci.yml", ".github/actions/x/action.yml"].map(
        protectedPathRule,
      ),
      ["editor", "editor", "ci", "ci"],
    );
    assert.equal(protectedPathRule(".husky/pre-commit"), "git_hooks");
    assert.equal(protectedPathRule("packages/web/.vscode/launch.json"), "editor", "at any depth");
  });

  it("protects shell start-up files, direnv's .envrc and package manager settings wherever they are", () => {
    for (const name of [".bashrc", ".zshrc", ".profile", ".bash_profile", ".zprofile", ".zshenv", ".envrc"])
      assert.equal(protectedPathRule(name), "shell_startup", name);
    assert.equal(protectedPathRule("home/.config/fish/config.fish"), "shell_startup");
    assert.equal(protectedPathRule("scripts/.bashrc"), "shell_startup");
    assert.deepEqual([".npmrc", ".yarnrc", ".yarnrc.yml"].map(protectedPathRule), [
      "package_manager",
      "package_manager",
      "package_manager",
    ]);
  });

  it("leaves ordinary files alone, and names that merely resemble a protected one", () => {
    for (const name of [
      "src/index.ts",
      "README.md",
      ".github/CODEOWNERS",
      ".github/dependabot.yml",
      "docs/.vscode.md",
      "vscode/settings.json",
      ".bashrc.d/notes",
      "notes/bashrc",
      ".vscode",
      "package.json",
    ])
      assert.equal(protectedPathRule(name), undefined, name);
  });

  it("normalises the path first: ./, .., backslashes, repeated slashes", () => {
    for (const name of [
      "./.vscode/tasks.json",
      "a/../.vscode/tasks.json",
      "src/../../x/../.vscode/tasks.json",
      ".vscode\\tasks.json",
      ".vscode//tasks.json",
      "./.github/./workflows/ci.yml",
    ])
      assert.ok(protectedPathRule(name), name);
  });

  it("matches as a case-insensitive file system finds the file, Windows' quirks included", () => {
    for (const name of [
      ".VSCode/tasks.json",
      ".GitHub/Workflows/ci.yml",
      ".HUSKY/pre-push",
      ".BashRC",
      ".vscode./tasks.json",
      ".vscode /tasks.json",
      ".npmrc::$DATA",
      ".zshrc:stream",
    ])
      assert.ok(protectedPathRule(name), name);
  });
});

describe("protected paths: package.json scripts", () => {
  const pkg = (scripts?: Record<string, string>, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ name: "x", ...(scripts ? { scripts } : {}), ...extra }, null, 2);

  it("sees a script added, removed or changed", () => {
    assert.equal(packageScriptsChanged(pkg({ test: "mocha" }), pkg({ test: "mocha", postinstall: "curl x" })), true);
    assert.equal(packageScriptsChanged(pkg({ test: "mocha" }), pkg({})), true);
    assert.equal(packageScriptsChanged(pkg({ test: "mocha" }), pkg({ test: "curl x | sh" })), true);
    assert.equal(packageScriptsChanged(null, pkg({ test: "mocha" })), true, "a new package.json with scripts");
    assert.equal(packageScriptsChanged(pkg(), pkg({ prepare: "x" })), true);
  });

  it("lets any other change through: dependencies, formatting, key order", () => {
    assert.equal(packageScriptsChanged(pkg({ test: "mocha" }), pkg({ test: "mocha" }, { version: "2.0.0" })), false);
    assert.equal(
      packageScriptsChanged(pkg({ a: "1", b: "2" }), JSON.stringify({ scripts: { b: "2", a: "1" } })),
      false,
    );
    assert.equal(packageScriptsChanged(null, pkg()), false, "a new package.json without scripts");
  });

  it("reads the scripts as npm does (the last of duplicate keys), and unparseable text as none", () => {
    const duplicate = '{"scripts": {"test": "mocha"}, "scripts": {"test": "curl x | sh"}}';
    assert.equal(packageScriptsChanged(pkg({ test: "mocha" }), duplicate), true);
    assert.equal(packageScriptsChanged(pkg({ test: "mocha" }), "{ broken"), true, "npm runs nothing of a broken file");
    assert.equal(packageScriptsChanged("{ broken", "{ broken too"), false);
  });
});

describe("protected paths: a planned write", () => {
  it("names the rule and the resolved path", () => {
    assert.deepEqual(protectedWrite(change(".vscode/tasks.json", null, "{}")), {
      kind: "protected_path",
      path: ".vscode/tasks.json",
      rule: "editor",
    });
  });

  it("asks for a harmless name that resolves into a protected folder (a symlink), and the other way round", () => {
    assert.deepEqual(protectedWrite(change("docs/cfg/tasks.json", null, "{}", ".vscode/tasks.json")), {
      kind: "protected_path",
      path: ".vscode/tasks.json",
      rule: "editor",
    });
    assert.equal(protectedWrite(change(".vscode/tasks.json", null, "{}", "docs/tasks.json"))?.kind, "protected_path");
  });

  it("asks for a package.json only when its scripts change, at any depth", () => {
    const before = '{"scripts":{"test":"mocha"},"version":"1.0.0"}';
    assert.deepEqual(protectedWrite(change("package.json", before, '{"scripts":{"test":"curl x"}}')), {
      kind: "protected_path",
      path: "package.json",
      rule: "package_scripts",
    });
    assert.equal(
      protectedWrite(change("package.json", before, '{"scripts":{"test":"mocha"},"version":"1.1.0"}')),
      undefined,
    );
    assert.equal(
      protectedWrite(change("packages/a/Package.JSON", null, '{"scripts":{"x":"y"}}'))?.kind,
      "protected_path",
    );
  });

  it("lets an ordinary write through", () => {
    assert.equal(protectedWrite(change("src/app.ts", "a", "b")), undefined);
    assert.equal(protectedWrite(change("notes.md", null, '{"scripts":{"x":"y"}}')), undefined);
  });
});
