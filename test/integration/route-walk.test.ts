// Every registered route, in every spelling a lenient router might accept, without credentials:
// 401 or 404, never a 2xx (issue: `/API/projects` once answered 200 with no token).
import assert from "node:assert/strict";
import http from "node:http";
import { createApp } from "../../src/server/app";
import { isPublicApiRoute } from "../../src/server/middleware/access";
import { startTestServer, type TestServer } from "../helpers/test-server";

type Route = { method: string; path: string };

/** The routes express would dispatch to, read from the app's own router stack. */
function registeredRoutes(s: TestServer): Route[] {
  const { app } = createApp(s.runtime, { version: "test" });
  const routes: Route[] = [];
  const walk = (stack: any[]) => {
    for (const layer of stack) {
      if (layer.route) {
        if (!String(layer.route.path).startsWith("/api/")) continue; // the web UI page is public by design
        for (const method of Object.keys(layer.route.methods))
          routes.push({ method: method.toUpperCase(), path: layer.route.path });
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as any).router.stack);
  return routes;
}

/** A concrete path for a route pattern: each `:param` becomes a plausible value. */
function concrete(pattern: string): string {
  return pattern.replace(/:(\w+)/g, (_m, name: string) => (name === "id" ? "p_x" : `x-${name}`));
}

function spellings(path: string): string[] {
  const encodeFirst = (p: string) =>
    p.replace(/^\/api\/(.)/, (_m, c: string) => `/api/%${c.charCodeAt(0).toString(16)}`);
  return [
    path,
    path.toUpperCase(),
    path.replace("/api/", "/Api/"),
    path.replace("/api/", "/aPI/"),
    `${path}/`,
    `/${path}`,
    path.replace("/api/", "/api//"),
    path.replace(/^\/api/, "/%61pi"),
    path.replace(/^\/api/, "/%41PI"),
    encodeFirst(path),
    path.replace(/^\/api/, "/%2561pi"),
  ];
}

function raw(url: string, method: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = method === "GET" || method === "HEAD" ? undefined : "{}";
    const headers: Record<string, string> = body
      ? { "content-type": "application/json", "content-length": String(body.length) }
      : {};
    const req = http.request(url, { method, path, headers }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("route walk without credentials", function () {
  this.timeout(120_000);
  let s: TestServer;
  before(async () => (s = await startTestServer()));
  after(() => s.stop());

  it("finds every API route of the app", () => {
    const routes = registeredRoutes(s);
    assert.ok(routes.length >= 30, `found ${routes.length} routes`);
    assert.ok(routes.some((r) => r.method === "POST" && r.path === "/api/chats/:id/messages/stream"));
  });

  it("answers 401 or 404 to every route in every spelling, never 2xx", async () => {
    let tried = 0;
    for (const route of registeredRoutes(s)) {
      for (const spelling of spellings(concrete(route.path))) {
        // Only the canonical spelling of a public route is open.
        if (spelling === concrete(route.path) && isPublicApiRoute(route.method, spelling)) continue;
        const { status, body } = await raw(s.url, route.method, spelling).catch((error) => {
          throw new Error(`${route.method} ${spelling}: ${(error as Error).message}`);
        });
        tried++;
        assert.ok(status === 401 || status === 404, `${route.method} ${spelling} answered ${status}`);
        if (route.method !== "HEAD")
          assert.ok(
            ["unauthorized", "not_found"].includes(JSON.parse(body).error.code),
            `${route.method} ${spelling}: ${body}`,
          );
      }
    }
    assert.ok(tried > 300, `tried ${tried} requests`);
  });

  it("cannot run the reported chain: register /, create a chat, stream /etc/shadow", async () => {
    for (const path of ["/API/projects", "/Api/projects", "//api/projects", "/%61pi/projects", "/api/projects/"]) {
      const res = await fetch(`${s.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ dir: "/" }),
      });
      assert.ok([401, 404].includes(res.status), `${path}: ${res.status}`);
    }
    assert.ok(!s.runtime.projects.list().some((p) => p.dir === "/"), "/ was never registered");
  });
});
