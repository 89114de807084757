// Writes that a checkout can redirect (contract 7.2) and files a path check cannot see through: a turn
// writes `rv3/authorized_keys`, then `rv3` becomes a symlink to a folder outside the project (as a
// checkout can do); revert must neither write nor delete there, forced or not. And a hard link to a
// file outside the project is never read, searched or written through. Real server, real files.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents } from "../helpers/sse";
import { runFileTool } from "../../src/tools/file-tool";
import { ToolError } from "../../src/tools/tool-error";
import { makeTempDir, removeDir } from "../helpers/temp";

describe("attack: revert through a folder swapped for a symlink", function () {
  this.timeout(60_000);
  let f: ChatFixture;
  let outside: string;

  beforeEach(async () => {
    f = await startChatFixture();
    await f.s.api("PATCH", "/api/settings/app", { toolGates: { file: "allow" } });
    outside = path.join(path.dirname(f.s.projectDir), "home-ssh");
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, "authorized_keys"), "ssh-ed25519 AAAA the-owner\n");
  });
  afterEach(() => f.stop());

  async function writeTurn(chatId: string, command: string): Promise<string> {
    const events = await readEvents(await send(f, chatId, { content: command }));
    const result = events.find((e) => e.event === "tool.result")!.data;
    assert.equal(result.ok, true, JSON.stringify(result));
    return events[0]!.data.turnId;
  }

  const revert = (chatId: string, turnId: string, force: boolean) =>
    f.s.api("POST", `/api/chats/${chatId}/turns/${turnId}/revert`, { force });

  it("answers 409 listing the path, forced or not, and leaves the outside file as it was (a file the turn changed)", async () => {
    const dir = path.join(f.s.projectDir, "rv3");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "authorized_keys"), "old\n");
    const chat = await newChat(f, { modelId: "fake/tools" });
    const turnId = await writeTurn(chat.id, "write: rv3/authorized_keys ssh-ed25519 AAAA the-model");
    fs.rmSync(dir, { recursive: true });
    fs.symlinkSync(outside, dir);
    for (const force of [false, true]) {
      const res = await revert(chat.id, turnId, force);
      assert.equal(res.status, 409);
      const body = await res.json();
      assert.equal(body.error.code, "conflict");
      assert.deepEqual(
        body.error.issues.map((i: { path: string }) => i.path),
        ["rv3/authorized_keys"],
      );
    }
    assert.equal(fs.readFileSync(path.join(outside, "authorized_keys"), "utf8"), "ssh-ed25519 AAAA the-owner\n");
    assert.deepEqual(fs.readdirSync(outside), ["authorized_keys"]);
  });

  it("never deletes the outside file when the turn had created the file (forced revert of a creation)", async () => {
    const chat = await newChat(f, { modelId: "fake/tools" });
    const turnId = await writeTurn(chat.id, "write: rv3/authorized_keys ssh-ed25519 AAAA the-model");
    fs.rmSync(path.join(f.s.projectDir, "rv3"), { recursive: true });
    fs.symlinkSync(outside, path.join(f.s.projectDir, "rv3"));
    assert.equal((await revert(chat.id, turnId, true)).status, 409);
    assert.ok(fs.existsSync(path.join(outside, "authorized_keys")), "the outside file is still there");
    // Put back as it was, the revert goes through: the checkpoints were kept.
    fs.unlinkSync(path.join(f.s.projectDir, "rv3"));
    fs.mkdirSync(path.join(f.s.projectDir, "rv3"));
    fs.writeFileSync(path.join(f.s.projectDir, "rv3", "authorized_keys"), "ssh-ed25519 AAAA the-model");
    assert.deepEqual(await (await revert(chat.id, turnId, false)).json(), {
      restored: [],
      removed: ["rv3/authorized_keys"],
    });
  });

  it("refuses a file the turn wrote that is now a symlink out of the project", async () => {
    fs.writeFileSync(path.join(f.s.projectDir, "note.txt"), "before\n");
    const chat = await newChat(f, { modelId: "fake/tools" });
    const turnId = await writeTurn(chat.id, "write: note.txt after");
    fs.rmSync(path.join(f.s.projectDir, "note.txt"));
    fs.symlinkSync(path.join(outside, "authorized_keys"), path.join(f.s.projectDir, "note.txt"));
    assert.equal((await revert(chat.id, turnId, true)).status, 409);
    assert.equal(fs.readFileSync(path.join(outside, "authorized_keys"), "utf8"), "ssh-ed25519 AAAA the-owner\n");
  });

  it("restores a binary file byte for byte", async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254, 0x80, 10]);
    fs.writeFileSync(path.join(f.s.projectDir, "blob.bin"), bytes);
    const chat = await newChat(f, { modelId: "fake/tools" });
    const turnId = await writeTurn(chat.id, "write: blob.bin now text");
    assert.deepEqual(await (await revert(chat.id, turnId, false)).json(), { restored: ["blob.bin"], removed: [] });
    assert.deepEqual(fs.readFileSync(path.join(f.s.projectDir, "blob.bin")), bytes);
  });
});

describe("attack: a hard link to a file outside the project", function () {
  let base: string;
  let root: string;
  let secret: string;

  before(() => {
    base = makeTempDir();
    root = path.join(base, "project");
    fs.mkdirSync(path.join(root, "node_modules", "pkg"), { recursive: true });
    secret = path.join(base, "id_ed25519");
    fs.writeFileSync(secret, "not a real key: hunter2\n");
    fs.linkSync(secret, path.join(root, "innocent.txt"));
    const store = path.join(base, "store-file.js");
    fs.writeFileSync(store, "module.exports = 42; // hunter3\n");
    fs.linkSync(store, path.join(root, "node_modules", "pkg", "index.js"));
  });
  after(() => removeDir(base));

  const refusal = async (args: Parameters<typeof runFileTool>[0]) => {
    try {
      await runFileTool(args, { root });
    } catch (error) {
      assert.ok(error instanceof ToolError);
      return error.message;
    }
    return assert.fail(`${JSON.stringify(args)} was not refused`);
  };

  it("refuses to read or write it, and search never shows its lines", async () => {
    assert.match(await refusal({ action: "read", path: "innocent.txt" }), /other hard links/);
    assert.match(await refusal({ action: "write", path: "innocent.txt", content: "x" }), /other hard links/);
    assert.match(
      await refusal({ action: "edit", path: "innocent.txt", oldText: "hunter2", newText: "x" }),
      /other hard links/,
    );
    const found = await runFileTool({ action: "search", pattern: "hunter" }, { root });
    assert.doesNotMatch(String(found), /hunter2/);
    assert.equal(fs.readFileSync(secret, "utf8"), "not a real key: hunter2\n");
  });

  it("reads hard-linked files in dependency folders, where package managers put them", async () => {
    assert.match(
      String(await runFileTool({ action: "read", path: "node_modules/pkg/index.js" }, { root })),
      /module\.exports = 42/,
    );
  });
});
