import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { removeStaleTemps, TEMP_SUFFIX, writeFileAtomic } from "../../../src/platform/atomic-write";
import { makeTempDir, removeDir } from "../../helpers/temp";

describe("atomic file writes", () => {
  let dir: string;
  beforeEach(() => (dir = makeTempDir()));
  afterEach(() => removeDir(dir));

  it("replaces the content and leaves no temporary file behind", async () => {
    const file = path.join(dir, ".app.json");
    fs.writeFileSync(file, "old");
    await writeFileAtomic(file, "new");
    assert.equal(fs.readFileSync(file, "utf8"), "new");
    assert.deepEqual(fs.readdirSync(dir), [".app.json"]);
  });

  it("keeps the mode of the file it replaces, or uses the one asked for", async () => {
    const file = path.join(dir, "f");
    fs.writeFileSync(file, "x", { mode: 0o640 });
    fs.chmodSync(file, 0o640);
    await writeFileAtomic(file, "y");
    assert.equal(fs.statSync(file).mode & 0o777, 0o640);
    const secret = path.join(dir, "s");
    await writeFileAtomic(secret, "z", 0o600);
    assert.equal(fs.statSync(secret).mode & 0o777, 0o600);
  });

  it("leaves the original untouched and cleans up when the rename fails", async () => {
    const target = path.join(dir, "target");
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, "keep"), "data");
    await assert.rejects(writeFileAtomic(target, "would replace a folder"));
    assert.equal(fs.readFileSync(path.join(target, "keep"), "utf8"), "data");
    assert.deepEqual(fs.readdirSync(dir), ["target"]);
  });

  it("removes stale temporaries of a killed writer but not fresh ones or other files", async () => {
    const file = path.join(dir, ".app.json");
    const stale = path.join(dir, `.app.json.aaaa${TEMP_SUFFIX}`);
    const fresh = path.join(dir, `.app.json.bbbb${TEMP_SUFFIX}`);
    const other = path.join(dir, "notes.txt");
    for (const f of [stale, fresh, other]) fs.writeFileSync(f, "x");
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(stale, old, old);
    await removeStaleTemps(file);
    assert.deepEqual(fs.readdirSync(dir).sort(), [path.basename(fresh), "notes.txt"].sort());
  });
});
