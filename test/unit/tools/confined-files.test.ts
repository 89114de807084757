import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ConfinementError, readConfined, removeConfined, writeConfined } from "../../../src/tools/confined-files";
import { makeTempDir, removeDir } from "../../helpers/temp";

describe("confined files", () => {
  let base: string;
  let root: string;
  let outside: string;
  beforeEach(() => {
    base = makeTempDir();
    root = path.join(base, "project");
    outside = path.join(base, "outside");
    fs.mkdirSync(root);
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, "secret"), "secret");
  });
  afterEach(() => removeDir(base));

  const refused = async (operation: () => Promise<unknown>, pattern: RegExp) => {
    await assert.rejects(
      operation,
      (error: unknown) => error instanceof ConfinementError && pattern.test(error.message),
    );
  };

  it("writes, reads and removes through folders it makes, keeping a file's mode", async () => {
    await writeConfined(root, "a/b/c.txt", Buffer.from("one"));
    assert.equal(fs.readFileSync(path.join(root, "a/b/c.txt"), "utf8"), "one");
    fs.chmodSync(path.join(root, "a/b/c.txt"), 0o600);
    await writeConfined(root, "a/b/c.txt", Buffer.from("two"));
    assert.equal(fs.statSync(path.join(root, "a/b/c.txt")).mode & 0o777, 0o600);
    assert.deepEqual(await readConfined(root, "a/b/c.txt"), { bytes: Buffer.from("two"), links: 1 });
    assert.equal(await readConfined(root, "a/missing/x"), null);
    await removeConfined(root, "a/b/c.txt");
    await removeConfined(root, "a/b/c.txt");
    assert.deepEqual(fs.readdirSync(path.join(root, "a/b")), [], "no temporaries are left");
  });

  it("refuses a link anywhere on the way, and at the last component, without touching what it points to", async () => {
    fs.symlinkSync(outside, path.join(root, "out"));
    fs.symlinkSync(path.join(outside, "secret"), path.join(root, "secret-link"));
    await refused(() => writeConfined(root, "out/secret", Buffer.from("x")), /link or changed/);
    await refused(() => writeConfined(root, "secret-link", Buffer.from("x")), /symbolic link/);
    await refused(() => readConfined(root, "secret-link"), /symbolic link/);
    await refused(() => readConfined(root, "out/secret"), /link or changed/);
    await removeConfined(root, "secret-link");
    assert.equal(fs.existsSync(path.join(root, "secret-link")), false, "the link itself went");
    assert.equal(fs.readFileSync(path.join(outside, "secret"), "utf8"), "secret");
  });

  it("refuses folders where files should be, files over the limit, and paths that are not plain", async () => {
    fs.mkdirSync(path.join(root, "dir"));
    await refused(() => writeConfined(root, "dir", Buffer.from("x")), /not a file/);
    await refused(() => readConfined(root, "dir"), /not a file/);
    fs.writeFileSync(path.join(root, "big"), Buffer.alloc(2 * 1024 * 1024));
    await refused(() => readConfined(root, "big", 1024 * 1024), /larger than 1 MB/);
    for (const bad of ["", "a//b", "../x", "a/./b"])
      await refused(() => writeConfined(root, bad, Buffer.from("x")), /not a path/);
  });
});
