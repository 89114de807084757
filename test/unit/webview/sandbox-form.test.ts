import assert from "node:assert/strict";
import {
  listText,
  networkChoice,
  readHiddenPaths,
  readHosts,
  saveProblem,
} from "../../../webview/src/lib/sandbox-form";

describe("UI settings pages: the sandbox section", () => {
  it("shows a layer's network as the select's choice, and a host list one per line", () => {
    assert.equal(networkChoice(undefined), "");
    assert.equal(networkChoice("off"), "off");
    assert.equal(networkChoice("on"), "on");
    assert.equal(networkChoice(["a.com"]), "hosts");
    assert.equal(listText(["a.com", "b.org"]), "a.com\nb.org");
    assert.equal(listText(undefined), "");
  });

  it("reads hosts separated by lines, commas or spaces, normalised, and refuses a wildcard in words", () => {
    assert.deepEqual(readHosts("Registry.npmjs.org, github.com\n  api.github.com. "), {
      ok: true,
      value: ["registry.npmjs.org", "github.com", "api.github.com"],
    });
    const wildcard = readHosts("github.com *.npmjs.org");
    assert.equal(wildcard.ok, false);
    assert.match((wildcard as { message: string }).message, /^\*\.npmjs\.org: wildcards .* "on"/);
    assert.match((readHosts(" \n ") as { message: string }).message, /at least one host/);
    assert.equal(readHosts("https://a.com").ok, false);
  });

  it("reads hidden paths one per line; none removes the key; a relative path or / is refused", () => {
    assert.deepEqual(readHiddenPaths("/srv/keys\n\n /home/ana/work secrets \n"), {
      ok: true,
      value: ["/srv/keys", "/home/ana/work secrets"],
    });
    assert.deepEqual(readHiddenPaths("  "), { ok: true, value: null });
    assert.match((readHiddenPaths("/srv/a\nkeys") as { message: string }).message, /^keys: an absolute path/);
    assert.match((readHiddenPaths("/") as { message: string }).message, /root of the file system/);
  });

  it("says the server's first reason when a save is refused, else its message", () => {
    assert.equal(
      saveProblem(Object.assign(new Error("the settings patch is invalid"), { issues: [{ message: "use on" }] })),
      "use on",
    );
    assert.equal(
      saveProblem(new Error("sandbox.hide cannot name the project")),
      "sandbox.hide cannot name the project",
    );
  });
});
