// Runs inside the desktop VS Code's extension host (started by ../run.ts).
const assert = require("node:assert/strict");
const vscode = require("vscode");
const Mocha = require("mocha");

exports.run = async function run() {
  const mocha = new Mocha({ ui: "bdd", timeout: 60_000 });
  mocha.suite.emit("pre-require", global, "parley", mocha);
  describe("Parley extension (desktop VS Code)", () => {
    it("activates and registers every command", async () => {
      const extension = vscode.extensions.getExtension("parley.parley");
      assert.ok(extension, "the extension is installed");
      await extension.activate();
      const commands = await vscode.commands.getCommands(true);
      for (const id of [
        "signIn",
        "manageAccounts",
        "setApiKey",
        "newChat",
        "newChatWithPrompt",
        "managePrompts",
        "openInBrowser",
        "copyServerUrl",
      ]) {
        assert.ok(commands.includes(`parley.${id}`), id);
      }
    });

    it("copies a loopback server URL that answers /api/health", async () => {
      await vscode.commands.executeCommand("parley.copyServerUrl");
      const url = await vscode.env.clipboard.readText();
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await (await fetch(`${url}/api/health`)).json();
      assert.equal(health.ok, true);
    });
  });
  await new Promise((resolve, reject) =>
    mocha.run((failures) => (failures ? reject(new Error(`${failures} failed`)) : resolve())),
  );
};
