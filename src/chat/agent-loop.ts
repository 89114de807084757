// The agent loop (contract 6.3), shared by a chat turn and a subagent run: stream a step, run its tool
// calls in order and send their results back, until a step calls no tool, the step limit or the
// budget is reached, the same call keeps failing, the user cancels, or the upstream fails. Where the
// steps and results are stored is the caller's business (hooks); the loop only decides and emits.
import { assistantWithCalls, type UpstreamMessage } from "./transcript";
import { sumUsage } from "./usage";
import type { ResolvedSettings } from "../shared/settings";
import type { StreamEvent } from "../shared/stream-events";
import type { Usage } from "../shared/usage";
import type { ResolvedConnection } from "../gateway/connection-resolver";
import { streamStep, type StepOutcome } from "./upstream-step";
import { refusesTools, toolsRefusedNotice } from "./tool-support";
import { withCacheMarks } from "./context/cache-marks";
import { isContextOverflow } from "./context/overflow";
import type { AssembledCall } from "../tools/tool-call-assembler";
import type { UpstreamTool } from "../tools/offered-tools";
import { runToolCall, type ToolOutcome, type ToolRunContext } from "../tools/tool-runner";

export const DEFAULT_MAX_STEPS = 50;
/** The same failing call (same tool, same arguments) this often in one turn ends it. */
export const MAX_SAME_FAILURES = 3;

export type LoopStop = { code: string; message: string; retryable: false };

export type AgentLoopHooks = {
  /** A step is about to stream (the first one is step 0). */
  beforeStep?(step: number): void;
  /** A step ended; `last` when no tool call follows it. */
  stepDone(outcome: StepOutcome, total: Usage, last: boolean): void;
  /** A tool call ended (before the next call runs). */
  toolDone(call: AssembledCall, result: ToolOutcome, content: string): void;
  /** The loop stopped itself (limit, budget, repeated failure) before or after a step. */
  stopped(stop: LoopStop, total: Usage | undefined): void;
  /** The step's usage as reported (clamped) or estimated. */
  usageOf(outcome: StepOutcome, messages: UpstreamMessage[]): Usage;
  /** A step's request has left, with these messages and tools (the context meter reads them). */
  beforeRequest?(messages: readonly UpstreamMessage[], tools: readonly UpstreamTool[]): void;
  /** The model refused the tools it was offered (in the server's words); the loop goes on without them. */
  toolsRefused?(message: string): void;
  /**
   * Before each request (`auto`) and once after the upstream said the request was too long
   * (`overflow`): compacts `messages` in place when needed. `false` (synchronously, so a request that
   * fits is never delayed) when nothing was done; else whether the messages changed.
   */
  compact?(
    reason: "auto" | "overflow",
    messages: UpstreamMessage[],
    tools: readonly UpstreamTool[],
    step: number,
  ): false | Promise<boolean>;
};

export type AgentLoopOptions = {
  resolved: ResolvedConnection;
  messages: UpstreamMessage[];
  tools: UpstreamTool[];
  requestExtras?: Record<string, unknown>;
  settings: ResolvedSettings;
  retryBaseMs: number;
  signal: AbortSignal;
  emit: (event: StreamEvent) => void;
  toolContext: ToolRunContext;
  /** Prefix of generated call ids (unique per turn). */
  callIdPrefix: string;
  hooks: AgentLoopHooks;
};

export type AgentLoopResult = { finishReason: string; total: Usage | undefined; text: string };

const stepLimit = (max: number): LoopStop => ({
  code: "step_limit",
  message: `the turn reached its limit of ${max} steps (Settings, chat.maxSteps)`,
  retryable: false,
});
const overBudget = (budget: number): LoopStop => ({
  code: "budget_exceeded",
  message: `the turn reached its budget of $${budget} (Settings, chat.maxTurnCost)`,
  retryable: false,
});
const repeatedFailure = (): LoopStop => ({
  code: "repeated_failure",
  message: `the model repeated a failing tool call ${MAX_SAME_FAILURES} times; the turn stopped`,
  retryable: false,
});

/** A step that failed before any of its answer came back. */
function nothingCameBack(outcome: StepOutcome): boolean {
  return outcome.error !== undefined && !outcome.text && !outcome.reasoning && outcome.toolCalls.length === 0;
}

/** A step that failed before anything came back, because the model cannot take tools. */
function refusedTools(outcome: StepOutcome): boolean {
  return nothingCameBack(outcome) && refusesTools(outcome.error!.message);
}

