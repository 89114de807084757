import assert from "node:assert/strict";
import { checkRelativePath, fileMessageText } from "../../../src/chat/referenced-files";
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

describe("dictation audio", () => {
  it("names the audio format from the type, then the file name", () => {
    assert.equal(audioFormat({ mimeType: "audio/mpeg", fileName: "x" }), "mp3");
    assert.equal(audioFormat({ mimeType: "audio/webm;codecs=opus", fileName: "x" }), "webm");
    assert.equal(audioFormat({ mimeType: "application/octet-stream", fileName: "clip.ogg" }), "ogg");
  });
});
