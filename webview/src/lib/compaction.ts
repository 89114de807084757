// A compaction as the chat shows it (contract 7.3): the card's data from a stored entry (role
// `compaction`) or from the live `compaction` event, what happened in words, whether its summary is
// long enough to start collapsed, and the answers of its routes in words. Pure, so it is tested.
import { z } from "zod";
import type { Message } from "$shared/chats";
import { COMPACTION_REASONS, MAX_SUMMARY_CHARS, type CompactionEvent, type CompactionReason } from "$shared/compaction";
import { ApiError } from "./api/client";

export type CompactionCardData = {
  id: string;
  reason: CompactionReason;
  tokensBefore: number;
  tokensAfter: number;
  prunedOutputs: number;
  /** "" for an entry that only pruned old tool outputs. */
  summary: string;
  /** Whether the server keeps a summary to edit (a prune-only entry has none: 409). */
  editable: boolean;
  edited: boolean;
  /** The model that wrote the summary. */
  model?: string;
};

const count = z.number().int().nonnegative().catch(0);
// Loose on purpose: a newer server's entry, or a damaged one, still shows as a card.
const storedMetaSchema = z
  .object({
    reason: z.enum(COMPACTION_REASONS).catch("auto"),
    tokensBefore: count,
    tokensAfter: count,
    prunedOutputs: count,
    through: z.string().optional().catch(undefined),
    model: z.string().optional().catch(undefined),
    edited: z.boolean().optional().catch(undefined),
  })
  .catch({ reason: "auto", tokensBefore: 0, tokensAfter: 0, prunedOutputs: 0 });

/** A stored entry as a card. */
export function compactionFromMessage(message: Message): CompactionCardData {
  const meta = storedMetaSchema.parse(message.meta ?? {});
  return {
    id: message.id,
    reason: meta.reason,
    tokensBefore: meta.tokensBefore,
    tokensAfter: meta.tokensAfter,
    prunedOutputs: meta.prunedOutputs,
    summary: message.content,
    editable: message.content.trim() !== "" && meta.through !== undefined,
    edited: meta.edited === true,
    ...(meta.model ? { model: meta.model } : {}),
  };
}

/**
 * The messages with each compaction a turn made before one of its requests put before that request's
 * answer, where the live turn showed it. The server stores a step's assistant row when the step
 * begins, before the compaction that step's request waits for, so the stored entry follows that row.
 * "Compact now" (between turns) stays where it is.
 */
export function compactionsInPlace(messages: readonly Message[]): Message[] {
  const ordered = [...messages];
  for (let i = 1; i < ordered.length; i++) {
    const entry = ordered[i]!;
    const before = ordered[i - 1]!;
    const duringTurn = entry.meta?.reason === "auto" || entry.meta?.reason === "overflow";
    if (entry.role === "compaction" && duringTurn && before.role === "assistant" && before.meta?.turnId) {
      ordered[i - 1] = entry;
      ordered[i] = before;
    }
  }
  return ordered;
}

/** The live event as a card (its summary, when there is one, is the entry's own: it can be edited). */
export function compactionFromEvent(event: CompactionEvent): CompactionCardData {
  const summary = event.summary ?? "";
  return {
    id: event.id,
    reason: event.reason,
    tokensBefore: event.tokensBefore,
    tokensAfter: event.tokensAfter,
    prunedOutputs: event.prunedOutputs,
    summary,
    editable: summary.trim() !== "",
    edited: false,
  };
}

const HEADLINES: Record<CompactionReason, string> = {
  auto: "Context compacted automatically",
  manual: "Compacted on request",
  overflow: "Compacted after the model said the conversation was too long",
};

/** Why the compaction happened, in words. */
export function compactionHeadline(reason: CompactionReason): string {
  return HEADLINES[reason];
}

/** "41,200 → 9,800 tokens · 12 old tool outputs pruned". */
export function compactionFigures(card: Pick<CompactionCardData, "tokensBefore" | "tokensAfter" | "prunedOutputs">) {
  const parts = [`${card.tokensBefore.toLocaleString()} → ${card.tokensAfter.toLocaleString()} tokens`];
  if (card.prunedOutputs === 1) parts.push("1 old tool output pruned");
  else if (card.prunedOutputs > 1) parts.push(`${card.prunedOutputs.toLocaleString()} old tool outputs pruned`);
  return parts.join(" · ");
}

/** A summary past this many characters or lines starts collapsed. */
export const LONG_SUMMARY_CHARS = 600;
export const LONG_SUMMARY_LINES = 8;

export function isLongSummary(summary: string): boolean {
  return summary.length > LONG_SUMMARY_CHARS || summary.split("\n").length > LONG_SUMMARY_LINES;
}

const tooLong = (length?: number) =>
  `The summary is too long: at most ${MAX_SUMMARY_CHARS.toLocaleString()} characters` +
  (length === undefined ? "." : ` (this one has ${length.toLocaleString()}).`);

/** What is wrong with an edited summary before it is sent, or undefined. */
export function summaryProblem(summary: string): string | undefined {
  if (summary.trim() === "") return "The summary is empty: write one, or undo the compaction instead.";
  if (summary.length > MAX_SUMMARY_CHARS) return tooLong(summary.length);
  return undefined;
}

/** A server message ("nothing to compact yet: …") as a sentence. */
export function asSentence(message: string): string {
  const text = message.trim();
  if (!text) return text;
  const capital = text[0]!.toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** Why a compaction route refused, in words (413: the summary is too long; else the server's message). */
export function compactionFailure(error: unknown): string {
  if (error instanceof ApiError && error.status === 413) return tooLong();
  if (error instanceof ApiError) return asSentence(error.message);
  const message = error instanceof Error ? error.message : String(error);
  return asSentence(`the server could not be reached: ${message}`);
}

/** What "Compact now" says once the entry is stored. */
export function compactedMessage(card: Pick<CompactionCardData, "tokensBefore" | "tokensAfter">): string {
  return `Compacted: ${card.tokensBefore.toLocaleString()} → ${card.tokensAfter.toLocaleString()} tokens.`;
}
