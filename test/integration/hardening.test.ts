// Smaller hardening found by attacking the server: Host values that are not a host, bodies that are not
// JSON, oversized headers, absurd upstream numbers, stale temporaries, an old Node.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { startTestServer, projectQuery, type TestServer } from "../helpers/test-server";
import { CLI } from "../helpers/cli-process";
import { readEvents } from "../helpers/sse";
import { unsupportedNodeMessage } from "../../src/platform/node-version";

function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Bytes straight onto a socket, for requests that no HTTP client would send. */
function rawSocket(url: string, request: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () => socket.end(request));
    let data = "";
    socket.on("data", (chunk) => (data += chunk));
    socket.on("end", () => resolve(data));
    socket.on("error", reject);
  });
}

describe("hardening", () => {
  let s: TestServer;
  beforeEach(async () => (s = await startTestServer()));
  afterEach(() => s.stop());

  it("refuses Host values that are not exactly a host and an optional port", async () => {
    const port = new URL(s.url).port;
    const auth = { authorization: `Bearer ${s.token}` };
    for (const host of [
      `127.0.0.1:${port}@evil.com`,
      "[::1]evil.com",
      "evil.localhost",
      `localhost:${port}/x`,
      "127.0.0.1.evil.com",
      "127.0.0.1:99999",
    ]) {
      const res = await raw(`${s.url}/api/projects`, { headers: { ...auth, host } });
      assert.equal(res.status, 403, host);
      assert.equal(JSON.parse(res.body).error.code, "forbidden");
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, "LOCALHOST"]) {
      assert.equal((await raw(`${s.url}/api/projects`, { headers: { ...auth, host } })).status, 200, host);
    }
    await s.api("PATCH", "/api/settings/app", { allowedHosts: ["app.localhost"] });
    assert.equal(
      (await raw(`${s.url}/api/projects`, { headers: { ...auth, host: `app.localhost:${port}` } })).status,
      200,
    );
  });

  it("accepts state changes only as JSON (415 otherwise), and bodiless ones without a type", async () => {
    const auth = { authorization: `Bearer ${s.token}` };
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]) {
      const res = await raw(`${s.url}/api/settings/app`, {
        method: "PATCH",
        headers: { ...auth, ...(type ? { "content-type": type } : {}) },
        body: '{"tags":["x"]}',
      });
      assert.equal(res.status, 415, type);
      assert.equal(JSON.parse(res.body).error.code, "unsupported_media_type");
    }
    assert.deepEqual(s.runtime.appStore.read(), {}, "nothing was written");
    assert.equal(
      (
        await raw(`${s.url}/api/settings/app`, {
          method: "PATCH",
          headers: { ...auth, "content-type": "application/json; charset=utf-8" },
          body: '{"tags":["x"]}',
        })
      ).status,
      200,
    );
    // A POST without a body (cancel, restart) needs no content type.
    const project = await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json();
    const chat = await (await s.api("POST", `/api/projects/${project.id}/chats`, {})).json();
    assert.equal((await raw(`${s.url}/api/chats/${chat.id}/cancel`, { method: "POST", headers: auth })).status, 204);
  });

  it("answers oversized headers and garbage request lines with the contract's error body", async () => {
    const big = await rawSocket(
      s.url,
      `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(40_000)}\r\n\r\n`,
    );
    assert.match(big, /^HTTP\/1\.1 431 /);
    assert.deepEqual(JSON.parse(big.slice(big.indexOf("\r\n\r\n") + 4)).error.code, "payload_too_large");
    const garbage = await rawSocket(s.url, "NOT HTTP AT ALL\r\n\r\n");
    assert.match(garbage, /^HTTP\/1\.1 400 /);
    assert.equal(JSON.parse(garbage.slice(garbage.indexOf("\r\n\r\n") + 4)).error.code, "invalid_request");
    assert.equal((await fetch(`${s.url}/api/health`)).status, 200, "the server is still up");
  });

  it("removes stale .app.json temporaries whenever a project is opened or written", async () => {
    const stale = (name: string) => {
      const file = path.join(s.projectDir, name);
      fs.writeFileSync(file, "{}");
      const old = new Date(Date.now() - 10 * 60_000);
      fs.utimesSync(file, old, old);
      return file;
    };
    const first = stale(".app.json.0a1b2c3d4e5f.parley-tmp");
    const fresh = path.join(s.projectDir, ".app.json.ffffffffffff.parley-tmp");
    fs.writeFileSync(fresh, "{}");
    const other = stale("notes.parley-tmp.txt");
    await s.api("POST", "/api/projects", { dir: s.projectDir });
    assert.ok(!fs.existsSync(first), "opened: the stale temporary is gone");
    assert.ok(fs.existsSync(fresh), "a temporary still being written (young) is left alone");
    assert.ok(fs.existsSync(other), "files that are not our temporaries are never touched");
    const second = stale(".app.json.999999999999.parley-tmp");
    assert.equal(
      (await s.api("PATCH", `/api/settings/project?${projectQuery(s.projectDir)}`, { tags: ["t"] })).status,
      200,
    );
    assert.ok(!fs.existsSync(second), "written: the stale temporary is gone");
  });
});

