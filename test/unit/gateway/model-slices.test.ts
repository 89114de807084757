import assert from "node:assert/strict";
import type { CatalogModel } from "../../../src/shared/gateway";
import { transcriptionRoute, transcriptionSlice } from "../../../src/gateway/model-slices";
import { modelEntries, userPricing } from "../../../src/gateway/model-entries";
import { messageStatusFor } from "../../../src/chat/finish-reason";

const model = (id: string, input: string[] = [], output: string[] = []): CatalogModel => ({
  id,
  label: id,
  contextLength: null,
  pricing: {},
  inputModalities: input,
  outputModalities: output,
});

describe("transcription models when the server filters (the gateway)", () => {
  const listed = {
    transcription: [model("openai/whisper-1", ["audio"], ["transcription"]), model("vendor/stt", ["audio"], ["text"])],
    text: [model("google/gemini", ["text", "audio"], ["text"]), model("a/text-only", ["text"], ["text"])],
  };

  it("routes the filtered models to /audio/transcriptions and audio-input chat models to chat", () => {
    assert.equal(transcriptionRoute("openai/whisper-1", listed, []), "transcriptions");
    assert.equal(transcriptionRoute("vendor/stt", listed, []), "transcriptions", "the filter put it there");
    assert.equal(transcriptionRoute("google/gemini", listed, []), "chat");
    assert.equal(transcriptionRoute("a/text-only", listed, []), undefined);
    assert.equal(transcriptionRoute("nope", listed, []), undefined);
  });

  it("lists the filtered answer as it came", () => {
    assert.deepEqual(
      transcriptionSlice(listed, []).map((m) => m.id),
      ["openai/whisper-1", "vendor/stt"],
    );
  });
});

describe("transcription models when the server ignores the filter (self-hosted)", () => {
  // Both servers tried returned every chat model for ?output_modalities=transcription.
  const all = [
    model("qwen"),
    model("whisper-tiny"),
    model("omni", ["text", "audio"], ["text"]),
    model("stt", [], ["transcription"]),
  ];
  const listed = { transcription: all, text: all };

  it("keeps only models that declare audio input or transcription output", () => {
    assert.deepEqual(
      transcriptionSlice(listed, []).map((m) => m.id),
      ["omni", "stt"],
    );
    assert.equal(
      transcriptionRoute("qwen", listed, []),
      undefined,
      "a chat-only model is never sent to /audio/transcriptions",
    );
    assert.equal(transcriptionRoute("whisper-tiny", listed, []), undefined);
    assert.equal(transcriptionRoute("omni", listed, []), "chat");
    assert.equal(transcriptionRoute("stt", listed, []), "transcriptions");
  });

  it("adds models the user marked as transcription models, listed or not", () => {
    const entries = [
      { id: "whisper-tiny", kind: "transcription" as const },
      { id: "openai/whisper@main", label: "Whisper (main)", kind: "transcription" as const },
      { id: "qwen", kind: "chat" as const },
    ];
    const slice = transcriptionSlice(listed, entries);
    assert.deepEqual(
      slice.map((m) => m.id),
      ["whisper-tiny", "omni", "stt", "openai/whisper@main"],
    );
    assert.deepEqual(slice[3], {
      id: "openai/whisper@main",
      label: "Whisper (main)",
      contextLength: null,
      pricing: {},
      inputModalities: ["audio"],
      outputModalities: ["transcription"],
    });
    assert.equal(transcriptionRoute("whisper-tiny", listed, entries), "transcriptions");
    assert.equal(transcriptionRoute("openai/whisper@main", { transcription: [], text: [] }, entries), "transcriptions");
    assert.equal(transcriptionRoute("qwen", listed, entries), undefined);
  });

  it("lets a model marked as chat keep out of /audio/transcriptions", () => {
    assert.equal(transcriptionRoute("stt", listed, [{ id: "stt", kind: "chat" }]), undefined);
  });
});

describe("model settings entries", () => {
  it("reads valid entries with their price and kind, skipping damaged ones", () => {
    const entries = modelEntries({
      models: [
        { id: "a", pricing: { prompt: 0.000001, completion: 0.000002 }, kind: "transcription" },
        { id: "" },
        { id: "b", pricing: { prompt: -1, completion: 0 } },
        "x",
        { id: "c", extra: true },
      ],
    });
    assert.deepEqual(
      entries.map((e) => e.id),
      ["a", "c"],
    );
    assert.deepEqual(userPricing(entries, "a"), { prompt: 0.000001, completion: 0.000002 });
    assert.equal(userPricing(entries, "c"), undefined);
    assert.deepEqual(modelEntries({}), []);
    assert.deepEqual(modelEntries({ models: "no" }), []);
  });
});

describe("how a turn's end is stored", () => {
  it("marks a cut at the token limit as truncated, not complete", () => {
    assert.equal(messageStatusFor("length", false), "truncated");
    assert.equal(messageStatusFor("stop", false), "complete");
    assert.equal(messageStatusFor("tool_calls", false), "complete");
    assert.equal(messageStatusFor("error", true), "error");
    assert.equal(messageStatusFor("cancelled", false), "cancelled");
    assert.equal(messageStatusFor("cancelled", true), "cancelled");
  });
});
