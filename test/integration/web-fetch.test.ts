// web_fetch against real HTTP servers on loopback (contract 7.5). Loopback is refused by default (see
// test/attack/web-fetch-ssrf.test.ts), so these reach their server through the user's allow list,
// as a user with an intranet would: HTML as markdown, text as text, binary refused, redirects, and
// the limits: a 10 GB body and a gzip bomb stop at 5 MB, a stalled server at the time limit.
import assert from "node:assert/strict";
import zlib from "node:zlib";
import { ToolError } from "../../src/tools/tool-error";
import { webFetch, type WebFetchOptions } from "../../src/tools/web-fetch/web-fetch";
import { WEB_FETCH_MAX_BYTES } from "../../src/tools/native-tools";
import { startWebServer, streamBytes, type WebServer } from "../helpers/web-server";

const FIVE_MB = 5 * 1024 * 1024;
/** About 4 MB of dense markup: seconds of work for the converter. */
const BIG_PAGE = `<html><body>${"<div><h2>Title</h2><p>Some <b>bold</b> and <a href='/x'>a link</a>.</p><ul><li>one</li><li>two</li></ul></div>".repeat(40_000)}</body></html>`;
const PAGE =
  "<html><head><title>Notes</title><script>track()</script></head><body><h2>Usage</h2><p>See <a href='/guide'>the guide</a>.</p></body></html>";

