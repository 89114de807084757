// The context meter as people read it: "31k / 128k tokens", how full (a level that colours the
// bar), and the layers of the request with friendly names. Pure, so the thresholds are tested.
import { formatCost } from "./format";
import type { ContextReport } from "$shared/context";

export type ContextLevel = "normal" | "warning" | "error";
export type ContextLayer = { key: keyof ContextReport["layers"]; label: string; tokens: number };

/** The layers in the order a request is built, with the names the UI gives them. */
const LAYER_LABELS: [ContextLayer["key"], string][] = [
  ["system", "System"],
  ["instructions", "Instructions"],
  ["tools", "Tool definitions"],
  ["files", "Files"],
  ["history", "Conversation"],
  ["toolOutputs", "Tool outputs"],
  ["summary", "Summary"],
];

/** A token count in a few characters: 950, 1.2k, 31k, 128k, 1.5M. */
export function formatTokenCount(tokens: number): string {
  const n = Math.max(0, Math.round(tokens));
  if (n < 1000) return String(n);
  if (n < 10_000) return `${trimmed(n / 1000)}k`;
  // 999,600 would round to "1000k": say 1M instead.
  if (n < 999_500) return `${Math.round(n / 1000)}k`;
  return `${trimmed(n / 1_000_000)}M`;
}

/** One decimal, without a trailing ".0". */
const trimmed = (value: number): string => String(Math.round(value * 10) / 10);

/** How full the window is, from 0 to 1 (a request over the limit is full). */
export function contextShare(report: Pick<ContextReport, "used" | "limit">): number {
  if (!(report.limit > 0)) return 0;
  return Math.min(1, Math.max(0, report.used / report.limit));
}

/** Under 60% normal, 60% to 85% a warning, above 85% an error. */
export function contextLevel(share: number): ContextLevel {
  if (share > 0.85) return "error";
  if (share >= 0.6) return "warning";
  return "normal";
}

/** The percentage as shown: a request that uses anything shows at least 1%, and never over 100%. */
export function contextPercent(report: Pick<ContextReport, "used" | "limit">): number {
  const share = contextShare(report);
  if (share === 0) return 0;
  return Math.min(100, Math.max(1, Math.round(share * 100)));
}

/** "31k / 128k tokens · 24%". */
export function contextSummary(report: Pick<ContextReport, "used" | "limit">): string {
  return `${formatTokenCount(report.used)} / ${formatTokenCount(report.limit)} tokens · ${contextPercent(report)}%`;
}

/** Every layer, in order, with its friendly name and tokens. */
export function contextLayers(report: Pick<ContextReport, "layers">): ContextLayer[] {
  return LAYER_LABELS.map(([key, label]) => ({ key, label, tokens: report.layers[key] }));
}

/** Whether the figure is Parley's count before sending or the model's own. */
export function contextSourceLabel(source: ContextReport["source"]): string {
  return source === "upstream" ? "Counted by the model" : "Estimated by Parley";
}

/**
 * What sending the chat's next request would cost before its answer (GET …/context only; the live
 * events leave it out): in words, or undefined when the server did not say.
 */
export function nextRequestCostLabel(report: Pick<ContextReport, "nextRequestCost">): string | undefined {
  if (report.nextRequestCost === undefined) return undefined;
  if (report.nextRequestCost === null) return "The next request's cost is unknown: no price is known for this model.";
  return `The next request costs about ${formatCost(report.nextRequestCost)} before its answer.`;
}
