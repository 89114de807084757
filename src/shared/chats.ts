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
  /** The message the chat's current path ends at (contract 7.4); null before the first message. */
  leafId: z.string().nullable(),
  /** A worktree chat's branch (contract 7.6): its tools run in a git worktree of its own. */
  worktreeBranch: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Chat = z.infer<typeof chatSchema>;

/** A branch name a user may give a worktree chat (git's own check runs too, see src/worktrees). */
export const worktreeBranchSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, "letters, digits, '.', '_', '/' and '-', starting with a letter or digit");

/** `worktree` of POST /api/projects/:id/chats: `true`, or the branch to create. */
export const createWorktreeSchema = z.union([z.boolean(), z.strictObject({ branch: worktreeBranchSchema.optional() })]);

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
  /** Absent: the default prompt style's profile (Settings, Chat defaults); `null`: no prompt. */
  promptId: chatFields.promptId.nullable().optional(),
  modelId: chatFields.modelId.optional(),
  agent: chatFields.agent.optional(),
  tools: chatFields.tools.optional(),
  agentFiles: chatFields.agentFiles.optional(),
  skills: chatFields.skills.optional(),
  /** A worktree chat (contract 7.6): on a new branch `parley/<slug>`, or the branch named here. */
  worktree: createWorktreeSchema.optional(),
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
  /**
   * Switches the chat to the branch through this message (contract 7.4); the path then ends at the
   * newest message under it, so naming an earlier version of a message shows that version's answer.
   */
  leafId: z.string().min(1).max(200).optional(),
});
export type PatchChatBody = z.infer<typeof patchChatBodySchema>;

/** `truncated`: the model stopped at the token limit (`finish_reason: "length"`), not at its end. */
export const messageStatusSchema = z.enum(["complete", "truncated", "streaming", "cancelled", "error", "interrupted"]);
export type MessageStatus = z.infer<typeof messageStatusSchema>;

/**
 * A message's kind-specific details. Loose: a turn may store keys a newer server added, and the UI
 * must still show the message.
 */
export const messageMetaSchema = z.looseObject({
  /** `file`: a user message that injected a referenced project file; `resource`: an MCP server's resource. */
  kind: z.enum(["file", "resource"]).optional(),
  path: z.string().optional(),
  /** `resource`: which server's, and which. */
  serverId: z.string().optional(),
  uri: z.string().optional(),
  /** On the user message of a turn that referenced files. */
  referencedPaths: z.array(z.string()).optional(),
  /** On the assistant message: why the model stopped, its reasoning, and the turn's error. */
  finishReason: z.string().optional(),
  reasoning: z.string().optional(),
  error: z.object({ message: z.string(), status: z.number().int().optional(), retryable: z.boolean() }).optional(),
  /** On the assistant message: what the turn's `notice` event said (the model refused tools, …). */
  notice: z.string().optional(),
  /** The turn the message belongs to (its checkpoints and Revert are per turn). */
  turnId: z.string().optional(),
  /** On an assistant step that called tools: the calls as the model made them (arguments as sent). */
  toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
  /** On a `tool` message: which call it answers, and how it went. `content` holds the output. */
  callId: z.string().optional(),
  name: z.string().optional(),
  ok: z.boolean().optional(),
  /** The call's arguments, parsed, for the card (a `tool` message). */
  arguments: z.unknown().optional(),
  /** The unified diff of the files the call wrote, for the file change card. */
  diff: z.string().optional(),
  /** On a `tool` message of a turn whose file changes were reverted (its card says so after a reload). */
  reverted: z.boolean().optional(),
  /** Set on the events and messages of tools a subagent ran. */
  parentCallId: z.string().optional(),
});
export type MessageMeta = z.infer<typeof messageMetaSchema>;

export const messageSchema = z.object({
  id: z.string(),
  chatId: z.string(),
  seq: z.number().int(),
  /** `compaction`: a compaction entry (contract 7.3), its summary in `content` and the rest in `meta`. */
  role: z.enum(["user", "assistant", "tool", "compaction"]),
  content: z.string(),
  status: messageStatusSchema,
  modelId: z.string().nullable(),
  usage: usageSchema.nullable(),
  /** Kind-specific details: `{kind:"file", path}` for an injected file, reasoning text, errors, tool cards. */
  meta: messageMetaSchema.nullable(),
  /** The row before this one on its branch (contract 7.4); null for a first message. */
  parentId: z.string().nullable(),
  /**
   * On the messages of `GET /api/chats/:id`: the ids of the rows with the same parent (the versions
   * of this message an edit or a regenerate made, itself included) and its index among them.
   */
  siblings: z.array(z.string()).optional(),
  siblingIndex: z.number().int().optional(),
  createdAt: z.string(),
});
export type Message = z.infer<typeof messageSchema>;

export const streamBodySchema = z
  .strictObject({
    /** Optional only with `regenerate`, which answers the stored message again. */
    content: z.string().min(1, "content must not be empty").optional(),
    /**
     * Edit and resend (contract 7.4): the new user message goes under this message, beside the edited
     * one; naming the edited user message itself puts it beside that one. `null`: a new first message.
     */
    parentId: z.string().min(1).max(200).nullable().optional(),
    /** A new answer beside this assistant message, from the same user message (no new user message). */
    regenerate: z.string().min(1).max(200).optional(),
    referencedPaths: z.array(z.string().min(1)).max(50).optional(),
    /** MCP resources to attach (read from their servers when the turn starts), like referenced files. */
    referencedResources: z
      .array(z.strictObject({ serverId: z.string().min(1).max(32), uri: z.string().min(1).max(2_000) }))
      .max(20)
      .optional(),
    modelId: z.string().min(1).optional(),
  })
  .refine((body) => body.regenerate !== undefined || body.content !== undefined, {
    path: ["content"],
    message: "content must not be empty",
  })
  .refine(
    (body) =>
      body.regenerate === undefined ||
      (body.content === undefined && body.parentId === undefined && !body.referencedPaths?.length),
    { path: ["regenerate"], message: "regenerate answers a stored message again: send it without content or parentId" },
  );
export type StreamBody = z.infer<typeof streamBodySchema>;

/** POST /api/chats/:id/fork. */
export const forkChatBodySchema = z.strictObject({ messageId: z.string().min(1).max(200) });

/**
 * Paged reads (contract 7.4): the last `limit` (1 to 500) items before `before` (a message id for a
 * chat's messages, a chat id for a project's chats). Without either, everything, as before.
 */
export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  before: z.string().min(1).max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** GET /api/projects/:id/chats with `limit` or `before`: a page, newest first. */
export const chatPageSchema = z.object({ chats: z.array(chatSchema), hasMore: z.boolean() });
export type ChatPage = z.infer<typeof chatPageSchema>;