describe("web_fetch over real HTTP", function () {
  this.timeout(60_000);
  let server: WebServer;
  let written: Promise<number> | undefined;
  const signal = new AbortController().signal;
  const allowed: WebFetchOptions = { signal, settings: { allowHosts: ["127.0.0.1"] } };
  const fetchUrl = (url: string, options: Partial<WebFetchOptions> = {}, maxBytes?: number) =>
    webFetch({ url, ...(maxBytes ? { maxBytes } : {}) }, { ...allowed, ...options });
  const failure = async (promise: Promise<unknown>): Promise<string> => {
    const error = await promise.then(
      () => assert.fail("expected a failed result"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ToolError, String(error));
    return error.message;
  };

  before(async () => {
    server = await startWebServer({
      "/page": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(PAGE);
      },
      "/notes.txt": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" });
        res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
      },
      "/untyped": (_req, res) => res.end("<!doctype html><p>sniffed <b>HTML</b></p>"),
      "/image.png": (_req, res) => {
        res.writeHead(200, { "content-type": "image/png" });
        written = streamBytes(res, 50 * 1024 * 1024, 0);
      },
      "/untyped-binary": (_req, res) => res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])),
      "/hop": (req, res) => {
        const n = Number(new URL(req.url!, "http://x").searchParams.get("n"));
        res.writeHead(n > 0 ? 302 : 200, n > 0 ? { location: `/hop?n=${n - 1}` } : { "content-type": "text/plain" });
        res.end(n > 0 ? "" : "arrived");
      },
      "/loop-a": (_req, res) => res.writeHead(301, { location: "/loop-b" }).end(),
      "/loop-b": (_req, res) => res.writeHead(307, { location: "/loop-a" }).end(),
      "/to-file": (_req, res) => res.writeHead(302, { location: "file:///etc/passwd" }).end(),
      "/no-location": (_req, res) => res.writeHead(302).end(),
      "/missing": (_req, res) => res.writeHead(404, { "content-type": "text/html" }).end("<p>gone</p>"),
      "/ten-gb": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain", "content-length": String(10 * 1024 ** 3) });
        written = streamBytes(res, 10 * 1024 ** 3);
      },
      "/bomb": (req, res) => {
        // 64 gzip members of 16 MB of "a" each: a 1 GB text in about a megabyte on the wire.
        const member = zlib.gzipSync(Buffer.alloc(16 * 1024 * 1024, "a"), { level: 9 });
        const body = Buffer.concat(Array.from({ length: 64 }, () => member));
        res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip", "x-wire-bytes": body.length });
        res.end(body);
        assert.match(String(req.headers["accept-encoding"]), /gzip/);
      },
      "/big.html": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(BIG_PAGE);
      },
      "/stall": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("a start, then nothing");
      },
    });
  });
  after(() => server.close());
  beforeEach(() => {
    written = undefined;
    server.hits.length = 0;
  });

  it("returns an HTML page as markdown, with the final URL, status and content type", async () => {
    const result = await fetchUrl(server.url("/page"));
    assert.deepEqual(result, {
      url: server.url("/page"),
      status: 200,
      contentType: "text/html; charset=utf-8",
      bytes: Buffer.byteLength(PAGE),
      truncated: false,
      content: `Notes\n\n## Usage\n\nSee [the guide](${server.url("/guide")}).`,
    });
  });

  it("returns other text as text in its charset, and sniffs an untyped body", async () => {
    assert.equal((await fetchUrl(server.url("/notes.txt"))).content, "café\n");
    const untyped = await fetchUrl(server.url("/untyped"));
    assert.deepEqual([untyped.contentType, untyped.content], ["", "sniffed **HTML**"]);
  });

  it("refuses binary types before reading their body", async () => {
    assert.equal(
      await failure(fetchUrl(server.url("/image.png"))),
      `${server.url("/image.png")} is image/png, which web_fetch does not read: it returns web pages (as markdown) and text only`,
    );
    assert.ok((await written!) < 50 * 1024 * 1024, "the image was not downloaded");
    assert.match(await failure(fetchUrl(server.url("/untyped-binary"))), /is binary data without a content type/);
  });

  it("follows five redirects, says where it ended, and refuses the sixth", async () => {
    const five = await fetchUrl(server.url("/hop?n=5"));
    assert.deepEqual([five.url, five.content], [server.url("/hop?n=0"), "arrived"]);
    assert.equal(server.hits.length, 6);
    assert.equal(
      await failure(fetchUrl(server.url("/hop?n=6"))),
      `too many redirects: more than 5, the last to ${server.url("/hop?n=0")}`,
    );
  });

  it("gives a redirect loop, a redirect to file: and one without a Location a clear failed result", async () => {
    assert.equal(
      await failure(fetchUrl(server.url("/loop-a"))),
      `redirect loop: ${server.url("/loop-b")} leads back to ${server.url("/loop-a")}`,
    );
    assert.deepEqual(
      server.hits.map((h) => h.path),
      ["/loop-a", "/loop-b"],
    );
    assert.match(await failure(fetchUrl(server.url("/to-file"))), /reads http and https URLs only, not file:/);
    assert.match(await failure(fetchUrl(server.url("/no-location"))), /answered with a redirect but no Location/);
  });

  it("refuses file:, data: and ftp: URLs without a request", async () => {
    for (const url of ["file:///etc/passwd", "data:text/plain,hello", "ftp://127.0.0.1/"])
      assert.match(await failure(fetchUrl(url)), /reads http and https URLs only/, url);
  });

  it("fails on an error status, naming it", async () => {
    assert.equal(await failure(fetchUrl(server.url("/missing"))), `${server.url("/missing")} answered 404 Not Found`);
  });

  it("fails on a 10 GB body after reading 5 MB and not much more off the wire", async () => {
    const started = Date.now();
    assert.match(await failure(fetchUrl(server.url("/ten-gb"))), /is larger than web_fetch's 5 MB limit/);
    const sent = await written!;
    assert.ok(sent < FIVE_MB + 16 * 1024 * 1024, `the server wrote ${sent} bytes before the client hung up`);
    assert.ok(Date.now() - started < 15_000);
  });

  it("counts a gzip bomb's bytes as they decompress: fails at 5 MB of its 1 GB", async () => {
    const before = process.memoryUsage().arrayBuffers;
    assert.match(await failure(fetchUrl(server.url("/bomb"))), /larger than web_fetch's 5 MB limit \(decompressed\)/);
    assert.ok(process.memoryUsage().arrayBuffers - before < 200 * 1024 * 1024, "the bomb was never inflated whole");
  });

  it("reads less when maxBytes asks for less, and never more than 5 MB", async () => {
    const small = await fetchUrl(server.url("/ten-gb"), {}, 1000);
    assert.deepEqual([small.bytes, small.truncated], [1000, true]);
    assert.match(small.content, /^a{1000}\n\n… \[cut at 1000 bytes: /);
    assert.match(
      await failure(fetchUrl(server.url("/bomb"), {}, WEB_FETCH_MAX_BYTES * 10)),
      /larger than web_fetch's 5 MB limit/,
    );
  });

  it("converts a big page off the main thread, and its time limit stops the conversion too", async () => {
    // The server's event loop keeps turning while a page of megabytes is converted.
    let longestGap = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      longestGap = Math.max(longestGap, Date.now() - last);
      last = Date.now();
    }, 20);
    try {
      const result = await fetchUrl(server.url("/big.html"));
      assert.match(result.content, /^## Title\n\nSome \*\*bold\*\* and \[a link\]/);
      assert.equal(result.truncated, true, "past what one result gives the model");
    } finally {
      clearInterval(ticker);
    }
    assert.ok(longestGap < 400, `the event loop stalled for ${longestGap} ms`);
    const started = Date.now();
    assert.equal(
      await failure(fetchUrl(server.url("/big.html"), { timeoutMs: 700 })),
      "web_fetch gave up after 0.7 s (its time limit)",
    );
    assert.ok(Date.now() - started < 1_500, "the conversion did not run on past the limit");
  });

  it("gives up at its time limit on a server that stalls, and at once when the turn is cancelled", async () => {
    assert.equal(
      await failure(fetchUrl(server.url("/stall"), { timeoutMs: 500 })),
      "web_fetch gave up after 0.5 s (its time limit)",
    );
    const controller = new AbortController();
    const pending = fetchUrl(server.url("/stall"), { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    assert.equal(await failure(pending), "the turn was cancelled");
  });
});
