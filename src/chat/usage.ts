// Usage and cost per turn, the same for every provider: the gateway's own cost when it reports one,
// otherwise an estimate from the user's price for the model or the catalog's live prices; token
// counts estimated when a stream ended without usage. An unknown cost stays unknown (null), in a
// turn and in every total that includes it: counting it as 0 would understate what was spent.
import type { Usage, UsageTotals } from "../shared/usage";
import type { UpstreamUsage } from "../gateway/upstream-chunk";

/** USD per token, as the gateway's model catalog lists them. */
export type Pricing = Partial<
  Record<"prompt" | "completion" | "request" | "input_cache_read" | "input_cache_write", number>
>;

/** Bounds on what one upstream step may report; anything beyond is a broken or hostile upstream. */
export const MAX_STEP_TOKENS = 100_000_000;
export const MAX_STEP_COST_USD = 10_000;

/** Called when an upstream figure was out of range and replaced, so the caller can log it. */
export type ClampReport = (field: string, value: unknown) => void;

function tokenCount(value: unknown, field: string, report?: ClampReport): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return 0;
  if (value > MAX_STEP_TOKENS) {
    report?.(field, value);
    return MAX_STEP_TOKENS;
  }
  return Math.round(value);
}

export function estimateCost(
  tokens: Pick<Usage, "promptTokens" | "completionTokens" | "cachedTokens"> & { cacheWriteTokens?: number },
  pricing: Pricing | undefined,
): number | null {
  if (!pricing || pricing.prompt === undefined || pricing.completion === undefined) return null;
  const cached = Math.min(tokens.cachedTokens, tokens.promptTokens);
  const written = Math.min(tokens.cacheWriteTokens ?? 0, tokens.promptTokens - cached);
  const cachedPrice = pricing.input_cache_read ?? pricing.prompt;
  const writePrice = pricing.input_cache_write ?? pricing.prompt;
  return (
    (tokens.promptTokens - cached - written) * pricing.prompt +
    cached * cachedPrice +
    written * writePrice +
    tokens.completionTokens * pricing.completion +
    (pricing.request ?? 0)
  );
}

/** The gateway's usage in one shape; absurd figures (`1e308` tokens, a negative or huge cost) are clamped and reported. */
export function normalizeUsage(raw: UpstreamUsage, pricing: Pricing | undefined, report?: ClampReport): Usage {
  const promptTokens = tokenCount(raw.prompt_tokens, "prompt_tokens", report);
  const completionTokens = tokenCount(raw.completion_tokens, "completion_tokens", report);
  const tokens = {
    promptTokens,
    completionTokens,
    totalTokens: Math.min(
      tokenCount(raw.total_tokens, "total_tokens", report) || promptTokens + completionTokens,
      2 * MAX_STEP_TOKENS,
    ),
    cachedTokens: tokenCount(raw.prompt_tokens_details?.cached_tokens, "cached_tokens", report),
    cacheWriteTokens: tokenCount(raw.prompt_tokens_details?.cache_write_tokens, "cache_write_tokens", report),
    reasoningTokens: tokenCount(raw.completion_tokens_details?.reasoning_tokens, "reasoning_tokens", report),
  };
  if (typeof raw.cost === "number" && Number.isFinite(raw.cost) && raw.cost >= 0 && raw.cost <= MAX_STEP_COST_USD) {
    return { ...tokens, cost: raw.cost, costSource: "gateway" };
  }
  if (raw.cost !== undefined && raw.cost !== null) report?.("cost", raw.cost);
  return { ...tokens, cost: clampCost(estimateCost(tokens, pricing), report), costSource: "estimate" };
}

function clampCost(cost: number | null, report?: ClampReport): number | null {
  if (cost === null || (Number.isFinite(cost) && cost >= 0 && cost <= MAX_STEP_COST_USD)) return cost;
  report?.("estimated cost", cost);
  return Number.isFinite(cost) && cost > 0 ? MAX_STEP_COST_USD : null;
}

/** About four characters a token: good enough to account for a turn the gateway never reported. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimateUsage(promptText: string, completionText: string, pricing: Pricing | undefined): Usage {
  const promptTokens = estimateTokens(promptText);
  const completionTokens = estimateTokens(completionText);
  const tokens = {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  };
  return { ...tokens, cost: estimateCost(tokens, pricing), costSource: "estimate" };
}

/** The prices a turn is estimated with: the user's own (`models[].pricing`) before the catalog's. */
export function effectivePricing(
  userPricing: Pricing | undefined,
  catalogPricing: Pricing | undefined,
): Pricing | undefined {
  if (userPricing?.prompt !== undefined && userPricing.completion !== undefined) return userPricing;
  return catalogPricing;
}

export function emptyTotals(): UsageTotals {
  return {
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    cost: 0,
    unknownCostTurns: 0,
    turns: 0,
  };
}

/** Token counts and cost of two usages added up; the cost is unknown (null) if either is. */
function addCounts(
  a: Pick<Usage, TokenField | "cost">,
  b: Pick<Usage, TokenField | "cost">,
): Pick<Usage, TokenField | "cost"> {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    cost: a.cost === null || b.cost === null ? null : a.cost + b.cost,
  };
}

type TokenField = "promptTokens" | "completionTokens" | "totalTokens" | "cachedTokens" | "reasoningTokens";

export function addToTotals(totals: UsageTotals, usage: Usage): UsageTotals {
  return {
    ...addCounts(totals, usage),
    unknownCostTurns: totals.unknownCostTurns + (usage.cost === null ? 1 : 0),
    turns: totals.turns + 1,
  };
}

/** Two steps of one turn as one usage: tokens add up; the cost is unknown if either is. */
export function sumUsage(a: Usage, b: Usage): Usage {
  return {
    ...addCounts(a, b),
    cacheWriteTokens: (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0),
    costSource: a.costSource === "gateway" && b.costSource === "gateway" ? "gateway" : "estimate",
  };
}
