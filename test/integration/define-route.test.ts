// The route helper on its own, with handlers of the test's making on a bare express app: method and path
// from the key, query and body parsed with the table's schemas (400 `invalid_request` with the zod
// issues, before the handler runs), 200/201/204 as the handler and the table say, a `before` check
// that wins over a malformed request, and a body written a part at a time.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { AppError } from "../../src/platform/app-error";
import { created, jsonParts, route, streamRoute } from "../../src/platform/http/define-route";
import { errorHandler } from "../../src/server/middleware/errors";
import { routeRouter } from "../../src/platform/http/router";

describe("route helper", function () {
  let server: http.Server;
  let url: string;
  const ran: string[] = [];

  before(async () => {
    const router = routeRouter();
    route(router, "POST /api/prompts", ({ body }) => {
      ran.push("create prompt");
      return created({
        ...body.prompt,
        id: "p1",
        scope: body.scope,
        icon: "code",
        showOnProjectCard: false,
        preset: null,
        createdAt: "",
        updatedAt: "",
      } as never);
    });
    route(router, "PUT /api/prompts/:id", ({ params, body }) => ({ id: params.id, title: body.prompt.title }) as never);
    route(router, "POST /api/chats/:id/approvals/:call", ({ params }) => {
      ran.push(`approve ${params.id} ${params.call}`);
    });
    route(router, "GET /api/mentions/search", ({ query }) => [
      { category: "files" as const, label: query.q, detail: String(query.limit), insertText: "", highlights: [] },
    ]);
    route(router, "GET /api/providers/gateway/models", ({ query }) => [{ id: query.slice } as never]);
    route(router, "POST /api/projects/:id/tags/scan", async () => {
      async function* parts() {
        yield '{"scannedAt":"now",';
        yield Buffer.from('"files":[]}');
      }
      return jsonParts(parts());
    });
    route(
      router,
      "POST /api/access/login/passkey/verify",
      () => {
        ran.push("verify");
      },
      {
        before: (req) => {
          if (req.headers["x-locked"]) throw new AppError("rate_limited", "locked");
        },
      },
    );
    streamRoute(router, "POST /api/chats/:id/messages/stream", ({ params, body, res }) => {
      res
        .status(200)
        .type("text/event-stream")
        .end(`event: echo\ndata: ${JSON.stringify({ id: params.id, content: body.content })}\n\n`);
    });
    const app = express();
    app.use(express.json());
    app.use(router);
    app.use(errorHandler(() => {}));
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (ran.length = 0));

  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("answers 201 with the body of created(), and the parsed body reaches the handler", async () => {
    const response = await send("POST", "/api/prompts", { scope: "app", prompt: { title: "T", content: "C" } });
    assert.equal(response.status, 201);
    assert.equal((await response.json()).title, "T");
    assert.deepEqual(ran, ["create prompt"]);
  });

  it("refuses a body its schema refuses with 400 invalid_request and the zod issues, before the handler runs", async () => {
    const response = await send("POST", "/api/prompts", { scope: "nowhere", prompt: { title: "T", content: "C" } });
    assert.equal(response.status, 400);
    const { error } = await response.json();
    assert.equal(error.code, "invalid_request");
    assert.match(error.message, /^the request body is invalid: scope: /);
    assert.deepEqual(error.issues[0].path, ["scope"]);
    assert.deepEqual(ran, []);
    assert.equal((await send("POST", "/api/prompts")).status, 400, "a required body that is missing");
  });

  it("parses the query with its schema: defaults and coercion in, 400 naming the query out", async () => {
    assert.deepEqual(await (await send("GET", "/api/providers/gateway/models")).json(), [{ id: "text" }]);
    const rows = await (await send("GET", "/api/mentions/search?projectDir=/x&q=ab&limit=7")).json();
    assert.deepEqual([rows[0].label, rows[0].detail], ["ab", "7"]);
    const refused = await send("GET", "/api/mentions/search?q=ab");
    assert.equal(refused.status, 400);
    const { error } = await refused.json();
    assert.match(error.message, /^the query is invalid: projectDir: /);
    assert.deepEqual(error.issues[0].path, ["projectDir"]);
  });

  it("fills path parameters by their names in the key, and answers 204 for a route without content", async () => {
    const response = await send("POST", "/api/chats/c1/approvals/call_9", { decision: "allow" });
    assert.equal(response.status, 204);
    assert.equal(await response.text(), "");
    assert.deepEqual(ran, ["approve c1 call_9"]);
    assert.deepEqual(
      await (await send("PUT", "/api/prompts/p7", { scope: "app", prompt: { title: "New", content: "C" } })).json(),
      { id: "p7", title: "New" },
    );
  });

  it("registers the key's method and path only, spelled as the table spells it", async () => {
    assert.equal((await send("GET", "/api/chats/c1/approvals/call_9")).status, 404);
    assert.equal(
      (await send("POST", "/api/chats/c1/approvals/call_9/", { decision: "allow" })).status,
      404,
      "strict routing",
    );
    assert.equal(
      (await send("POST", "/API/chats/c1/approvals/call_9", { decision: "allow" })).status,
      404,
      "case-sensitive routing",
    );
  });

  it("runs `before` ahead of parsing, so its refusal wins over a malformed body", async () => {
    const locked = await send(
      "POST",
      "/api/access/login/passkey/verify",
      { response: { id: "x" } },
      { "x-locked": "1" },
    );
    assert.equal(locked.status, 429);
    assert.equal((await send("POST", "/api/access/login/passkey/verify", { response: { id: "x" } })).status, 400);
    assert.deepEqual(ran, []);
  });

  it("writes a body given as parts, as JSON", async () => {
    const response = await send("POST", "/api/projects/p1/tags/scan");
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(await response.json(), { scannedAt: "now", files: [] });
  });

  it("parses a stream route's body and leaves the answer to its handler", async () => {
    const response = await send("POST", "/api/chats/c2/messages/stream", { content: "hi" });
    assert.equal(await response.text(), 'event: echo\ndata: {"id":"c2","content":"hi"}\n\n');
    assert.equal((await send("POST", "/api/chats/c2/messages/stream", { content: "" })).status, 400);
  });
});
