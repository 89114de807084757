// Carries out a compaction (contract 7.3): plans it over the request the chat would send, prunes old
// tool outputs, has the summary written by the compaction model when pruning is not enough, and
// stores the result as a transcript entry of role `compaction`. Only what is sent changes: the
// stored messages stay as they were. A summary that fails (an upstream error, an empty answer, one
// larger than what it would replace) stores nothing and says why.
import { AppError } from "../../platform/app-error";
import type { Message } from "../../shared/chats";
import type { ResolvedSettings } from "../../shared/settings";
import type { Usage } from "../../shared/usage";
import {
  COMPACTION_DEFAULTS,
  type CompactionEvent,
  type CompactionMeta,
  type CompactionReason,
} from "../../shared/compaction";
import type { ResolvedConnection } from "../../gateway/connection-resolver";
import type { MessagesRepo } from "../messages-repo";
import type { RequestsRepo } from "../requests-repo";
import type { UpstreamMessage } from "../transcript";
import { streamStep, type StepOutcome } from "../upstream-step";
import { planCompaction, pinnedIndices, type CompactionSettings } from "../context/compaction-plan";
import { TokenCounter } from "../context/token-count";
import {
  buildRequest,
  compactionEntries,
  latestSummary,
  prunedStub,
  type RequestRow,
  type SystemPart,
} from "../context/request-messages";
import { summaryRequest } from "./summary-request";

/** Why a compaction stored nothing, in words for the user; the chat is as it was. */
export class CompactionFailed extends AppError {
  constructor(message: string) {
    super("upstream_error", `compaction failed, the chat is as it was: ${message}`);
  }
}

/** Tokens the summariser's own instructions and answer need besides the conversation it reads. */
const SUMMARY_HEADROOM_TOKENS = 20_000;
/** Less than this is not worth a summary request (a summary would be about as long). */
const MIN_SUMMARISED_TOKENS = 400;
/** A conservative characters-per-token for bounding the summariser's input by its window. */
const CHARS_PER_TOKEN = 3;

export type CompactionRequest = {
  chatId: string;
  system: SystemPart;
  /** The tool definitions the next request offers (they count towards it). */
  tools: readonly unknown[];
  window: number;
  settings: ResolvedSettings;
  /** The chat's model, which writes the summary unless `chat.compaction.model` names another. */
  chatModel: string;
  reason: CompactionReason;
  /** Compact even though the request fits (Compact now, an overflow). */
  force: boolean;
  /** Where the summary request goes in the ledger. */
  turnId: string;
  step: number;
  signal: AbortSignal;
};

export type CompactorDeps = {
  messages: MessagesRepo;
  requests?: RequestsRepo;
  resolve(settings: ResolvedSettings, modelId: string): Promise<ResolvedConnection>;
  /** The summary request's usage, priced for its model. */
  usageOf(
    outcome: StepOutcome,
    sent: UpstreamMessage[],
    resolved: ResolvedConnection,
    settings: ResolvedSettings,
  ): Usage;
  retryBaseMs: number;
};

export function compactionSettings(settings: ResolvedSettings, window: number): CompactionSettings {
  const configured = settings.chat?.compaction ?? {};
  return {
    window,
    threshold: configured.threshold ?? COMPACTION_DEFAULTS.threshold,
    keepRecentTokens: configured.keepRecentTokens ?? COMPACTION_DEFAULTS.keepRecentTokens,
  };
}

export function compactionEvent(entry: Message): CompactionEvent {
  const meta = entry.meta as unknown as CompactionMeta;
  return {
    id: entry.id,
    reason: meta.reason,
    tokensBefore: meta.tokensBefore,
    tokensAfter: meta.tokensAfter,
    prunedOutputs: meta.prunedOutputs,
    ...(entry.content ? { summary: entry.content } : {}),
  };
}

export class Compactor {
  /** Chats with a compaction under way: a turn or a second compaction waits for it to end (409). */
  private readonly busy = new Set<string>();

  constructor(private readonly deps: CompactorDeps) {}

  isBusy(chatId: string): boolean {
    return this.busy.has(chatId);
  }

  /** The stored entry, or undefined when there is nothing to compact. Throws CompactionFailed. */
  async compact(request: CompactionRequest): Promise<Message | undefined> {
    if (this.busy.has(request.chatId)) throw new AppError("conflict", "this chat is already being compacted");
    this.busy.add(request.chatId);
    try {
      return await this.run(request);
    } finally {
      this.busy.delete(request.chatId);
    }
  }

