// A chat as a file (contract 7.4): GET /api/chats/:id/export takes the format, and the JSON
// format's document is this shape.
import { z } from "zod";
import { messageSchema } from "./chats";
import { usageSchema } from "./usage";

export const exportFormatSchema = z.enum(["markdown", "json"]);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

export const exportQuerySchema = z.object({ format: exportFormatSchema.default("markdown") });

/** A call the model made, as it made it (`arguments` is the JSON text it sent). */
const exportedCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

/** One message of the chat's current path; the kind-specific fields only where they apply. */
export const exportedMessageSchema = z.object({
  id: z.string(),
  role: messageSchema.shape.role,
  content: z.string(),
  status: messageSchema.shape.status,
  createdAt: z.string(),
  modelId: z.string().nullable(),
  usage: usageSchema.nullable(),
  /** An assistant step's tool calls. */
  toolCalls: z.array(exportedCallSchema).optional(),
  /** A `tool` message: the call it answers (its output is `content`), and whether the call succeeded. */
  toolResult: z
    .object({ callId: z.string(), name: z.string(), ok: z.boolean().optional(), arguments: z.unknown().optional() })
    .optional(),
  /** A user message that attached a project file (`path`) or an MCP resource (`uri`): `content` is its text. */
  attachment: z
    .object({ kind: z.enum(["file", "resource"]), path: z.string().optional(), uri: z.string().optional() })
    .optional(),
  reasoning: z.string().optional(),
  error: z.string().optional(),
  /** The unified diff of the files a `tool` call wrote. */
  diff: z.string().optional(),
});
export type ExportedMessage = z.infer<typeof exportedMessageSchema>;

/** The JSON export: the chat's settings and its current path, oldest message first. */
export const chatExportSchema = z.object({
  format: z.literal("parley.chat"),
  version: z.literal(1),
  exportedAt: z.string(),
  chat: z.object({
    id: z.string(),
    title: z.string(),
    modelId: z.string().nullable(),
    agent: z.string().nullable(),
    promptId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  messages: z.array(exportedMessageSchema),
});
export type ChatExport = z.infer<typeof chatExportSchema>;