describe("absurd upstream numbers", () => {
  it("clamps usage to finite, sane figures, logs it, and keeps /api/usage sane", async () => {
    // A hostile upstream: every figure absurd.
    const upstream = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "hi" } }] })}\n\n`);
      res.write(
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 1e308, completion_tokens: 1e308, total_tokens: 1e308, cost: 1e308 } })}\n\n`,
      );
      res.end("data: [DONE]\n\n");
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const s = await startTestServer({
      gatewayBaseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`,
    });
    try {
      await s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: "sk-any-0123456789" }] });
      const project = await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json();
      const chat = await (await s.api("POST", `/api/projects/${project.id}/chats`, { modelId: "x/y" })).json();
      const res = await fetch(`${s.url}/api/chats/${chat.id}/messages/stream`, {
        method: "POST",
        headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
        body: JSON.stringify({ content: "hi" }),
      });
      const usage = (await readEvents(res)).find((e) => e.event === "usage")!.data;
      assert.equal(usage.completionTokens, 100_000_000);
      assert.ok(usage.cost === null || (Number.isFinite(usage.cost) && usage.cost <= 10_000), String(usage.cost));
      const rows = await (await s.api("GET", "/api/usage?groupBy=model")).json();
      for (const row of rows)
        assert.ok(row.cost === null || (Number.isFinite(row.cost) && row.cost <= 10_000), JSON.stringify(row));
      assert.ok(
        s.logLines.some((line) => /out-of-range completion_tokens/.test(line)),
        "the clamp is logged",
      );
    } finally {
      await s.stop();
      upstream.close();
    }
  });
});

describe("the CLI on an unsupported Node", () => {
  it("names the minimum version for anything older than 22.14", () => {
    assert.equal(unsupportedNodeMessage("20.20.2"), "parley needs Node >= 22.14; this is 20.20.2");
    assert.equal(unsupportedNodeMessage("v22.13.9"), "parley needs Node >= 22.14; this is 22.13.9");
    for (const ok of ["22.14.0", "v22.20.1", "24.1.0", "30.0.0"])
      assert.equal(unsupportedNodeMessage(ok), undefined, ok);
  });

  it("refuses with one clear line and exit 2 instead of crashing, when an old Node is on this machine", function () {
    const old = ["/usr/bin/node", "/usr/local/bin/node", "/bin/node"].find((candidate) => {
      if (!fs.existsSync(candidate)) return false;
      return unsupportedNodeMessage(execFileSync(candidate, ["--version"], { encoding: "utf8" }).trim()) !== undefined;
    });
    if (!old) {
      console.warn(
        "      no Node older than 22.14 on this machine: the spawn check is skipped (the unit check above still runs)",
      );
      this.skip();
    }
    const result = spawnSync(old, [CLI, "serve", "--port", "0"], { encoding: "utf8", timeout: 20_000 });
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr.trim(), /^parley needs Node >= 22\.14; this is 2[0-2]\.\d+\.\d+$/);
    assert.equal(result.stdout, "");
  });
});

describe("the web UI's icon", () => {
  it("answers /favicon.ico with the app's icon, not a 404", async () => {
    const s = await startTestServer({ webviewDir: "media/webview" });
    try {
      const res = await fetch(`${s.url}/favicon.ico`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type")?.split(";")[0], "image/svg+xml");
      assert.match(await res.text(), /<svg/);
    } finally {
      await s.stop();
    }
  });
});
