// A `file` write is worked out before the user is asked and written after: what was approved is
// what lands, or nothing does.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { commitWrite, planWrite } from "../../../src/tools/file-tool";
import { ToolError } from "../../../src/tools/tool-error";
import { makeTempDir, removeDir } from "../../helpers/temp";

describe("a planned file write", () => {
  let root: string;
  beforeEach(() => {
    root = fs.realpathSync(makeTempDir());
    fs.writeFileSync(path.join(root, "notes.txt"), "hello world\n");
  });
  afterEach(() => removeDir(root));

  const refused = (promise: Promise<unknown>, pattern: RegExp) =>
    assert.rejects(promise, (error: unknown) => error instanceof ToolError && pattern.test(error.message));

  it("works out an edit without writing, then writes exactly that", async () => {
    const planned = await planWrite({ action: "edit", path: "./notes.txt", oldText: "world", newText: "there" }, root);
    assert.deepEqual(
      { ...planned, before: planned.before?.toString(), after: planned.after.toString() },
      { given: "./notes.txt", rel: "notes.txt", before: "hello world\n", after: "hello there\n" },
    );
    assert.equal(fs.readFileSync(path.join(root, "notes.txt"), "utf8"), "hello world\n", "nothing written yet");
    const recorded: string[] = [];
    const done = await commitWrite(planned, { root, recordWrite: (rel) => void recorded.push(rel) });
    assert.deepEqual(done, { path: "notes.txt", bytesBefore: 12, bytesAfter: 12 });
    assert.equal(fs.readFileSync(path.join(root, "notes.txt"), "utf8"), "hello there\n");
    assert.deepEqual(recorded, ["notes.txt"]);
  });

  it("refuses before anything is asked: a missing file, text not found, a path out of the project or into .git/", async () => {
    await refused(planWrite({ action: "edit", path: "none.txt", oldText: "a", newText: "b" }, root), /does not exist/);
    await refused(planWrite({ action: "edit", path: "notes.txt", oldText: "zzz", newText: "b" }, root), /not found/);
    await refused(planWrite({ action: "write", path: "../x", content: "" }, root), /out of the project/);
    await refused(planWrite({ action: "write", path: ".git/hooks/pre-commit", content: "" }, root), /\.git/);
    await refused(planWrite({ action: "write", path: "x.txt" }, root), /needs `content`/);
  });

  it("writes nothing when the file changed while the call waited", async () => {
    const planned = await planWrite({ action: "write", path: "notes.txt", content: "mine" }, root);
    fs.writeFileSync(path.join(root, "notes.txt"), "the user's edit\n");
    await refused(commitWrite(planned, { root }), /changed since this call read it/);
    assert.equal(fs.readFileSync(path.join(root, "notes.txt"), "utf8"), "the user's edit\n");
  });

  it("writes nothing when a link on the way now leads elsewhere (into .vscode/, say)", async () => {
    fs.mkdirSync(path.join(root, "docs"));
    fs.mkdirSync(path.join(root, ".vscode"));
    fs.symlinkSync("docs", path.join(root, "cfg"));
    const planned = await planWrite({ action: "write", path: "cfg/settings.json", content: "{}" }, root);
    assert.equal(planned.rel, "docs/settings.json");
    fs.unlinkSync(path.join(root, "cfg"));
    fs.symlinkSync(".vscode", path.join(root, "cfg"));
    await refused(commitWrite(planned, { root }), /now leads to "\.vscode\/settings\.json"/);
    assert.deepEqual(fs.readdirSync(path.join(root, ".vscode")), []);
  });
});
