// Usage and cost per turn, the same for every provider: the gateway's own cost when it reports one,
// otherwise an estimate from live prices; token counts estimated when a stream ended without usage.
import type { Usage, UsageTotals } from "../shared/usage";
import type { UpstreamUsage } from "./upstream-chunk";

/** USD per token, as the gateway's model catalog lists them. */
export type Pricing = Partial<Record<"prompt" | "completion" | "request" | "input_cache_read", number>>;

const nonNegativeInt = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

export function estimateCost(tokens: Pick<Usage, "promptTokens" | "completionTokens" | "cachedTokens">, pricing: Pricing | undefined): number | null {
  if (!pricing || pricing.prompt === undefined || pricing.completion === undefined) return null;
  const cached = Math.min(tokens.cachedTokens, tokens.promptTokens);
  const cachedPrice = pricing.input_cache_read ?? pricing.prompt;
  return (tokens.promptTokens - cached) * pricing.prompt + cached * cachedPrice + tokens.completionTokens * pricing.completion + (pricing.request ?? 0);
}

export function normalizeUsage(raw: UpstreamUsage, pricing: Pricing | undefined): Usage {
  const promptTokens = nonNegativeInt(raw.prompt_tokens);
  const completionTokens = nonNegativeInt(raw.completion_tokens);
  const tokens = {
    promptTokens,
    completionTokens,
    totalTokens: nonNegativeInt(raw.total_tokens) || promptTokens + completionTokens,
    cachedTokens: nonNegativeInt(raw.prompt_tokens_details?.cached_tokens),
    reasoningTokens: nonNegativeInt(raw.completion_tokens_details?.reasoning_tokens),
  };
  if (typeof raw.cost === "number" && Number.isFinite(raw.cost) && raw.cost >= 0) {
    return { ...tokens, cost: raw.cost, costSource: "gateway" };
  }
  return { ...tokens, cost: estimateCost(tokens, pricing), costSource: "estimate" };
}

/** About four characters a token: good enough to account for a turn the gateway never reported. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimateUsage(promptText: string, completionText: string, pricing: Pricing | undefined): Usage {
  const promptTokens = estimateTokens(promptText);
  const completionTokens = estimateTokens(completionText);
  const tokens = { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, cachedTokens: 0, reasoningTokens: 0 };
  return { ...tokens, cost: estimateCost(tokens, pricing), costSource: "estimate" };
}

export function emptyTotals(): UsageTotals {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0, cachedTokens: 0, reasoningTokens: 0, cost: 0, turns: 0 };
}

export function addToTotals(totals: UsageTotals, usage: Usage): UsageTotals {
  return {
    promptTokens: totals.promptTokens + usage.promptTokens,
    completionTokens: totals.completionTokens + usage.completionTokens,
    totalTokens: totals.totalTokens + usage.totalTokens,
    cachedTokens: totals.cachedTokens + usage.cachedTokens,
    reasoningTokens: totals.reasoningTokens + usage.reasoningTokens,
    cost: totals.cost + (usage.cost ?? 0),
    turns: totals.turns + 1,
  };
}
