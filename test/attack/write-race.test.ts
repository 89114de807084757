// The symlink-swap race against writes (contract 7.2): a real second process flips a project folder
// between a real folder and a symlink to an outside folder as fast as it can, while the file tool
// writes and edits into it and the confined writer behind reverts writes and removes there. 10,000
// generated tries; not one byte may land outside, and the outside file may never change or vanish.
import assert from "node:assert/strict";
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { removeConfined, writeConfined, ConfinementError } from "../../src/tools/confined-files";
import { runFileTool } from "../../src/tools/file-tool";
import { ToolError } from "../../src/tools/tool-error";
import { removeDir } from "../helpers/temp";

const FLIPPER = path.resolve("test/fixtures/attack/folder-flipper.mjs");

/** A tmpfs where there is one (fsync is free there, so 10,000 writes take seconds), else the temp folder. */
function scratch(): string {
  const base = fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
  return fs.realpathSync(fs.mkdtempSync(path.join(base, "parley-race-")));
}

describe("attack: a folder flipped to a symlink while Parley writes into it", function () {
  this.timeout(180_000);
  let base: string;
  let root: string;
  let outside: string;
  let flipper: ChildProcess;

  before(async () => {
    base = scratch();
    root = path.join(base, "project");
    outside = path.join(base, "outside");
    fs.mkdirSync(root);
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, "victim.txt"), "do not touch\n");
    flipper = fork(FLIPPER, [root, outside], { stdio: "ignore" });
    await new Promise<void>((resolve, reject) => {
      flipper.once("message", () => resolve());
      flipper.once("exit", (code) => reject(new Error(`the flipper exited ${code}`)));
    });
  });

  after(async () => {
    if (flipper.exitCode === null) {
      const exited = new Promise((resolve) => flipper.once("exit", resolve));
      flipper.kill("SIGKILL");
      await exited;
    }
    removeDir(base);
  });

  const outsideIsUntouched = () => {
    assert.deepEqual(fs.readdirSync(outside), ["victim.txt"]);
    assert.equal(fs.readFileSync(path.join(outside, "victim.txt"), "utf8"), "do not touch\n");
  };

  const name = fc.constantFrom("victim.txt", "a.txt", "authorized_keys", "deep/nested.txt", "victim.txt.tmp");
  const operation = fc.oneof(
    fc.record({ kind: fc.constant("write" as const), name, content: fc.string({ maxLength: 40 }) }),
    fc.record({ kind: fc.constant("edit" as const), name, content: fc.string({ maxLength: 10 }) }),
    fc.record({ kind: fc.constant("revert-write" as const), name, content: fc.string({ maxLength: 40 }) }),
    fc.record({ kind: fc.constant("revert-remove" as const), name, content: fc.constant("") }),
  );

  async function run(op: { kind: string; name: string; content: string }): Promise<void> {
    const rel = `flip/${op.name}`;
    try {
      if (op.kind === "write") await runFileTool({ action: "write", path: rel, content: op.content }, { root });
      else if (op.kind === "edit")
        await runFileTool({ action: "edit", path: rel, oldText: "do not touch", newText: op.content || "x" }, { root });
      else if (op.kind === "revert-write") await writeConfined(root, rel, Buffer.from(op.content));
      else await removeConfined(root, rel);
    } catch (error) {
      // Refusals are the expected outcome of most races; anything else is a defect.
      if (error instanceof ToolError || error instanceof ConfinementError) return;
      const code = (error as NodeJS.ErrnoException).code;
      // The confined writer itself may meet the folder vanishing between two of its steps.
      if (
        op.kind.startsWith("revert") &&
        (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP" || code === "EEXIST")
      )
        return;
      throw error;
    }
  }

  it("never writes, edits or removes anything outside the project in 10,000 tries", async () => {
    let landed = 0;
    await fc.assert(
      fc.asyncProperty(operation, async (op) => {
        await run(op);
        outsideIsUntouched();
        landed++;
      }),
      { numRuns: 10_000 },
    );
    assert.equal(landed, 10_000);
    assert.equal(flipper.exitCode, null, "the flipper kept flipping throughout");
    // The race was real: some writes went through into the real folder (now in the graveyard).
    const kept = fs.readdirSync(path.join(root, "graveyard")).length + (fs.existsSync(path.join(root, "flip")) ? 1 : 0);
    assert.ok(kept > 0);
  });
});
