// When and what to compact (contract 7.3), as a plan over the request's messages. Pure: the caller
// counts, and carries the plan out (stubs the pruned outputs, has the summary written).
//
// Before a request whose estimate (the pending message and the tool definitions included) passes
// `threshold × window − min(max output, 16000)`: first the tool outputs older than the most recent
// `keepRecentTokens` (at most a third of the window) become one-line stubs; if that is not enough,
// everything before the recent part is summarised. Never touched: the system messages (prompt,
// environment, agent files, skills), the chat's first user message and the latest summary. The recent
// part never starts inside a step: an assistant message with tool calls keeps its results.
import type { LayeredMessage } from "./context-layers";

/** Output tokens reserved for the answer, at most (contract 7.3). */
export const MAX_RESERVED_OUTPUT = 16_000;

export type CompactionSettings = {
  window: number;
  /** Share of the window past which a request is compacted first (0.5 to 0.95). */
  threshold: number;
  keepRecentTokens: number;
  /** The model's largest answer, where known. */
  maxOutput?: number;
};

export type CompactionPlan = {
  /** Where compaction starts: `threshold × window − reserved output`. */
  budget: number;
  before: number;
  /** Tool outputs to replace with a stub (indices into the messages). */
  prune: number[];
  /** Messages [from, to) to replace with the summary, skipping the pinned ones inside. */
  summarise?: { from: number; to: number };
  /** The estimate once the outputs are pruned (before any summary). */
  afterPrune: number;
};

/**
 * Where compaction starts. The reserve for the answer is the model's largest answer, at most 16,000
 * tokens, and, where the largest answer is not known, at most a quarter of the window: a small
 * window would otherwise be all reserve, and every request compacted.
 */
export function compactionBudget(settings: CompactionSettings): number {
  const reserved = Math.min(settings.maxOutput ?? Math.floor(settings.window / 4), MAX_RESERVED_OUTPUT);
  return Math.max(0, Math.floor(settings.threshold * settings.window) - reserved);
}

/** The messages compaction never touches. */
export function pinnedIndices(messages: readonly LayeredMessage[]): Set<number> {
  const pinned = new Set<number>();
  let firstUser = true;
  messages.forEach(({ message, layer }, i) => {
    if (layer === "system" || layer === "instructions" || layer === "summary") pinned.add(i);
    else if (firstUser && message.role === "user" && layer === "history") {
      pinned.add(i);
      firstUser = false;
    }
  });
  return pinned;
}

/** The first index of the recent part: the last `keep` tokens, widened so no step is cut in two. */
export function recentStart(messages: readonly LayeredMessage[], tokens: readonly number[], keep: number): number {
  let start = messages.length;
  let kept = 0;
  while (start > 0 && kept + tokens[start - 1]! <= keep) kept += tokens[--start]!;
  // A tool result belongs with the assistant message that called it.
  while (start > 0 && start < messages.length && messages[start]!.message.role === "tool") start--;
  return start;
}

/**
 * How many of the most recent tokens stay whole: `keepRecentTokens`, at most a third of the window.
 * Compacting a conversation that fits (Compact now, an overflow the estimate missed) keeps at most
 * half of what is not pinned, so there is always an older half to summarise.
 */
export function keptTokens(
  tokens: readonly number[],
  pinned: ReadonlySet<number>,
  settings: CompactionSettings,
  force: boolean,
): number {
  const keep = Math.min(settings.keepRecentTokens, Math.floor(settings.window / 3));
  if (!force) return keep;
  let unpinned = 0;
  tokens.forEach((count, i) => {
    if (!pinned.has(i)) unpinned += count;
  });
  return Math.min(keep, Math.floor(unpinned / 2));
}

/**
 * The plan for one request, or undefined when it fits. `tokens[i]` counts messages[i]; `stubTokens`
 * what a pruned output's stub costs; `extra` the tool definitions. `force` (Compact now, an overflow)
 * plans even when the request fits, down to a summary.
 */
export function planCompaction(
  messages: readonly LayeredMessage[],
  tokens: readonly number[],
  extra: number,
  settings: CompactionSettings,
  options: {
    stubTokens: number;
    force?: boolean;
    prunedAlready?: ReadonlySet<number>;
    /**
     * Whether pruning alone may do (default true). A pruned output is gone from the request until a
     * summary reads it (from the stored transcript), so the caller allows one prune-only compaction
     * between summaries: nothing pruned stays unread for more than one round.
     */
    pruneOnly?: boolean;
  },
): CompactionPlan | undefined {
  const budget = compactionBudget(settings);
  const before = extra + tokens.reduce((a, b) => a + b, 0);
  if (before <= budget && !options.force) return undefined;
  const pinned = pinnedIndices(messages);
  const recent = recentStart(messages, tokens, keptTokens(tokens, pinned, settings, options.force === true));
  const prune: number[] = [];
  let afterPrune = before;
  for (let i = 0; i < recent; i++) {
    if (pinned.has(i) || messages[i]!.layer !== "toolOutputs" || options.prunedAlready?.has(i)) continue;
    if (tokens[i]! <= options.stubTokens) continue;
    prune.push(i);
    afterPrune -= tokens[i]! - options.stubTokens;
  }
  const plan: CompactionPlan = { budget, before, prune, afterPrune };
  if (afterPrune <= budget && !options.force && options.pruneOnly !== false) return plan;
  // Summarise everything before the recent part that is not pinned (if there is anything).
  let from = 0;
  while (from < recent && pinned.has(from)) from++;
  if (from < recent) plan.summarise = { from, to: recent };
  return plan;
}
