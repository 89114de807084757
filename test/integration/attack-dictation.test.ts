// POST /api/dictation/transcribe attacked: wrong or missing content types, no file, two files, a body
// one byte over the limit, non-audio bytes, a hostile file name, a client that goes away mid-upload
// and one that never finishes its body. Every answer is a contract 4xx/502 and nothing hangs.
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import express from "express";
import { dictationRoutes } from "../../src/dictation/routes";
import { errorHandler } from "../../src/server/middleware/errors";
import { apiErrorBodySchema } from "../../src/shared/api-error";
import { MAX_AUDIO_BYTES } from "../../src/shared/dictation";
import { startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { until, within } from "../helpers/poll";
import { toneWav } from "../helpers/wav";

const BOUNDARY = "----parleyattack";

function part(name: string, value: string | Uint8Array, fileName?: string, type = "audio/wav"): Buffer {
  const disposition =
    fileName === undefined ? `form-data; name="${name}"` : `form-data; name="${name}"; filename="${fileName}"`;
  const headers = `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${fileName === undefined ? "" : `Content-Type: ${type}\r\n`}\r\n`;
  return Buffer.concat([
    Buffer.from(headers),
    typeof value === "string" ? Buffer.from(value) : value,
    Buffer.from("\r\n"),
  ]);
}
const end = Buffer.from(`--${BOUNDARY}--\r\n`);

describe("dictation under attack", function () {
  this.timeout(60_000);
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  const post = (body: Uint8Array | string, type = `multipart/form-data; boundary=${BOUNDARY}`) =>
    fetch(`${f.s.url}/api/dictation/transcribe`, {
      method: "POST",
      headers: { authorization: `Bearer ${f.s.token}`, "content-type": type },
      body: typeof body === "string" ? body : new Uint8Array(body),
    });
  const expectError = async (res: Response, status: number, what: string) => {
    const text = await res.text();
    assert.equal(res.status, status, `${what}: ${text}`);
    assert.ok(apiErrorBodySchema.safeParse(JSON.parse(text)).success, `${what}: ${text}`);
  };
  const upstreamAudioCalls = () => f.gateway.requests.filter((r) => r.path === "/api/v1/audio/transcriptions").length;
  const wav = Buffer.from(toneWav(0.2));

  it("refuses wrong content types and a multipart body without a boundary with a contract 4xx", async () => {
    for (const type of ["text/plain", "application/octet-stream", "audio/wav", "application/x-www-form-urlencoded"])
      await expectError(await post(wav, type), 415, type);
    await expectError(
      await post(Buffer.concat([part("audio", wav, "a.wav"), end]), "multipart/form-data"),
      400,
      "no boundary",
    );
    await expectError(await post("not multipart at all", `multipart/form-data; boundary=${BOUNDARY}`), 400, "garbage");
    await expectError(await post(Buffer.concat([part("modelId", "openai/whisper-1"), end])), 400, "no file");
    await expectError(
      await post(Buffer.concat([part("modelId", "openai/whisper-1"), part("audio", Buffer.alloc(0), "a.wav"), end])),
      400,
      "empty file",
    );
    await expectError(
      await post(
        Buffer.concat([
          part("modelId", "openai/whisper-1"),
          part("other", wav, "a.wav"),
          part("audio", wav, "b.wav"),
          end,
        ]),
      ),
      400,
      "the audio as a second file",
    );
    assert.equal(upstreamAudioCalls(), 0);
  });

  it("sends only the first of two audio files, and a hostile file name only as the upload's name", async () => {
    const res = await post(
      Buffer.concat([
        part("modelId", "openai/whisper-1"),
        part("audio", wav, "../../x"),
        part("audio", Buffer.from("second"), "../../../etc/passwd"),
        end,
      ]),
    );
    assert.equal(res.status, 200, await res.clone().text());
    const sent = f.gateway.requests.filter((r) => r.path === "/api/v1/audio/transcriptions");
    assert.equal(sent.length, 1);
    assert.equal((sent[0]!.body as any).file.bytes.length, wav.length);
  });

  it("refuses 25 MB + 1 byte with 413 and non-audio bytes with the gateway's words", async () => {
    const over = Buffer.concat([
      part("modelId", "openai/whisper-1"),
      part("audio", Buffer.alloc(MAX_AUDIO_BYTES + 1), "big.wav"),
      end,
    ]);
    await expectError(await post(over), 413, "25 MB + 1");
    await expectError(
      await post(
        Buffer.concat([
          part("modelId", "openai/whisper-1"),
          part("audio", Buffer.from("#!/bin/sh\nrm -rf /\n"), "x.wav"),
          end,
        ]),
      ),
      502,
      "not audio",
    );
  });

  it("refuses an over-long modelId field or many fields without going upstream with them", async () => {
    const fields = Array.from({ length: 50 }, (_, i) => part(`f${i}`, "x"));
    const res = await post(
      Buffer.concat([...fields, part("modelId", "x".repeat(2_000_000)), part("audio", wav, "a.wav"), end]),
    );
    assert.ok(res.status >= 400 && res.status < 600 && res.status !== 500, `${res.status}`);
    assert.equal(upstreamAudioCalls(), 0);
  });
});

/** Whether a promise settles while the test still waits: a hang shows as "pending", not as a mocha timeout. */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<"resolved" | "rejected" | "pending"> {
  const settled = promise.then(
    () => "resolved" as const,
    () => "rejected" as const,
  );
  return within(settled, ms, "pending" as const);
}

describe("dictation uploads that never finish", function () {
  this.timeout(30_000);
  let server: http.Server;
  let port: number;
  /** The server's side of the last connection (what it has read of an upload). */
  let accepted: net.Socket | undefined;
  /** Settles with the first failure a request's handler passes on (what the error handler would answer). */
  let failed: Promise<unknown>;

  beforeEach(async () => {
    const app = express();
    const deps = {
      settings: { resolvedUnredacted: async () => ({}) },
      dictation: { transcribe: async () => ({ text: "x" }) },
      uploadIdleMs: 300,
    };
    app.use(dictationRoutes(deps as unknown as Parameters<typeof dictationRoutes>[0]));
    let fail: (error: unknown) => void;
    failed = new Promise((resolve) => (fail = resolve));
    app.use(((error, _req, _res, next) => {
      fail(error);
      next(error);
    }) as express.ErrorRequestHandler);
    app.use(errorHandler(() => undefined));
    server = http.createServer(app);
    server.on("connection", (socket) => (accepted = socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const head = (length: number) =>
    `POST /api/dictation/transcribe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n\r\n`;

  it("lets go of an upload whose client goes away mid-body, buffered audio and all", async () => {
    const body = Buffer.concat([part("audio", Buffer.alloc(5_000_000), "a.wav"), end]);
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(head(body.length));
    socket.write(body.subarray(0, 2_000_000));
    // Mid-body: the handler has read what was sent (its audio buffered) and waits for the rest.
    const sent = Buffer.byteLength(head(body.length)) + 2_000_000;
    await until(
      () => accepted?.bytesRead ?? 0,
      (read) => read >= sent,
      "the server read the first 2 MB",
    );
    socket.destroy();
    assert.equal(await settledWithin(failed, 5_000), "resolved", "the upload's handler never finished");
  });

  it("answers a body that stalls with a contract 400 and closes the connection, rather than wait forever", async () => {
    const body = Buffer.concat([part("audio", Buffer.alloc(100_000), "a.wav"), end]);
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write(head(body.length));
    socket.write(body.subarray(0, 50_000)); // and nothing more, ever
    assert.equal(await settledWithin(closed, 5_000), "resolved", "the server kept the stalled upload open");
    assert.match(answer, /^HTTP\/1\.1 400 /);
    const json = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    assert.ok(apiErrorBodySchema.safeParse(json).success, answer);
    assert.match(json.error.message, /stopped arriving/);
  });
});