  private async run(request: CompactionRequest): Promise<Message | undefined> {
    const counter = await TokenCounter.load();
    const rows = this.deps.messages.listByChat(request.chatId);
    const built = buildRequest(request.system, rows);
    const layered = built.messages.map((message, i) => ({ message, layer: built.layers[i]! }));
    const tokens = built.messages.map((message) => counter.countMessage(message));
    const toolTokens = counter.countTools(request.tools);
    const stubTokens = counter.countMessage({ content: prunedStub("a_tool_name") });
    const entries = compactionEntries(rows);
    const plan = planCompaction(layered, tokens, toolTokens, compactionSettings(request.settings, request.window), {
      stubTokens,
      force: request.force,
      // One prune-only round between summaries (see planCompaction).
      pruneOnly: entries.at(-1)?.meta.through !== undefined || entries.length === 0,
    });
    if (!plan || (plan.prune.length === 0 && !plan.summarise)) return undefined;

    const pruned = plan.prune.map((i) => built.sources[i]?.meta?.callId).filter((id): id is string => !!id);
    const previous = latestSummary(rows);
    let summary: { text: string; through: string; model: string; usage: Usage } | undefined;
    if (plan.summarise) {
      const pinned = pinnedIndices(layered);
      const covered: RequestRow[] = [];
      let replaced = 0;
      for (let i = plan.summarise.from; i < plan.summarise.to; i++) {
        const source = built.sources[i];
        if (pinned.has(i) || !source?.id) continue;
        covered.push(source);
        replaced += tokens[i]!;
      }
      if (covered.length > 0 && replaced >= MIN_SUMMARISED_TOKENS) {
        if (previous) replaced += counter.count(previous.entry.summary);
        summary = await this.summarise(request, covered, previous?.entry.summary, replaced, counter);
      }
    }
    if (pruned.length === 0 && !summary) return undefined;

    const meta: CompactionMeta = {
      reason: request.reason,
      tokensBefore: plan.before,
      tokensAfter: 0,
      prunedOutputs: pruned.length,
      pruned,
      ...(summary ? { through: summary.through, model: summary.model } : {}),
      ...(request.reason === "manual" ? {} : { turnId: request.turnId }),
    };
    // What the next request weighs with this entry applied, before anything is stored.
    const entryRow: RequestRow = {
      id: "pending-compaction",
      seq: (rows.at(-1)?.seq ?? 0) + 1,
      role: "compaction",
      content: summary?.text ?? "",
      status: "complete",
      meta,
    };
    const after = buildRequest(request.system, [...rows, entryRow]);
    meta.tokensAfter = toolTokens + after.messages.reduce((sum, m) => sum + counter.countMessage(m), 0);
    return this.deps.messages.append(request.chatId, {
      role: "compaction",
      content: summary?.text ?? "",
      status: "complete",
      modelId: summary?.model ?? null,
      usage: summary?.usage ?? null,
      meta,
    });
  }

  private async summarise(
    request: CompactionRequest,
    covered: RequestRow[],
    previousSummary: string | undefined,
    replacedTokens: number,
    counter: TokenCounter,
  ): Promise<{ text: string; through: string; model: string; usage: Usage }> {
    const modelId = request.settings.chat?.compaction?.model ?? request.chatModel;
    const resolved = await this.deps.resolve(request.settings, modelId).catch((error: Error) => {
      throw new CompactionFailed(`the compaction model ${modelId} cannot be used: ${error.message}`);
    });
    const maxChars = Math.max(0, request.window - SUMMARY_HEADROOM_TOKENS) * CHARS_PER_TOKEN;
    const sent = summaryRequest(covered, previousSummary, maxChars);
    const outcome = await streamStep({
      resolved,
      body: { model: resolved.modelId, messages: sent, stream: true },
      signal: request.signal,
      emit: () => {},
      autoRetry: request.settings.chat?.autoRetryFailedSends !== false,
      retryBaseMs: this.deps.retryBaseMs,
      callIdPrefix: `call_${request.turnId}_compaction`,
    });
    const usage = this.deps.usageOf(outcome, sent, resolved, request.settings);
    if (usage.totalTokens > 0)
      this.deps.requests?.record(
        request.chatId,
        { turnId: request.turnId, step: request.step, cause: "compaction", model: resolved.modelId },
        usage,
      );
    if (outcome.finishReason === "cancelled") throw new CompactionFailed("it was cancelled");
    if (outcome.error) throw new CompactionFailed(`the summary request failed: ${outcome.error.message}`);
    const text = outcome.text.trim();
    if (!text) throw new CompactionFailed(`${resolved.modelId} wrote an empty summary`);
    if (counter.count(text) >= replacedTokens)
      throw new CompactionFailed("the summary was no shorter than the messages it would replace");
    return { text, through: covered.at(-1)!.id!, model: resolved.modelId, usage };
  }
}
