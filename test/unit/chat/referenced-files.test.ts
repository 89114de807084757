import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { checkRelativePath, fileMessageText, readExistingFiles } from "../../../src/chat/referenced-files";
import { makeTempDir, removeDir } from "../../helpers/temp";
import { audioFormat } from "../../../src/gateway/transcription";

describe("referenced path checks", () => {
  it("accepts and normalises paths inside the project", () => {
    assert.deepEqual(checkRelativePath("src/./a.ts"), { ok: true, path: "src/a.ts" });
    assert.deepEqual(checkRelativePath("src\\win\\b.ts"), { ok: true, path: "src/win/b.ts" });
    assert.deepEqual(checkRelativePath("a/../b.ts"), { ok: true, path: "b.ts" });
  });

  it("refuses escapes, absolute paths, drive letters, NUL and empty names", () => {
    for (const bad of ["../x", "a/../../x", "/etc/passwd", "C:\\x", "c:/x", "a\0b", ".", "a/.."]) {
      assert.equal(checkRelativePath(bad).ok, false, bad);
    }
  });

  it("fences file content so the fence cannot be closed from inside", () => {
    assert.equal(fileMessageText({ path: "a.md", content: "```js\nx\n```" }), "File: a.md\n````\n```js\nx\n```\n````");
  });
});

describe("agent files read on every turn", () => {
  let dir: string;
  beforeEach(() => (dir = makeTempDir("parley-agent-files-")));
  afterEach(() => removeDir(dir));

  it("gives a changed file's new text, and none once it is gone or is no longer text", async () => {
    const file = path.join(dir, "AGENTS.md");
    const read = async () => (await readExistingFiles(dir, ["AGENTS.md"])).map((f) => f.content);
    fs.writeFileSync(file, "first");
    assert.deepEqual(await read(), ["first"]);
    assert.deepEqual(await read(), ["first"]);
    // Same size, written again: the modification time (in nanoseconds) tells the change.
    fs.writeFileSync(file, "again");
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    assert.deepEqual(await read(), ["again"]);
    // Replaced by a new file (a new inode), as editors and git do.
    fs.writeFileSync(`${file}.new`, "third version");
    fs.renameSync(`${file}.new`, file);
    assert.deepEqual(await read(), ["third version"]);
    fs.writeFileSync(file, "nul\0byte");
    assert.deepEqual(await read(), []);
    fs.rmSync(file);
    assert.deepEqual(await read(), []);
  });
});

describe("dictation audio", () => {
  it("names the audio format from the type, then the file name", () => {
    assert.equal(audioFormat({ mimeType: "audio/mpeg", fileName: "x" }), "mp3");
    assert.equal(audioFormat({ mimeType: "audio/webm;codecs=opus", fileName: "x" }), "webm");
    assert.equal(audioFormat({ mimeType: "application/octet-stream", fileName: "clip.ogg" }), "ogg");
  });
});
