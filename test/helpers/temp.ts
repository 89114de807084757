// Temporary folders for tests, removed after each suite that asks for them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function makeTempDir(prefix = "parley-test-"): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}
