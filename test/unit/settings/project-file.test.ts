import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { readProjectFile, writeProjectFile } from "../../../src/settings/project-file";
import { makeTempDir, removeDir } from "../../helpers/temp";

describe("project settings file", () => {
  let dir: string;
  beforeEach(() => (dir = makeTempDir()));
  afterEach(() => removeDir(dir));
  const write = (text: string) => fs.writeFileSync(path.join(dir, ".app.json"), text);

  it("reports a missing file as missing and an empty one as {}", async () => {
    assert.deepEqual(await readProjectFile(dir), { state: "missing" });
    write("  \n");
    assert.deepEqual(await readProjectFile(dir), { state: "ok", value: {} });
  });

  it("reports garbage and non-objects as corrupt with a reason", async () => {
    for (const text of ["{oops", "[]", "3", "null"]) {
      write(text);
      const read = await readProjectFile(dir);
      assert.equal(read.state, "corrupt", text);
      assert.ok(read.state === "corrupt" && read.error.includes(".app.json"));
      assert.ok(read.state === "corrupt" && !read.error.includes(dir), "the message does not echo the path");
    }
  });

  it("writes two-space JSON with a newline and keeps unknown keys", async () => {
    await writeProjectFile(dir, { name: "P", custom: { mine: [1] } });
    assert.equal(
      fs.readFileSync(path.join(dir, ".app.json"), "utf8"),
      '{\n  "name": "P",\n  "custom": {\n    "mine": [\n      1\n    ]\n  }\n}\n',
    );
  });
});
