// GET /api/chats/:id/export (contract 7.4) on a real server: the chat's path as a markdown or JSON
// download named after its title; an unknown chat 404 and an unknown format 400, in the error shape.
import assert from "node:assert/strict";
import { chatExportSchema } from "../../src/shared/chat-export";
import { startTestServer, type TestServer } from "../helpers/test-server";

describe("chat export", function () {
  this.timeout(30_000);
  let s: TestServer;
  let chatId: string;

  before(async () => {
    s = await startTestServer();
    const project = await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json();
    const chat = await (
      await s.api("POST", `/api/projects/${project.id}/chats`, { title: "Café: the “parser” plan" })
    ).json();
    chatId = chat.id;
    const append = (message: Parameters<TestServer["runtime"]["messages"]["append"]>[1]) =>
      s.runtime.messages.append(chatId, message);
    append({ role: "user", content: "List the files", status: "complete" });
    append({
      role: "assistant",
      content: "",
      status: "complete",
      meta: { turnId: "t1", toolCalls: [{ id: "call_1", name: "shell", arguments: '{"cmd":"ls"}' }] },
    });
    append({
      role: "tool",
      content: "a.ts\n```\nb.ts",
      status: "complete",
      meta: { turnId: "t1", callId: "call_1", name: "shell", ok: true, arguments: { cmd: "ls" } },
    });
    append({ role: "assistant", content: "Two files.", status: "complete", meta: { turnId: "t1" } });
  });
  after(() => s?.stop());

  const exported = (query: string, id = chatId) => s.api("GET", `/api/chats/${id}/export${query}`);

  it("answers markdown as an attachment named after the title", async () => {
    const res = await exported("?format=markdown");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/markdown; charset=utf-8");
    const disposition = res.headers.get("content-disposition")!;
    assert.match(disposition, /^attachment; filename="Caf\? the \?parser\? plan\.md"; filename\*=UTF-8''/);
    assert.ok(disposition.endsWith(`filename*=UTF-8''${encodeURIComponent("Café the “parser” plan.md")}`), disposition);
    const markdown = await res.text();
    assert.match(markdown, /^# Café: the “parser” plan\n/);
    assert.ok(markdown.includes("## You\n\nList the files"));
    assert.ok(markdown.includes('**Tool call** `shell`\n\n```json\n{\n  "cmd": "ls"\n}\n```'));
    assert.ok(markdown.includes("````\na.ts\n```\nb.ts\n````"), "a fence longer than the output's");
    assert.ok(markdown.includes("Two files."));
  });

  it("markdown without a format", async () => {
    const res = await exported("");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-disposition")!, /\.md"/);
  });

  it("answers the JSON document, valid against its schema", async () => {
    const res = await exported("?format=json");
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
    assert.match(res.headers.get("content-disposition")!, /^attachment; filename=".*\.json"/);
    const document = chatExportSchema.parse(await res.json());
    assert.equal(document.chat.id, chatId);
    assert.deepEqual(
      document.messages.map((m) => m.role),
      ["user", "assistant", "tool", "assistant"],
    );
    assert.equal(document.messages[1]!.toolCalls![0]!.name, "shell");
    assert.equal(document.messages[2]!.toolResult!.callId, "call_1");
    assert.equal(document.messages[2]!.content, "a.ts\n```\nb.ts");
  });

  it("404 for an unknown chat and 400 for an unknown format, in the contract's error shape", async () => {
    const missing = await exported("?format=json", "c_nope");
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error.code, "not_found");
    for (const query of ["?format=pdf", "?format=", "?format=JSON", `?format=${"x".repeat(10_000)}`]) {
      const bad = await exported(query);
      assert.equal(bad.status, 400, query.slice(0, 20));
      assert.equal(bad.headers.get("content-disposition"), null, "no file for an error");
      assert.equal((await bad.json()).error.code, "invalid_request");
    }
  });

  it("is described in the OpenAPI document with both media types", async () => {
    const doc = await (await s.api("GET", "/api/openapi.json")).json();
    const operation = doc.paths["/api/chats/{id}/export"].get;
    assert.deepEqual(Object.keys(operation.responses["200"].content).sort(), ["application/json", "text/markdown"]);
    assert.equal(operation.parameters.find((p: { name: string }) => p.name === "format").in, "query");
  });
});
