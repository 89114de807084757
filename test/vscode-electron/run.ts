// The @vscode/test-electron suite: downloads a desktop VS Code and runs suite/index.cjs inside
// its extension host. For machines that can download VS Code (this project's CI cannot; its
// real-editor tests use code-server instead, see test/e2e/vscode.test.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runTests } from "@vscode/test-electron";

const root = path.resolve(".");
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "parley-electron-"));
fs.writeFileSync(path.join(workspace, "README.md"), "# Workspace\n");
await runTests({
  extensionDevelopmentPath: root,
  extensionTestsPath: path.join(root, "test/vscode-electron/suite/index.cjs"),
  launchArgs: [workspace, "--disable-extensions", "--disable-workspace-trust"],
  extensionTestsEnv: { APP_HOME: path.join(workspace, ".parley-home") },
});
