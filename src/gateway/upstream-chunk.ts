// Interprets one parsed chat-completions chunk (OpenAI shape, as the gateway streams it) into
// the few things Parley cares about. Pure, so every odd chunk shape is unit-tested.
import { isPlainObject as isObject } from "../settings/settings-merge";
import { errorBodyMessage, errorStatus } from "./upstream-error";

export type UpstreamUsage = {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  cost?: number;
  /** `cache_write_tokens`: OpenRouter's count of prompt tokens written to the vendor's cache. */
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
};

export type ToolCallDelta = { index: number; id?: string; name?: string; argumentsDelta: string };

export type ChunkPart =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "tool_call"; delta: ToolCallDelta }
  | { type: "usage"; usage: UpstreamUsage }
  | { type: "finish"; reason: string }
  | { type: "error"; code: string; message: string; status?: number };

type Json = Record<string, unknown>;

export function interpretChunk(chunk: unknown): ChunkPart[] {
  if (!isObject(chunk)) return [];
  const parts: ChunkPart[] = [];
  if (isErrorChunk(chunk)) parts.push(errorPart(chunk));
  const choice = Array.isArray(chunk.choices) && isObject(chunk.choices[0]) ? chunk.choices[0] : undefined;
  const delta = choice && isObject(choice.delta) ? choice.delta : undefined;
  if (delta) {
    const reasoning =
      typeof delta.reasoning === "string"
        ? delta.reasoning
        : typeof delta.reasoning_content === "string"
          ? delta.reasoning_content
          : "";
    if (reasoning) parts.push({ type: "reasoning", text: reasoning });
    if (typeof delta.content === "string" && delta.content) parts.push({ type: "text", text: delta.content });
    if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls) {
        if (!isObject(call)) continue;
        const fn = isObject(call.function) ? call.function : {};
        parts.push({
          type: "tool_call",
          delta: {
            index: typeof call.index === "number" ? call.index : 0,
            id: typeof call.id === "string" ? call.id : undefined,
            name: typeof fn.name === "string" ? fn.name : undefined,
            argumentsDelta: typeof fn.arguments === "string" ? fn.arguments : "",
          },
        });
      }
    }
  }
  if (isObject(chunk.usage)) parts.push({ type: "usage", usage: chunk.usage as UpstreamUsage });
  if (choice && typeof choice.finish_reason === "string" && choice.finish_reason) {
    // An error chunk carries finish_reason "error" as well; the error part already says it.
    if (!(choice.finish_reason === "error" && parts.some((p) => p.type === "error"))) {
      parts.push(
        choice.finish_reason === "error"
          ? { type: "error", code: "upstream_error", message: "the model stopped with an error" }
          : { type: "finish", reason: choice.finish_reason },
      );
    }
  }
  return parts;
}

/**
 * An error chunk: `{error:{message, code}}` (OpenRouter, LiteLLM), `{error:"…"}` (`transformers
 * serve`), older vLLM's top-level `{object:"error", message, code}`, or, from servers that stream an
 * error body as it is, any chunk without `choices` that carries a message: `{detail:"…"}` and
 * FastAPI's `{detail:[{msg}]}`, or a bare `{message}`.
 */
function isErrorChunk(chunk: Json): boolean {
  if (isObject(chunk.error) || (typeof chunk.error === "string" && chunk.error) || chunk.object === "error")
    return true;
  return !("choices" in chunk) && errorBodyMessage(chunk) !== undefined;
}

function errorPart(chunk: Json): ChunkPart {
  const error = isObject(chunk.error) ? chunk.error : chunk;
  const message = errorBodyMessage(chunk) ?? "the gateway reported an error";
  const status = errorStatus(error);
  // A named code (`invalid_api_key`) tells the UI more than a status would; a number is the status.
  const code =
    typeof error.code === "string" && error.code && !/^\d+$/.test(error.code) ? error.code : "upstream_error";
  return { type: "error", code, message, ...(status !== undefined ? { status } : {}) };
}
