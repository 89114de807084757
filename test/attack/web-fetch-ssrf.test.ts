// Attack: the model (steered by a page, an MCP result, a README) asks web_fetch for something inside
// the user's network (contract 7.5). By default every loopback, private, link-local and special
// address is refused before any connection, in every spelling; a redirect from a "public" server to
// one is refused at that hop; and a DNS answer that changes after the check (rebinding) never reaches
// loopback, because the connection goes to the address that was checked. "Public" hosts are
// simulated with a resolver the test hands to the module (the tool itself always uses the system's).
import assert from "node:assert/strict";
import { ToolError } from "../../src/tools/tool-error";
import { webFetch, type Resolver, type WebFetchOptions } from "../../src/tools/web-fetch/web-fetch";
import { startWebServer, type WebServer } from "../helpers/web-server";

describe("attack: web_fetch pointed at the user's own network", function () {
  this.timeout(30_000);
  let server: WebServer;
  const signal = new AbortController().signal;
  const failure = async (promise: Promise<unknown>): Promise<string> => {
    const error = await promise.then(
      () => assert.fail("expected a refusal"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ToolError, String(error));
    return error.message;
  };
  /** A resolver that knows a few made-up names, and counts its lookups. */
  const resolver = (names: Record<string, string[] | (() => string[])>) => {
    const lookups: string[] = [];
    const resolve: Resolver = async (host) => {
      lookups.push(host);
      const answer = names[host];
      if (!answer) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
      return typeof answer === "function" ? answer() : answer;
    };
    return { resolve, lookups };
  };

  before(async () => {
    server = await startWebServer({
      "/secret": (_req, res) => res.end("the user's secret"),
      "/page": (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("public page"),
      "/to": (req, res) => {
        res.writeHead(302, { location: new URL(req.url!, "http://x").searchParams.get("url")! });
        res.end();
      },
    });
  });
  after(() => server.close());
  beforeEach(() => (server.hits.length = 0));

  it("refuses loopback, private, link-local, metadata and unspecified addresses by default, before connecting", async () => {
    const port = server.port;
    const refused: [string, RegExp][] = [
      [`http://127.0.0.1:${port}/secret`, /127\.0\.0\.1 is a loopback address/],
      [`http://[::1]:${port}/secret`, /::1 is a loopback address/],
      [
        "http://169.254.169.254/latest/meta-data/",
        /169\.254\.169\.254 is a link-local address \(the cloud metadata service lives there\)/,
      ],
      [`http://0.0.0.0:${port}/secret`, /0\.0\.0\.0 is the unspecified address, which names no server/],
      ["http://10.0.0.1/", /10\.0\.0\.1 is a private network address/],
      ["http://192.168.1.1/", /private network address/],
      ["http://[fd00::1]/", /unique-local/],
      [
        `http://localhost:${port}/secret`,
        /^web_fetch refused http:\/\/localhost:\d+\/secret: localhost \((127\.0\.0\.1|::1)\) is a loopback address/,
      ],
      [`http://2130706433:${port}/secret`, /127\.0\.0\.1 is a loopback address/],
      [`http://0x7f.1:${port}/secret`, /127\.0\.0\.1 is a loopback address/],
      [`http://0177.0.0.1:${port}/secret`, /127\.0\.0\.1 is a loopback address/],
      [`http://[::ffff:127.0.0.1]:${port}/secret`, /::ffff:7f00:1 \(127\.0\.0\.1\) is a loopback address/],
      [`http://[::ffff:a9fe:a9fe]/`, /\(169\.254\.169\.254\) is a link-local address/],
    ];
    for (const [url, pattern] of refused) {
      const message = await failure(webFetch({ url }, { signal }));
      assert.match(message, pattern, url);
      assert.match(message, /webFetch\.allowPrivate|names no server/, url);
    }
    assert.deepEqual(server.hits, [], "nothing reached the server");
  });

  it("refuses a host whose answers include a private address, even beside a public one", async () => {
    const { resolve } = resolver({ "mixed.test": ["93.184.215.14", "127.0.0.1"], "meta.test": ["169.254.169.254"] });
    assert.match(
      await failure(webFetch({ url: `http://mixed.test:${server.port}/secret` }, { signal, resolve })),
      /mixed\.test \(127\.0\.0\.1\) is a loopback address/,
    );
    assert.match(await failure(webFetch({ url: "http://meta.test/" }, { signal, resolve })), /link-local/);
    assert.deepEqual(server.hits, []);
  });

  it("checks every redirect again: an allowed server cannot send web_fetch on to loopback or the metadata address", async () => {
    const { resolve } = resolver({
      "public.test": ["127.0.0.1"],
      "internal.test": ["10.0.0.5"],
      localhost: ["127.0.0.1"],
    });
    // The test server stands in for a public site: allowed by name, and by name only.
    const options: WebFetchOptions = { signal, resolve, settings: { allowHosts: ["public.test"] } };
    const start = (target: string) => `http://public.test:${server.port}/to?url=${encodeURIComponent(target)}`;
    assert.equal(
      (await webFetch({ url: start("/page") }, options)).content,
      "public page",
      "a redirect on the same host is fine",
    );
    for (const [target, pattern] of [
      [server.url("/secret"), /127\.0\.0\.1 is a loopback address/],
      [server.url("/secret", "localhost"), /localhost \(.+\) is a loopback address/],
      [server.url("/secret", "[::1]"), /::1 is a loopback address/],
      ["http://169.254.169.254/latest/meta-data/", /link-local/],
      ["http://internal.test/", /internal\.test \(10\.0\.0\.5\) is a private network address/],
      ["file:///etc/passwd", /not file:/],
    ] as const) {
      server.hits.length = 0;
      assert.match(await failure(webFetch({ url: start(target) }, options)), pattern, target);
      assert.deepEqual(
        server.hits.map((h) => h.path),
        ["/to"],
        `${target}: only the redirect itself was requested`,
      );
    }
  });

  it("connects to the address it checked: one lookup per hop, and a rebinding answer never reaches loopback", async () => {
    // Pinned: `pinned.test` exists for this resolver only, so reaching the server proves the
    // connection went to the address the check saw, with the URL's host name kept in the request.
    const pinned = resolver({ "pinned.test": ["127.0.0.1"] });
    const result = await webFetch(
      { url: `http://pinned.test:${server.port}/page` },
      { signal, resolve: pinned.resolve, settings: { allowHosts: ["pinned.test"] } },
    );
    assert.equal(result.content, "public page");
    assert.deepEqual(pinned.lookups, ["pinned.test"]);
    assert.equal(server.hits[0]!.host, `pinned.test:${server.port}`);

    // Rebinding: public for the check, loopback for any later lookup. The connection goes to the
    // public address (unreachable here, so the fetch fails at its time limit or at once); the
    // loopback server hears nothing, and no second lookup happens.
    server.hits.length = 0;
    let answers = 0;
    const rebinding = resolver({ "rebind.test": () => (answers++ === 0 ? ["1.2.3.4"] : ["127.0.0.1"]) });
    const message = await failure(
      webFetch(
        { url: `http://rebind.test:${server.port}/secret` },
        { signal, resolve: rebinding.resolve, timeoutMs: 1500 },
      ),
    );
    assert.match(message, /gave up after 1\.5 s|cannot fetch http:\/\/rebind\.test/);
    assert.deepEqual(rebinding.lookups, ["rebind.test"]);
    assert.deepEqual(server.hits, [], "the rebinding answer never reached the loopback server");
  });

  it("reaches loopback only through the user's app setting", async () => {
    const url = server.url("/secret");
    assert.match(
      await failure(webFetch({ url }, { signal, settings: { allowHosts: ["10.0.0.0/8", "localhost"] } })),
      /loopback/,
    );
    assert.equal(
      (await webFetch({ url }, { signal, settings: { allowHosts: ["127.0.0.0/8"] } })).content,
      "the user's secret",
    );
    assert.equal((await webFetch({ url }, { signal, settings: { allowPrivate: true } })).content, "the user's secret");
  });
});
