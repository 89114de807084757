// The app against its route table: every key of the tables has a handler and every /api handler has a
// key (a key without one would be a 404 for the client typed by it), and the table is served as an
// OpenAPI document behind the same access check as the rest of /api.
import assert from "node:assert/strict";
import { createApp } from "../../src/server/app";
import { openApiDocument } from "../../src/server/openapi";
import { apiRoutes, downloadRoutes, pageRoutes, streamRoutes, uploadRoutes } from "../../src/shared/api-routes";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** `METHOD /path` of every route express would dispatch to under /api, read from the app's router stack. */
function registeredApiRoutes(s: TestServer): string[] {
  const { app } = createApp(s.runtime, { version: "test" });
  const keys: string[] = [];
  const walk = (stack: any[]) => {
    for (const layer of stack) {
      if (layer.route && String(layer.route.path).startsWith("/api/")) {
        for (const method of Object.keys(layer.route.methods))
          if (method !== "_all") keys.push(`${method.toUpperCase()} ${layer.route.path}`);
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as any).router.stack);
  return keys;
}

describe("the app against its route table", function () {
  let s: TestServer;
  before(async () => (s = await startTestServer()));
  after(() => s?.stop());

  it("registers a handler for every key of every table, and no /api handler without a key", () => {
    const registered = registeredApiRoutes(s);
    const declared = [apiRoutes, streamRoutes, uploadRoutes, pageRoutes, downloadRoutes].flatMap((table) =>
      Object.keys(table),
    );
    assert.deepEqual([...registered].sort(), [...declared].sort());
    assert.equal(new Set(registered).size, registered.length, "each key once");
  });

  it("serves the OpenAPI document to a caller with credentials, and 401 without", async () => {
    const response = await s.api("GET", "/api/openapi.json");
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(await response.json(), JSON.parse(JSON.stringify(openApiDocument("test"))));
    const anonymous = await fetch(`${s.url}/api/openapi.json`);
    assert.equal(anonymous.status, 401);
    assert.equal((await anonymous.json()).error.code, "unauthorized");
  });
});