export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { resolved, messages, tools, settings, signal, emit, hooks } = options;
  const maxSteps = settings.chat?.maxSteps ?? DEFAULT_MAX_STEPS;
  const budget = settings.chat?.maxTurnCost ?? null;
  const failures = new Map<string, number>();
  let total: Usage | undefined;
  let text = "";

  const stop = (reason: LoopStop): AgentLoopResult => {
    emit({ event: "error", data: reason });
    hooks.stopped(reason, total);
    return { finishReason: "error", total, text };
  };

  // Limits are checked before each next step, never before the first (settings keep maxSteps >= 1 and
  // a budget above 0): a caller may rely on nothing being emitted or hooked, but `beforeStep(0)`,
  // before the first request is sent.
  // Dropped for the rest of the loop once the model refuses them.
  let offered = tools;
  for (let step = 0; ; step++) {
    // Before the step's own row is stored, so a compaction sits in the transcript before its answer.
    const compacting = hooks.compact?.("auto", messages, offered, step);
    if (compacting) await compacting;
    hooks.beforeStep?.(step);
    const send = () =>
      streamStep({
        resolved,
        body: {
          model: resolved.modelId,
          // Cache marks for the vendors that need them; the prefix itself is byte-stable step to step.
          messages: settings.chat?.promptCaching === false ? messages : withCacheMarks(resolved.modelId, messages),
          stream: true,
          ...(offered.length > 0 ? { tools: offered } : {}),
          ...options.requestExtras,
        },
        signal,
        emit,
        autoRetry: settings.chat?.autoRetryFailedSends !== false,
        retryBaseMs: options.retryBaseMs,
        callIdPrefix: `${options.callIdPrefix}_${step}`,
      });
    const sending = send();
    // Once the request has left (undici writes it in this turn of the loop's check phase, so an
    // immediate queued now runs after it): counting never stands between Enter and the first token,
    // and nothing of the answer can be read before it.
    const tools = offered;
    if (hooks.beforeRequest) setImmediate(() => hooks.beforeRequest!(messages, tools));
    let outcome = await sending;
    // A model that cannot take tools refuses the whole request: say so, and send it again without them.
    if (offered.length > 0 && refusedTools(outcome)) {
      const notice = toolsRefusedNotice(resolved.modelId, outcome.error!.message);
      emit({ event: "notice", data: { code: "tools_unsupported", message: notice } });
      hooks.toolsRefused?.(outcome.error!.message);
      offered = [];
      outcome = { ...(await send()), notice };
    }
    // The upstream said the request is too long: compact, and send it once more.
    if (hooks.compact && nothingCameBack(outcome) && isContextOverflow(outcome.error)) {
      const compacted = hooks.compact("overflow", messages, offered, step);
      if (compacted && (await compacted)) outcome = await send();
    }
    if (outcome.error) {
      const { message, status, retryable } = outcome.error;
      emit({
        event: "error",
        data: { code: "upstream_error", message, ...(status !== undefined ? { status } : {}), retryable },
      });
    }
    const usage = hooks.usageOf(outcome, messages);
    emit({ event: "usage", data: usage });
    total = total ? sumUsage(total, usage) : usage;
    text = outcome.text;
    const calls = outcome.toolCalls;
    const last = calls.length === 0 || outcome.error !== undefined || signal.aborted;
    hooks.stepDone(outcome, total, last);
    if (last) return { finishReason: outcome.finishReason, total, text };

    messages.push(assistantWithCalls(outcome.text, calls));
    for (const call of calls) {
      const result = signal.aborted
        ? { ok: false, output: "the turn was cancelled", arguments: call.arguments }
        : await runToolCall(call, options.toolContext);
      const content = typeof result.output === "string" ? result.output : JSON.stringify(result.output);
      hooks.toolDone(call, result, content);
      // A subagent's steps cost the calling turn.
      if ("usage" in result && result.usage) total = total ? sumUsage(total, result.usage) : result.usage;
      messages.push({ role: "tool", tool_call_id: call.id, content });
      const key = `${call.name}\n${call.arguments}`;
      if (!result.ok) failures.set(key, (failures.get(key) ?? 0) + 1);
    }
    if (signal.aborted) return { finishReason: "cancelled", total, text };
    if ([...failures.values()].some((count) => count >= MAX_SAME_FAILURES)) return stop(repeatedFailure());
    if (step + 1 >= maxSteps) return stop(stepLimit(maxSteps));
    if (budget !== null && (total?.cost ?? 0) >= budget) return stop(overBudget(budget));
  }
}
