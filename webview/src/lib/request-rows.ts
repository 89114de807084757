// The upstream requests of one turn as the usage detail's table shows them: one row a request, in
// step order, saying what caused it, its tokens, how much of its prompt came from the cache and its cost.
import type { UpstreamRequest } from "$shared/requests";
import { formatCachedShare, formatCost } from "./format";

export interface RequestRow {
  key: string;
  step: number;
  cause: string;
  prompt: string;
  cached: string;
  output: string;
  cost: string;
}

const CAUSE_LABELS: Record<UpstreamRequest["cause"], string> = {
  turn: "Turn",
  tool_step: "After tools",
  retry: "Retry",
  compaction: "Compaction",
  subagent: "Subagent",
};

export function causeLabel(cause: UpstreamRequest["cause"]): string {
  return CAUSE_LABELS[cause];
}

/** The share of a prompt read from the cache: "82%", "0%" when none was, "—" without a prompt. */
export function cachedPercent(request: Pick<UpstreamRequest, "promptTokens" | "cachedTokens">): string {
  if (!(request.promptTokens > 0)) return "—";
  return formatCachedShare(request).replace(/ cached$/, "") || "0%";
}

export function requestCost(request: Pick<UpstreamRequest, "cost" | "costSource">): string {
  if (request.cost === null) return "unknown";
  return `${formatCost(request.cost)}${request.costSource === "estimate" ? " (est.)" : ""}`;
}

/** The rows of one turn's requests, in step order (then time, for a subagent's own steps). */
export function turnRequestRows(requests: readonly UpstreamRequest[], turnId: string): RequestRow[] {
  return requests
    .filter((request) => request.turnId === turnId)
    .sort((a, b) => a.step - b.step || a.at.localeCompare(b.at))
    .map((request, index) => ({
      key: `${request.step}-${request.at}-${index}`,
      step: request.step,
      cause: causeLabel(request.cause),
      prompt: request.promptTokens.toLocaleString(),
      cached: cachedPercent(request),
      output: request.completionTokens.toLocaleString(),
      cost: requestCost(request),
    }));
}
