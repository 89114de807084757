// Whether an upstream's refusal says the request is too long for the model's context (contract 7.3:
// any dialect, a 400 or 413 whose message speaks of context length or too many tokens). Such an
// answer is compacted and sent again once. Pure.

const OVERFLOW_WORDING = [
  /context[\s_-]*(length|window|size|limit)/i, // OpenAI, OpenRouter, vLLM, LiteLLM, llama.cpp
  /too many (input |prompt )?tokens/i,
  /prompt is too long/i, // Anthropic
  /input token count .* exceeds/i, // Gemini
  /(maximum|max)[\s_-]*(number of )?tokens/i,
  /token limit/i,
  /too large for model/i, // Mistral
];

export function isContextOverflow(error: { status?: number; message: string } | undefined): boolean {
  if (!error || (error.status !== 400 && error.status !== 413)) return false;
  return OVERFLOW_WORDING.some((pattern) => pattern.test(error.message));
}
