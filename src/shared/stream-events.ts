// The chat stream's SSE events, each defined once; the union type is derived from the map.
import { z } from "zod";
import { usageSchema } from "./usage";

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
  "tool.call": z.object({ callId: z.string(), name: z.string(), arguments: z.unknown() }),
  "tool.approval": z.object({ callId: z.string(), name: z.string(), arguments: z.unknown() }),
  "tool.result": z.object({ callId: z.string(), name: z.string(), ok: z.boolean(), output: z.unknown() }),
  usage: usageSchema,
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
