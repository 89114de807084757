// The fake gateway's model list, in the gateway's own /models shape (prices are USD strings per token).
// Cache prices follow the vendors: behind explicit marks (`anthropic/*`, `google/gemini*`) a cached
// token costs 10% of the prompt price and a written one 125%; elsewhere a cached token costs 50%.
import { needsExplicitMarks } from "./prompt-cache";

export type RawModel = {
  id: string;
  name: string;
  context_length: number;
  pricing: Record<string, string>;
  architecture: { input_modalities: string[]; output_modalities: string[] };
};

export const DEFAULT_CONTEXT_LENGTH = 128_000;

/** A price times a factor, as a short decimal string ("3.75e-6", not "0.0000037500000000000005"). */
const times = (price: string, factor: number) => String(Number((Number(price) * factor).toPrecision(12)));

const model = (
  id: string,
  name: string,
  prompt: string,
  completion: string,
  input = ["text"],
  output = ["text"],
  contextLength = DEFAULT_CONTEXT_LENGTH,
): RawModel => ({
  id,
  name,
  context_length: contextLength,
  pricing: needsExplicitMarks(id)
    ? {
        prompt,
        completion,
        request: "0",
        input_cache_read: times(prompt, 0.1),
        input_cache_write: times(prompt, 1.25),
      }
    : { prompt, completion, request: "0", input_cache_read: times(prompt, 0.5) },
  architecture: { input_modalities: input, output_modalities: output },
});

export const TEXT_MODELS: RawModel[] = [
  model("fake/echo", "Fake: Echo", "0.000001", "0.000002"),
  model("fake/slow", "Fake: Slow talker", "0.000001", "0.000002"),
  model("fake/reasoner", "Fake: Reasoner", "0.000003", "0.000015"),
  // Every answer stops at the token limit (finish_reason "length"), to see how a cut answer shows.
  model("fake/short", "Fake: Cut off at the token limit", "0.000001", "0.000002"),
  // Calls Parley's tools when told to ("shell: ls", "write: a.txt hello", "edit: a.txt old => new",
  // "ask: question?", "tasks: a, b", "long: 50 20") and answers with what the last tool said (tool-script.ts).
  model("fake/tools", "Fake: Uses tools", "0.000001", "0.000002"),
  // fake/tools with a 16,000-token window, so a test can overflow it cheaply.
  model("fake/small-context", "Fake: Uses tools, 16k window", "0.000001", "0.000002", ["text"], ["text"], 16_000),
  // A scripted long session: N steps that each read about K KB with the file tool (or print it with
  // shell), then a final answer that says whether the needle is still in the request (long-session.ts).
  model("fake/agent-long", "Fake: Long agent session", "0.000001", "0.000002"),
  // fake/tools under vendor names whose cache works only behind cache_control marks.
  model("anthropic/fake-claude", "Anthropic: Fake Claude (uses tools)", "0.000003", "0.000015"),
  model("google/gemini-fake", "Google: Fake Gemini (uses tools)", "0.0000003", "0.0000025"),
  // For benchmarks: numbered pieces ("t0 t1 …") sent as fast as possible, so order and loss can be checked.
  model("fake/fast", "Fake: 20 quick pieces", "0.000001", "0.000002"),
  model("fake/burst", "Fake: 2000 quick pieces", "0.000001", "0.000002"),
  // About 100 KB of mixed markdown in 2,000 pieces, 2 ms apart (long-markdown.ts); its window holds a
  // 10,000-message chat, so the transcript benchmark can stream into one.
  model("fake/long-markdown", "Fake: A long markdown answer", "0.000001", "0.000002", ["text"], ["text"], 50_000_000),
  model("openai/gpt-4o-mini", "OpenAI: GPT-4o-mini", "0.00000015", "0.0000006"),
  model("anthropic/claude-sonnet-4", "Anthropic: Claude Sonnet 4", "0.000003", "0.000015"),
  model("google/gemini-2.5-flash", "Google: Gemini 2.5 Flash (audio in)", "0.0000003", "0.0000025", [
    "text",
    "image",
    "audio",
  ]),
];

export const TRANSCRIPTION_MODELS: RawModel[] = [
  model("openai/whisper-1", "OpenAI: Whisper", "0.0000001", "0", ["audio"], ["transcription"]),
];
