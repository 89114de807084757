import assert from "node:assert/strict";
import { audioFormat, transcribeMultipart, transcribeWithChat } from "../../../src/gateway/transcription";
import { UpstreamError } from "../../../src/gateway/http";
import { connection, openGatewayDouble, type GatewayDouble } from "./gateway-double";

describe("gateway client: speech to text", () => {
  it("names an upload's audio format from its type, else its file name, else wav", () => {
    const cases: [string, string, string][] = [
      ["audio/wav", "a.bin", "wav"],
      ["audio/x-wav", "a", "wav"],
      ["audio/wave", "a", "wav"],
      ["audio/mpeg", "a.wav", "mp3"],
      ["audio/webm;codecs=opus", "a", "webm"],
      ["audio/OGG", "a", "ogg"],
      ["application/octet-stream", "clip.FLAC", "flac"],
      ["", "clip.m4a", "m4a"],
      ["application/octet-stream", "clip", "clip"],
      ["video/mp4", "noextension", "noextension"],
    ];
    for (const [mimeType, fileName, format] of cases)
      assert.equal(audioFormat({ mimeType, fileName }), format, `${mimeType} ${fileName}`);
  });

  describe("over HTTP", () => {
    let gateway: GatewayDouble;
    beforeEach(() => (gateway = openGatewayDouble()));
    afterEach(() => gateway.close());
    const audio = { bytes: Buffer.from("RIFF-fake-audio"), mimeType: "audio/mpeg", fileName: "note.mp3" };

    it("sends audio to a chat model as an input_audio part with the instruction, and trims its answer", async () => {
      const usage = { prompt_tokens: 10, completion_tokens: 3 };
      gateway.pool
        .intercept({ path: "/api/v1/chat/completions", method: "POST" })
        .reply(200, { choices: [{ message: { content: "  hello there \n" } }], usage });
      assert.deepEqual(await transcribeWithChat(connection, "openai/gpt-4o-audio-preview", audio), {
        text: "hello there",
        usage,
      });
      const sent = JSON.parse(gateway.seen[0]!.body);
      assert.equal(sent.model, "openai/gpt-4o-audio-preview");
      assert.equal(sent.stream, false);
      const [instruction, part] = sent.messages[0].content;
      assert.equal(instruction.type, "text");
      assert.match(instruction.text, /Transcribe this audio verbatim/);
      assert.deepEqual(part, {
        type: "input_audio",
        input_audio: { data: audio.bytes.toString("base64"), format: "mp3" },
      });
    });

    it("fails with 502 when a chat answer carries no transcript", async () => {
      gateway.pool
        .intercept({ path: "/api/v1/chat/completions", method: "POST" })
        .reply(200, { choices: [{ message: { content: null } }] });
      await assert.rejects(
        transcribeWithChat(connection, "m", audio),
        (error: unknown) =>
          error instanceof UpstreamError && error.status === 502 && /no transcript/.test(error.message),
      );
    });

    it("posts multipart audio to /audio/transcriptions and reads its text", async () => {
      gateway.pool
        .intercept({ path: "/api/v1/audio/transcriptions", method: "POST" })
        .reply(200, { text: "hello", usage: { seconds: 2 } });
      assert.deepEqual(await transcribeMultipart(connection, "openai/whisper-1", audio), {
        text: "hello",
        usage: { seconds: 2 },
      });
      const form = gateway.seen[0]!.raw as FormData;
      assert.equal(form.get("model"), "openai/whisper-1");
      const file = form.get("file") as File;
      assert.deepEqual(
        [file.name, file.type, Buffer.from(await file.arrayBuffer()).toString()],
        ["note.mp3", "audio/mpeg", "RIFF-fake-audio"],
      );
    });

    it("fails with the upstream's words, or 502 when a transcription has no text", async () => {
      gateway.pool
        .intercept({ path: "/api/v1/audio/transcriptions", method: "POST" })
        .reply(400, { error: { message: "model does not exist" } });
      await assert.rejects(
        transcribeMultipart(connection, "m", audio),
        (error: unknown) =>
          error instanceof UpstreamError && error.status === 400 && error.message === "model does not exist",
      );
      gateway.pool
        .intercept({ path: "/api/v1/audio/transcriptions", method: "POST" })
        .reply(200, { transcript: "hello" });
      await assert.rejects(
        transcribeMultipart(connection, "m", audio),
        (error: unknown) => error instanceof UpstreamError && error.status === 502,
      );
    });
  });
});
