// POST /api/dictation/transcribe against the fake gateway: both routes (multipart transcription,
// and chat completions with an input_audio part), the 25 MB limit, no model chosen, an upstream
// failure in the contract's shape, and the cost of each transcription in the usage ledger.
import assert from "node:assert/strict";
import { dictationResultSchema, MAX_AUDIO_BYTES } from "../../src/shared/dictation";
import { FAKE_TRANSCRIPT } from "../fake-gateway/audio";
import { TRANSCRIPTION_MODELS } from "../fake-gateway/catalog";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents } from "../helpers/sse";
import { toneWav } from "../helpers/wav";

describe("dictation", () => {
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  const upload = (fields: Record<string, string>, audio?: Blob, fileName = "clip.wav") => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    if (audio) form.set("audio", audio, fileName);
    return fetch(`${f.s.url}/api/dictation/transcribe`, {
      method: "POST",
      headers: { authorization: `Bearer ${f.s.token}` },
      body: form,
    });
  };
  const wav = new Blob([toneWav(0.5)], { type: "audio/wav" });
  const usageByModel = async () => (await f.s.api("GET", "/api/usage?groupBy=model")).json();
  const whisperPrice = (tokensIn: number, tokensOut: number) =>
    tokensIn * Number(TRANSCRIPTION_MODELS[0]!.pricing.prompt) +
    tokensOut * Number(TRANSCRIPTION_MODELS[0]!.pricing.completion);

  it("sends transcription-slice models to /audio/transcriptions as multipart, and answers the transcript with its cost", async () => {
    const res = await upload({ modelId: "openai/whisper-1" }, wav);
    assert.equal(res.status, 200);
    const body = dictationResultSchema.parse(await res.json());
    assert.equal(body.text, FAKE_TRANSCRIPT);
    assert.equal(body.model, "openai/whisper-1");
    assert.equal(body.route, "transcriptions");
    const request = f.gateway.requests.find((r) => r.path === "/api/v1/audio/transcriptions")!;
    assert.equal((request.body as any).fields.model, "openai/whisper-1");
    assert.equal((request.body as any).file.bytes.length, wav.size, "the audio reached the gateway whole");
    assert.equal((request.body as any).file.mimeType, "audio/wav");
    const tokensIn = Math.ceil(wav.size / 100);
    assert.equal(body.usage.promptTokens, tokensIn);
    assert.equal(body.usage.costSource, "gateway");
    assert.equal(body.usage.cost, whisperPrice(tokensIn, body.usage.completionTokens));
  });

  it("sends audio-input chat models to /chat/completions with an inline input_audio part", async () => {
    const res = await upload({ modelId: "google/gemini-2.5-flash" }, wav);
    const body = dictationResultSchema.parse(await res.json());
    assert.deepEqual([body.text, body.model, body.route], [FAKE_TRANSCRIPT, "google/gemini-2.5-flash", "chat"]);
    const sent = f.gateway.completions[0]!.body as any;
    assert.equal(sent.stream, false);
    const part = sent.messages[0].content[1];
    assert.equal(part.type, "input_audio");
    assert.equal(part.input_audio.format, "wav");
    assert.equal(Buffer.from(part.input_audio.data, "base64").length, wav.size);
    assert.equal(
      f.gateway.requests.some((r) => r.path === "/api/v1/audio/transcriptions"),
      false,
    );
    assert.ok(body.usage.cost! > 0);
  });

  it("names WebM audio as webm, which the gateway's chat models refuse in words that reach the user", async () => {
    // What MediaRecorder makes: an EBML header. Audio-input chat models take WAV or MP3, so the UI records WAV for them.
    const webm = new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0])], { type: "audio/webm;codecs=opus" });
    const res = await upload({ modelId: "google/gemini-2.5-flash" }, webm, "dictation.webm");
    assert.equal(res.status, 502);
    const { error } = await res.json();
    assert.equal(error.code, "upstream_error");
    assert.match(error.message, /Unsupported audio format: webm/);
    assert.equal((f.gateway.completions[0]!.body as any).messages[0].content[1].input_audio.format, "webm");
  });

  it("uses the app's dictation model when the request names none", async () => {
    await f.s.api("PATCH", "/api/settings/app", { dictation: { modelId: "openai/whisper-1", providerId: "gateway" } });
    const body = await (await upload({}, wav)).json();
    assert.equal(body.route, "transcriptions");
    assert.equal(body.text, FAKE_TRANSCRIPT);
  });

  it("says to choose a model on the Dictation page when none is set", async () => {
    const res = await upload({}, wav);
    assert.equal(res.status, 400);
    const { error } = await res.json();
    assert.equal(error.code, "invalid_request");
    assert.match(error.message, /choose a speech-to-text model on the Dictation page/);
    assert.equal(f.gateway.requests.filter((r) => r.path !== "/api/v1/models").length, 0, "nothing was sent upstream");
  });

  it("refuses a missing file, a text-only model, and JSON with the contract's 4xx", async () => {
    assert.equal((await upload({ modelId: "openai/whisper-1" })).status, 400);
    const textOnly = await upload({ modelId: "anthropic/claude-sonnet-4" }, wav);
    assert.equal(textOnly.status, 400);
    assert.match(
      (await textOnly.json()).error.message,
      /neither a transcription model nor a chat model that takes audio/,
    );
    const notMultipart = await f.s.api("POST", "/api/dictation/transcribe", { audio: "x" });
    assert.equal(notMultipart.status, 415);
    assert.equal((await notMultipart.json()).error.code, "unsupported_media_type");
  });

  it("refuses audio over 25 MB with 413 payload_too_large in words, and sends nothing upstream", async () => {
    const big = new Blob([toneWav(0.1), new Uint8Array(MAX_AUDIO_BYTES)], { type: "audio/wav" });
    const res = await upload({ modelId: "openai/whisper-1" }, big);
    assert.equal(res.status, 413);
    const { error } = await res.json();
    assert.equal(error.code, "payload_too_large");
    assert.match(error.message, /larger than 25 MB/);
    assert.equal(
      f.gateway.requests.some((r) => r.path === "/api/v1/audio/transcriptions"),
      false,
    );
    // Just under the limit still goes through.
    const fits = new Blob([toneWav(0.1), new Uint8Array(MAX_AUDIO_BYTES - toneWav(0.1).length)], { type: "audio/wav" });
    assert.equal((await upload({ modelId: "openai/whisper-1" }, fits)).status, 200);
  });

  it("answers an upstream failure as 502 upstream_error with the upstream's status and message, and bills nothing", async () => {
    f.gateway.audioFailures.push({ status: 503, message: "transcription provider overloaded" });
    const res = await upload({ modelId: "openai/whisper-1" }, wav);
    assert.equal(res.status, 502);
    const { error } = await res.json();
    assert.equal(error.code, "upstream_error");
    assert.match(error.message, /transcription provider overloaded/);
    assert.equal(error.status, 503);
    assert.deepEqual(await usageByModel(), []);
    // Audio that is not audio: the gateway's 400 reaches the user too.
    const noise = await upload({ modelId: "openai/whisper-1" }, new Blob([new Uint8Array(64)], { type: "audio/wav" }));
    assert.equal(noise.status, 502);
    assert.match((await noise.json()).error.message, /could not be decoded/);
  });

  it("puts each transcription's cost in the usage ledger under its model, beside chat turns", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    await readEvents(await send(f, chat.id, { content: "one" }));
    const first = dictationResultSchema.parse(await (await upload({ modelId: "openai/whisper-1" }, wav)).json());
    const second = dictationResultSchema.parse(await (await upload({ modelId: "openai/whisper-1" }, wav)).json());
    const heard = dictationResultSchema.parse(await (await upload({ modelId: "google/gemini-2.5-flash" }, wav)).json());
    const rows = await usageByModel();
    assert.deepEqual(
      rows.map((r: any) => [r.key, r.turns]),
      [
        ["fake/echo", 1],
        ["google/gemini-2.5-flash", 1],
        ["openai/whisper-1", 2],
      ],
    );
    const whisper = rows.find((r: any) => r.key === "openai/whisper-1");
    assert.equal(whisper.cost, first.usage.cost! + second.usage.cost!);
    assert.equal(whisper.promptTokens, first.usage.promptTokens * 2);
    assert.equal(rows.find((r: any) => r.key === "google/gemini-2.5-flash").cost, heard.usage.cost);
    const byDay = await (await f.s.api("GET", "/api/usage?groupBy=day")).json();
    assert.deepEqual(
      byDay.map((r: any) => r.turns),
      [4],
    );
    // Dictation belongs to no project: a project's own total is its chats alone.
    const project = await (
      await f.s.api("GET", `/api/usage?groupBy=model&projectDir=${encodeURIComponent(f.s.projectDir)}`)
    ).json();
    assert.deepEqual(
      project.map((r: any) => r.key),
      ["fake/echo"],
    );
    assert.deepEqual(await (await f.s.api("GET", "/api/usage?from=2999-01-01")).json(), []);
  });

  it("prices a transcription from the model's catalog price when the gateway reports tokens but no cost", async () => {
    f.gateway.dialect = { noCost: true };
    const body = dictationResultSchema.parse(await (await upload({ modelId: "openai/whisper-1" }, wav)).json());
    assert.equal(body.usage.costSource, "estimate");
    assert.equal(body.usage.cost, whisperPrice(body.usage.promptTokens, body.usage.completionTokens));
    const [row] = await usageByModel();
    assert.deepEqual([row.key, row.cost, row.unknownCostTurns], ["openai/whisper-1", body.usage.cost, 0]);
  });

  it("prefers the user's own price for the model to the catalog's", async () => {
    f.gateway.dialect = { noCost: true };
    await f.s.api("PATCH", "/api/settings/app", {
      models: [{ id: "openai/whisper-1", pricing: { prompt: 0.001, completion: 0 } }],
    });
    const body = dictationResultSchema.parse(await (await upload({ modelId: "openai/whisper-1" }, wav)).json());
    assert.equal(body.usage.cost, body.usage.promptTokens * 0.001);
  });
});
