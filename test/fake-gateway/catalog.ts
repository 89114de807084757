// The fake gateway's model list, in the gateway's own /models shape (prices are USD strings per token).
export type RawModel = {
  id: string;
  name: string;
  context_length: number;
  pricing: Record<string, string>;
  architecture: { input_modalities: string[]; output_modalities: string[] };
};

const model = (
  id: string,
  name: string,
  prompt: string,
  completion: string,
  input = ["text"],
  output = ["text"],
): RawModel => ({
  id,
  name,
  context_length: 128_000,
  pricing: { prompt, completion, request: "0", input_cache_read: (Number(prompt) / 10).toString() },
  architecture: { input_modalities: input, output_modalities: output },
});

export const TEXT_MODELS: RawModel[] = [
  model("fake/echo", "Fake: Echo", "0.000001", "0.000002"),
  model("fake/slow", "Fake: Slow talker", "0.000001", "0.000002"),
  model("fake/reasoner", "Fake: Reasoner", "0.000003", "0.000015"),
  // Every answer stops at the token limit (finish_reason "length"), to see how a cut answer shows.
  model("fake/short", "Fake: Cut off at the token limit", "0.000001", "0.000002"),
  // Calls Parley's tools when told to ("shell: ls", "write: a.txt hello", "edit: a.txt old => new",
  // "ask: question?", "tasks: a, b") and answers with what the last tool said.
  model("fake/tools", "Fake: Uses tools", "0.000001", "0.000002"),
  // For benchmarks: numbered pieces ("t0 t1 …") sent as fast as possible, so order and loss can be checked.
  model("fake/fast", "Fake: 20 quick pieces", "0.000001", "0.000002"),
  model("fake/burst", "Fake: 2000 quick pieces", "0.000001", "0.000002"),
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
