// One upstream step of a turn: stream a chat completion, forward text and reasoning as events,
// assemble tool calls, and retry failures that happened before anything arrived (429, 5xx, an
// unreachable gateway) with backoff when the user's setting allows.
import { setTimeout as sleep } from "node:timers/promises";
import { isRetryableFailure, MAX_RETRIES, retryDelayMs } from "./retry-policy";
import type { UpstreamUsage } from "../gateway/upstream-chunk";
import { withoutSecret } from "../gateway/upstream-error";
import { streamChatCompletion, type ChatCompletionBody } from "../gateway/chat-completions";
import { connectionSecrets, StreamDroppedError, UpstreamError } from "../gateway/http";
import type { StreamEvent } from "../shared/stream-events";
import { ToolCallAssembler, type AssembledCall } from "../tools/tool-call-assembler";
import type { ResolvedConnection } from "../gateway/connection-resolver";

export type StepOutcome = {
  text: string;
  reasoning: string;
  usage?: UpstreamUsage;
  finishReason: string;
  toolCalls: AssembledCall[];
  error?: { message: string; status?: number; retryable: boolean };
  /** What the step told the user besides its answer (the `notice` event), kept with the stored step. */
  notice?: string;
};

export type StepOptions = {
  resolved: ResolvedConnection;
  body: ChatCompletionBody;
  signal: AbortSignal;
  emit: (event: StreamEvent) => void;
  autoRetry: boolean;
  retryBaseMs: number;
  /** Prefix for ids of tool calls the server sent without one. */
  callIdPrefix: string;
};

export async function streamStep(options: StepOptions): Promise<StepOutcome> {
  const { resolved, body, signal, emit } = options;
  for (let attempt = 0; ; attempt++) {
    const outcome: StepOutcome = { text: "", reasoning: "", finishReason: "stop", toolCalls: [] };
    const calls = new ToolCallAssembler();
    let received = false;
    try {
      for await (const part of streamChatCompletion(resolved.connection, body, signal)) {
        if (part.type === "text") {
          received = true;
          outcome.text += part.text;
          emit({ event: "text.delta", data: { text: part.text } });
        } else if (part.type === "reasoning") {
          received = true;
          outcome.reasoning += part.text;
          emit({ event: "reasoning.delta", data: { text: part.text } });
        } else if (part.type === "tool_call") {
          received = true;
          calls.add(part.delta);
        } else if (part.type === "usage") {
          outcome.usage = part.usage;
        } else if (part.type === "finish") {
          outcome.finishReason = part.reason;
        } else if (part.type === "error") {
          received = true;
          const message = withoutSecret(part.message, connectionSecrets(resolved.connection));
          outcome.error = {
            message,
            ...(part.status !== undefined ? { status: part.status } : {}),
            retryable: isRetryableFailure(part.status, message),
          };
          outcome.finishReason = "error";
        }
      }
      // Calls of a step that failed are not run: their arguments may be cut off.
      if (!outcome.error) outcome.toolCalls = calls.finish(options.callIdPrefix);
      return outcome;
    } catch (error) {
      if (signal.aborted) return { ...outcome, finishReason: "cancelled" };
      const status = error instanceof UpstreamError ? error.status : undefined;
      const message =
        error instanceof UpstreamError || error instanceof StreamDroppedError
          ? error.message
          : `cannot reach the gateway (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
      const retryable = isRetryableFailure(status, message);
      // A stream cut before its first token may be sent again; one cut mid-answer is not resent.
      if (
        !received &&
        retryable &&
        !(error instanceof StreamDroppedError) &&
        options.autoRetry &&
        attempt < MAX_RETRIES
      ) {
        const delay = retryDelayMs(
          attempt,
          options.retryBaseMs,
          error instanceof UpstreamError ? error.retryAfter : undefined,
        );
        try {
          await sleep(delay, undefined, { signal });
        } catch {
          return { ...outcome, finishReason: "cancelled" };
        }
        continue;
      }
      return {
        ...outcome,
        finishReason: "error",
        error: { message, ...(status !== undefined ? { status } : {}), retryable },
      };
    }
  }
}
