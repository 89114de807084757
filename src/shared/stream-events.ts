// The chat stream's SSE events, each defined once; the union type is derived from the map.
import { z } from "zod";
import { usageSchema } from "./usage";
import { contextReportSchema } from "./context";
import { compactionEventSchema } from "./compaction";
import { approvalReasonSchema } from "./approval-reasons";

export const streamEventSchemas = {
  "turn.start": z.object({
    turnId: z.string(),
    messageId: z.string(),
    model: z.string(),
    /** What went upstream besides the transcript (prompt, tools, agent files, skills). */
    context: z.record(z.string(), z.unknown()).optional(),
  }),
  "text.delta": z.object({ text: z.string() }),
  "reasoning.delta": z.object({ text: z.string() }),
  // Tool events of a subagent's own calls carry `parentCallId` (the subagent call they belong to).
  "tool.call": z.object({
    callId: z.string(),
    name: z.string(),
    arguments: z.unknown(),
    parentCallId: z.string().optional(),
  }),
  // `reasons`: why the call asks even if its gate allows it (contract 7.5); absent when only the gate asks.
  "tool.approval": z.object({
    callId: z.string(),
    name: z.string(),
    arguments: z.unknown(),
    parentCallId: z.string().optional(),
    reasons: z.array(approvalReasonSchema).min(1).optional(),
  }),
  "tool.question": z.object({
    callId: z.string(),
    question: z.string(),
    choices: z.array(z.string()).optional(),
    parentCallId: z.string().optional(),
  }),
  // `diff`: for the UI's file change card, the unified diff of each file the call wrote (not sent upstream).
  "tool.result": z.object({
    callId: z.string(),
    name: z.string(),
    ok: z.boolean(),
    output: z.unknown(),
    diff: z.string().optional(),
    parentCallId: z.string().optional(),
  }),
  /** The chat's task list (from the `task` tool), whole. */
  "task.update": z.object({
    items: z.array(z.object({ title: z.string(), status: z.enum(["pending", "in_progress", "done"]) })),
  }),
  /** A `report_progress` note: the turn's status line. */
  progress: z.object({ message: z.string() }),
  /**
   * Something the user should know about how the turn went, in words; the turn goes on. `tools_unsupported`:
   * the model refused tools, the turn was sent again without them, and the model gets none from now on.
   */
  notice: z.object({ code: z.string(), message: z.string() }),
  usage: usageSchema,
  /**
   * How full the model's context window is (contract 7.3): after `turn.start` for the first request,
   * and after each step for the next one. `source`: the tokenizer's estimate, or scaled to the
   * upstream's own `prompt_tokens` once a step reported it.
   */
  context: contextReportSchema,
  /** The request was compacted before it was sent (contract 7.3); the entry is stored in the transcript. */
  compaction: compactionEventSchema,
  error: z.object({
    code: z.string(),
    message: z.string(),
    status: z.number().int().optional(),
    retryable: z.boolean(),
  }),
  "turn.end": z.object({
    turnId: z.string(),
    finishReason: z.string(),
  }),
} as const;

export type StreamEventName = keyof typeof streamEventSchemas;
export type StreamEventData<K extends StreamEventName> = z.infer<(typeof streamEventSchemas)[K]>;
export type StreamEvent = { [K in StreamEventName]: { event: K; data: StreamEventData<K> } }[StreamEventName];
