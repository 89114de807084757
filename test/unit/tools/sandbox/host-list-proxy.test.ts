import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { connectTarget, hostAllowed, HostListProxy } from "../../../../src/tools/sandbox/host-list-proxy";

/** Sends raw text to the proxy and reads until it closes (or until `until` matches). */
function exchange(port: number, text: string, until?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString();
      if (until?.test(received)) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
  });
}

describe("the host list proxy", () => {
  let upstream: http.Server;
  let upstreamPort: number;
  let proxy: HostListProxy;
  let proxyPort: number;
  let requests: string[];

  before(async () => {
    requests = [];
    upstream = http.createServer((request, response) => {
      requests.push(`${request.method} ${request.url} ${request.headers.host}`);
      response.end("upstream says hi\n");
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    upstreamPort = (upstream.address() as net.AddressInfo).port;
    proxy = new HostListProxy(["localhost"]);
    proxyPort = await proxy.listen();
  });

  after(() => {
    proxy.close();
    upstream.close();
  });

  it("matches listed hosts exactly, in any case, with or without a trailing dot", () => {
    assert.ok(hostAllowed("Registry.NPMjs.org.", ["registry.npmjs.org"]));
    assert.ok(!hostAllowed("evil-registry.npmjs.org", ["registry.npmjs.org"]));
    assert.ok(!hostAllowed("npmjs.org", ["registry.npmjs.org"]));
    assert.ok(!hostAllowed("", [""]));
  });

  it("reads host:port from a CONNECT request and nothing else", () => {
    assert.deepEqual(connectTarget("github.com:443"), { host: "github.com", port: 443 });
    for (const bad of ["github.com", "github.com:0", "github.com:70000", "[::1]:443", "a/b:1", undefined])
      assert.equal(connectTarget(bad), undefined, String(bad));
  });

  it("tunnels a CONNECT to a listed host and refuses another with 403 naming the list", async () => {
    const tunnel = await exchange(
      proxyPort,
      `CONNECT localhost:${upstreamPort} HTTP/1.1\r\nHost: localhost:${upstreamPort}\r\n\r\nGET /through HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      /upstream says hi/,
    );
    assert.match(tunnel, /^HTTP\/1\.1 200 Connection Established/);
    assert.match(tunnel, /upstream says hi/);
    assert.ok(requests.includes("GET /through x"));
    const refused = await exchange(proxyPort, `CONNECT 127.0.0.1:${upstreamPort} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    assert.match(refused, /^HTTP\/1\.1 403/);
    assert.match(refused, /does not allow 127\.0\.0\.1: sandbox\.network allows only localhost/);
  });

  it("forwards a plain http request to a listed host and refuses one to any other, request by request", async () => {
    const before = requests.length;
    const answer = await exchange(
      proxyPort,
      `GET http://localhost:${upstreamPort}/plain?x=1 HTTP/1.1\r\nHost: localhost:${upstreamPort}\r\nProxy-Connection: keep-alive\r\n\r\n` +
        `GET http://127.0.0.1:${upstreamPort}/second HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    assert.match(answer, /upstream says hi/);
    assert.match(answer, /403 Forbidden[\s\S]*does not allow 127\.0\.0\.1/);
    assert.deepEqual(requests.slice(before), [`GET /plain?x=1 localhost:${upstreamPort}`]);
  });

  it("answers a request that is not http:// (origin-form, as to a server) with 400", async () => {
    const answer = await exchange(proxyPort, "GET /relative HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    assert.match(answer, /^HTTP\/1\.1 400/);
  });
});
