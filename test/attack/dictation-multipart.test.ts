// Replays the multipart bodies that ended the whole server with one authenticated request (a part cut
// off before its closing boundary was an unheard 'error' on busboy's file stream), and their cousins:
// each answers a contract 4xx, nothing hangs, and the server still answers afterwards.
import assert from "node:assert/strict";
import net from "node:net";
import type http from "node:http";
import { apiErrorBodySchema } from "../../src/shared/api-error";
import { MAX_AUDIO_BYTES } from "../../src/shared/dictation";
import { startTestServer, type TestServer } from "../helpers/test-server";

const ROUTE = "/api/dictation/transcribe";
const MULTIPART = "multipart/form-data; boundary=zz";
const fileHead = (name: string) =>
  `--zz\r\nContent-Disposition: form-data; name="${name}"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`;

describe("attack: malformed and truncated multipart bodies to dictation", function () {
  this.timeout(60_000);
  let s: TestServer;
  before(async () => (s = await startTestServer()));
  after(() => s.stop());

  const post = (body: string | Uint8Array, type = MULTIPART) =>
    fetch(`${s.url}${ROUTE}`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.token}`, "content-type": type },
      body: typeof body === "string" ? body : new Uint8Array(body),
    });

  async function expectError(res: Response, status: number, code: string, what: string): Promise<void> {
    const text = await res.text();
    assert.equal(res.status, status, `${what}: ${text}`);
    const parsed = apiErrorBodySchema.safeParse(JSON.parse(text));
    assert.ok(parsed.success, `${what}: ${text}`);
    assert.equal(parsed.data.error.code, code, what);
  }

  async function expectAlive(what: string): Promise<void> {
    const res = await fetch(`${s.url}/api/health`);
    assert.equal(res.status, 200, `the server stopped answering after ${what}`);
    assert.equal((await res.json()).ok, true);
  }

  const truncated: Array<[string, string]> = [
    ["a file part cut off before its closing boundary", `${fileHead("audio")}AAAA`],
    ["a skipped (non-audio) file part cut off", `${fileHead("other")}AAAA`],
    ["a field part cut off", `--zz\r\nContent-Disposition: form-data; name="modelId"\r\n\r\nopenai/whisper`],
    ["a body cut off inside a part's headers", `--zz\r\nContent-Disposition: form-da`],
    ["a body cut off right after the first boundary", `--zz\r\n`],
    [
      "a body whose boundary is not the declared one",
      `--other\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\n\r\nAAAA\r\n--other--\r\n`,
    ],
    [
      "a part header past busboy's 16 KB limit",
      `--zz\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nX-Pad: ${"x".repeat(20_000)}\r\n\r\nAAAA\r\n--zz--\r\n`,
    ],
    ["a complete audio part followed by a part cut off", `${fileHead("audio")}AAAA\r\n${fileHead("other")}BB`],
  ];
  for (const [what, body] of truncated) {
    it(`answers 400 invalid_request to ${what}, and stays up`, async () => {
      await expectError(await post(body), 400, "invalid_request", what);
      await expectAlive(what);
    });
  }

  it("answers 400 to a multipart body without a boundary parameter, and stays up", async () => {
    await expectError(
      await post(`${fileHead("audio")}AAAA\r\n--zz--\r\n`, "multipart/form-data"),
      400,
      "invalid_request",
      "no boundary",
    );
    await expectAlive("a missing boundary");
  });

  it("still answers 413 to a file over the limit, and stays up", async () => {
    const over = Buffer.concat([
      Buffer.from(fileHead("audio")),
      Buffer.alloc(MAX_AUDIO_BYTES + 1),
      Buffer.from("\r\n--zz--\r\n"),
    ]);
    await expectError(await post(over), 413, "payload_too_large", "25 MB + 1");
    await expectAlive("an oversized file");
  });

  it("stays up when the client goes away mid-upload, inside a file part or inside its headers", async () => {
    for (const [what, sent] of [
      ["inside a file part", Buffer.concat([Buffer.from(fileHead("audio")), Buffer.alloc(200_000)])],
      ["inside a part's headers", Buffer.from("--zz\r\nContent-Disposition: form-data; na")],
    ] as const) {
      // The server side of this request: once it has closed, the server has seen the whole abort.
      const served = new Promise<http.IncomingMessage>((resolve) => s.server.server.once("request", resolve));
      const socket = net.connect(s.server.port, "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(
        `POST ${ROUTE} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${s.token}\r\nContent-Type: ${MULTIPART}\r\nContent-Length: 1000000\r\n\r\n`,
      );
      socket.write(sent);
      const req = await served;
      // Abort only once the handler reads the body, so the cut lands mid-upload.
      if (!req.readableFlowing) await new Promise((resolve) => req.once("resume", resolve));
      const closed = new Promise((resolve) => req.once("close", resolve));
      socket.destroy();
      await closed;
      await expectAlive(`a client that went away ${what}`);
      await expectError(
        await post(`${fileHead("audio")}AAAA`),
        400,
        "invalid_request",
        `the route after an abort ${what}`,
      );
    }
  });
});
