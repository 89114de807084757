// GET /api/search (contract 7.4) on a real server and store: matches in message text and tool output,
// best first, marked snippets, one project or all, and every bad query answered (400 or []), never 500.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { SearchHit } from "../../src/shared/search";
import { startTestServer, type TestServer } from "../helpers/test-server";

describe("search across chats", function () {
  this.timeout(30_000);
  let s: TestServer;
  let projectId: string;
  let otherDir: string;
  const chats: Record<string, string> = {};

  before(async () => {
    s = await startTestServer();
    projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
    otherDir = path.join(path.dirname(s.projectDir), "other");
    fs.mkdirSync(otherDir);
    const otherId = (await (await s.api("POST", "/api/projects", { dir: otherDir })).json()).id;
    const chat = async (
      project: string,
      title: string,
      messages: [role: "user" | "assistant" | "tool", text: string][],
    ) => {
      const created = await (await s.api("POST", `/api/projects/${project}/chats`, { title })).json();
      for (const [role, content] of messages)
        s.runtime.messages.append(created.id, {
          role,
          content,
          status: "complete",
          ...(role === "tool" ? { meta: { callId: "k", name: "shell", ok: true } } : {}),
        });
      chats[title] = created.id;
    };
    await chat(projectId, "Parser work", [
      ["user", "Why does the tokenizer drop the last token?"],
      ["assistant", "The tokenizer stops early: the tokenizer loop ends at length - 1, so the tokenizer drops it."],
      ["tool", '{"exitCode":1,"output":"FAIL parser.test.ts: expected 3 tokens, got 2"}'],
    ]);
    await chat(projectId, "Release notes", [["user", "Write release notes and mention the tokenizer once."]]);
    await chat(otherId, "Other project", [["user", "The tokenizer of the other project, with <b>markup</b> & more."]]);
  });
  after(() => s?.stop());

  const search = async (query: Record<string, string>) => {
    const res = await s.api("GET", `/api/search?${new URLSearchParams(query)}`);
    return { status: res.status, body: await res.json() };
  };
  const hits = async (query: Record<string, string>): Promise<SearchHit[]> => {
    const { status, body } = await search(query);
    assert.equal(status, 200, JSON.stringify(body));
    return body as SearchHit[];
  };

  it("finds messages of every project, best match first, with the chat's title, the message and its time", async () => {
    const found = await hits({ q: "tokenizer" });
    assert.equal(found.length, 4);
    assert.equal(found[0]!.chatId, chats["Parser work"], "three mentions rank first");
    const stored = s.runtime.messages.byId(found[0]!.messageId)!;
    assert.equal(found[0]!.at, stored.createdAt);
    assert.equal(found[0]!.title, "Parser work");
    assert.match(found[0]!.snippet, /<mark>tokenizer<\/mark>/);
  });

  it("searches tool output too", async () => {
    const [hit] = await hits({ q: "FAIL parser" });
    assert.equal(hit!.chatId, chats["Parser work"]);
    assert.equal(s.runtime.messages.byId(hit!.messageId)!.role, "tool");
  });

  it("keeps to one project with projectDir, and finds nothing in a folder that is not a project", async () => {
    const own = await hits({ q: "tokenizer", projectDir: s.projectDir });
    assert.equal(own.length, 3);
    assert.ok(own.every((hit) => hit.chatId !== chats["Other project"]));
    const other = await hits({ q: "tokenizer", projectDir: otherDir });
    assert.deepEqual(
      other.map((hit) => hit.chatId),
      [chats["Other project"]],
    );
    const unregistered = path.join(path.dirname(s.projectDir), "unregistered");
    fs.mkdirSync(unregistered);
    assert.deepEqual(await hits({ q: "tokenizer", projectDir: unregistered }), []);
  });

  it("takes the last word as a prefix while it is typed, and limit", async () => {
    assert.equal((await hits({ q: "tokeni" })).length, 4);
    assert.equal((await hits({ q: "tokeni", limit: "2" })).length, 2);
  });

  it("escapes the message's own markup in the snippet", async () => {
    const [hit] = await hits({ q: "markup" });
    assert.equal(hit!.snippet, "…of the other project, with &lt;b&gt;<mark>markup</mark>&lt;/b&gt; &amp; more.");
  });

  it("searches FTS5 syntax as text: quotes, stars, NEAR(, AND, a lone minus", async () => {
    for (const q of [
      '"',
      '"tokenizer',
      "tokenizer*",
      "NEAR(tokenizer",
      "tokenizer AND",
      "-",
      "*",
      "(",
      "a:b",
      "^x",
      "\0",
    ]) {
      const { status, body } = await search({ q });
      assert.equal(status, 200, `${JSON.stringify(q)}: ${JSON.stringify(body)}`);
      assert.ok(Array.isArray(body));
    }
    assert.equal((await hits({ q: '"tokenizer"' })).length, 4, "quotes around a word are text around it");
    assert.equal((await hits({ q: "tokenizer AND" })).length, 1, "AND is the word `and`");
  });

  it("answers [] to an empty query and 400 to a query over 1,000 characters, a missing one or a bad limit", async () => {
    assert.deepEqual(await hits({ q: "" }), []);
    assert.deepEqual(await hits({ q: "   " }), []);
    assert.equal((await hits({ q: "x".repeat(1_000) })).length, 0, "1,000 characters is still a query");
    for (const query of [
      { q: "x".repeat(10_000) },
      { q: "a ".repeat(501) },
      {},
      { q: "a", limit: "0" },
      { q: "a", limit: "101" },
      { q: "a", limit: "ten" },
    ]) {
      const { status, body } = await search(query as Record<string, string>);
      assert.equal(status, 400, JSON.stringify(query).slice(0, 60));
      assert.equal(body.error.code, "invalid_request");
    }
    const relative = await search({ q: "a", projectDir: "relative/dir" });
    assert.equal(relative.status, 400);
  });

  it("finds a word that starts a line of a tool's output (stored as JSON, where a line break is \\n)", async () => {
    const created = await (await s.api("POST", `/api/projects/${projectId}/chats`, { title: "Build log" })).json();
    const output = JSON.stringify({ exitCode: 2, output: "compiling\nunexpected token\n\tsemicolon\n" });
    const stored = s.runtime.messages.append(created.id, {
      role: "tool",
      content: output,
      status: "complete",
      meta: { callId: "b", name: "shell", ok: false },
    });
    for (const word of ["unexpected", "semicolon", "compiling"]) {
      const found = await hits({ q: word });
      assert.deepEqual(
        found.map((hit) => hit.messageId),
        [stored.id],
        word,
      );
    }
    // An edited output is searched as it is now.
    s.runtime.messages.update(stored.id, { content: JSON.stringify({ exitCode: 0, output: "ok\nfinished" }) });
    assert.deepEqual(await hits({ q: "unexpected" }), []);
    assert.equal((await hits({ q: "finished" }))[0]?.messageId, stored.id);
  });

  it("forgets a deleted chat's messages", async () => {
    const created = await (await s.api("POST", `/api/projects/${projectId}/chats`, { title: "Short-lived" })).json();
    s.runtime.messages.append(created.id, { role: "user", content: "ephemeral zebra", status: "complete" });
    assert.equal((await hits({ q: "zebra" })).length, 1);
    assert.equal((await s.api("DELETE", `/api/chats/${created.id}`)).status, 204);
    assert.deepEqual(await hits({ q: "zebra" }), []);
  });
});
