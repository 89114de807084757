// Chats and their messages, as the API returns them and as clients send them.
import { z } from "zod";
import { usageSchema } from "./usage";

export const chatSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  title: z.string(),
  promptId: z.string().nullable(),
  /** The prompt whose project-card icon created this chat (the card row shows that icon). */
  cardPromptId: z.string().nullable(),
  modelId: z.string().nullable(),
  agent: z.string().nullable(),
  /** Per-chat tool allowlist; null inherits every project tool. */
  tools: z.array(z.string()).nullable(),
  agentFiles: z.boolean().nullable(),
  skills: z.boolean().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Chat = z.infer<typeof chatSchema>;

const chatFields = {
  title: z.string().min(1).max(200),
  promptId: z.string().min(1),
  modelId: z.string().min(1),
  agent: z.string().min(1),
  tools: z.array(z.string().min(1)),
  agentFiles: z.boolean(),
  skills: z.boolean(),
};

export const createChatBodySchema = z.strictObject({
  title: chatFields.title.optional(),
  promptId: chatFields.promptId.optional(),
  modelId: chatFields.modelId.optional(),
  agent: chatFields.agent.optional(),
  tools: chatFields.tools.optional(),
  agentFiles: chatFields.agentFiles.optional(),
  skills: chatFields.skills.optional(),
});
export type CreateChatBody = z.infer<typeof createChatBodySchema>;

/** Any chat field; `null` clears the nullable ones. */
export const patchChatBodySchema = z.strictObject({
  title: chatFields.title.optional(),
  promptId: chatFields.promptId.nullable().optional(),
  modelId: chatFields.modelId.nullable().optional(),
  agent: chatFields.agent.nullable().optional(),
  tools: chatFields.tools.nullable().optional(),
  agentFiles: chatFields.agentFiles.nullable().optional(),
  skills: chatFields.skills.nullable().optional(),
});
export type PatchChatBody = z.infer<typeof patchChatBodySchema>;

/** `truncated`: the model stopped at the token limit (`finish_reason: "length"`), not at its end. */
export const messageStatusSchema = z.enum(["complete", "truncated", "streaming", "cancelled", "error", "interrupted"]);
export type MessageStatus = z.infer<typeof messageStatusSchema>;

export const messageSchema = z.object({
  id: z.string(),
  chatId: z.string(),
  seq: z.number().int(),
  role: z.enum(["user", "assistant", "tool"]),
  content: z.string(),
  status: messageStatusSchema,
  modelId: z.string().nullable(),
  usage: usageSchema.nullable(),
  /** Kind-specific details: `{kind:"file", path}` for an injected file, reasoning text, errors, tool cards. */
  meta: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type Message = z.infer<typeof messageSchema>;

export const streamBodySchema = z.strictObject({
  content: z.string().min(1, "content must not be empty"),
  referencedPaths: z.array(z.string().min(1)).max(50).optional(),
  modelId: z.string().min(1).optional(),
});
export type StreamBody = z.infer<typeof streamBodySchema>;
