// What a transcription cost, in the ledger's one usage shape. The transcription endpoint reports
// `usage` as `{input_tokens, output_tokens, total_tokens, seconds, cost}` (the gateway) or OpenAI's
// `{type:"tokens", …}` / `{type:"duration", seconds}`; an audio-input chat model reports chat usage.
// The gateway's cost wins; without it, the model's price times the reported tokens; without tokens
// either, the audio's size is unknown, so the cost is unknown (null), never a made-up 0. Pure.
import type { Usage } from "../shared/usage";
import type { UpstreamUsage } from "../gateway/upstream-chunk";
import { estimateTokens, MAX_STEP_COST_USD, normalizeUsage, type ClampReport, type Pricing } from "../chat/usage";

const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/** The endpoint's usage as chat usage: `input_tokens`/`output_tokens` read as prompt/completion tokens. */
export function upstreamTranscriptionUsage(raw: unknown): UpstreamUsage | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const usage = raw as Record<string, unknown>;
  const prompt = num(usage.prompt_tokens) ?? num(usage.input_tokens);
  const completion = num(usage.completion_tokens) ?? num(usage.output_tokens);
  const total = num(usage.total_tokens);
  const cost = num(usage.cost);
  if (prompt === undefined && completion === undefined && total === undefined && cost === undefined) return undefined;
  const details = usage.prompt_tokens_details as { cached_tokens?: number } | undefined;
  return {
    ...(prompt !== undefined ? { prompt_tokens: prompt } : {}),
    ...(completion !== undefined ? { completion_tokens: completion } : {}),
    ...(total !== undefined ? { total_tokens: total } : {}),
    ...(usage.cost !== undefined ? { cost: usage.cost as number } : {}),
    ...(details && typeof details === "object" ? { prompt_tokens_details: details } : {}),
  };
}

export function transcriptionUsage(
  raw: unknown,
  transcript: string,
  pricing: Pricing | undefined,
  report?: ClampReport,
): Usage {
  const upstream = upstreamTranscriptionUsage(raw);
  const cost = upstream?.cost;
  const gatewayCost = typeof cost === "number" && cost >= 0 && cost <= MAX_STEP_COST_USD;
  if (upstream && (upstream.prompt_tokens !== undefined || gatewayCost))
    return normalizeUsage(upstream, pricing, report);
  if (cost !== undefined) report?.("cost", cost);
  // No tokens for the audio: the transcript's own tokens can be estimated, the audio's cannot.
  const completionTokens =
    upstream?.completion_tokens !== undefined
      ? normalizeUsage(upstream, undefined, report).completionTokens
      : estimateTokens(transcript);
  return {
    promptTokens: 0,
    completionTokens,
    totalTokens: completionTokens,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    cost: null,
    costSource: "estimate",
  };
}
