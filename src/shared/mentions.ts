// The composer's @ popup: catalog items and ranked results.
import { z } from "zod";

export const MENTION_CATEGORIES = ["files", "agents", "actions", "tools", "mcp", "model"] as const;
export const mentionCategorySchema = z.enum(MENTION_CATEGORIES);
export type MentionCategory = z.infer<typeof mentionCategorySchema>;

/** Limits from the spec. */
export const FILE_DISPLAY_CAP = 200;
export const ALL_VIEW_PER_CATEGORY = 4;

/**
 * What an MCP row offers besides a tool: a resource to attach to the message (sent as
 * `referencedResources`, like a referenced file) or a prompt whose text fills the composer.
 */
export const mentionMcpSchema = z.discriminatedUnion("kind", [
  /** `name`: what the message's chip shows. */
  z.object({ kind: z.literal("resource"), serverId: z.string(), uri: z.string(), name: z.string() }),
  z.object({
    kind: z.literal("prompt"),
    serverId: z.string(),
    name: z.string(),
    arguments: z
      .array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() }))
      .optional(),
  }),
]);
export type MentionMcp = z.infer<typeof mentionMcpSchema>;

export type MentionItem = {
  category: MentionCategory;
  label: string;
  detail: string;
  insertText: string;
  /** Tags or description, searched after the name and path. */
  searchText?: string;
  /** Tools: JSON Schema of the arguments (the composer builds its parameter chips from it). */
  parameters?: unknown;
  /** MCP rows that are a resource or a prompt rather than a tool. */
  mcp?: MentionMcp;
};

export type RankedMention = Omit<MentionItem, "searchText"> & { highlights: [number, number][] };

/** One row of `GET /api/mentions/search`; `highlights` are ranges of `label`. */
export const rankedMentionSchema = z.object({
  category: mentionCategorySchema,
  label: z.string(),
  detail: z.string(),
  insertText: z.string(),
  highlights: z.array(z.tuple([z.number(), z.number()])),
  parameters: z.unknown().optional(),
  mcp: mentionMcpSchema.optional(),
});

export const mentionSearchQuerySchema = z.object({
  projectDir: z.string(),
  q: z.string().max(500).default(""),
  category: mentionCategorySchema.optional(),
  limit: z.coerce.number().int().min(1).max(5000).optional(),
  chatId: z.string().optional(),
  /** Optional: an id per composer, so its keystrokes narrow from its own and supersede only its own. */
  clientId: z.string().max(200).optional(),
  /** Optional, with `clientId`: rises with each keystroke, so a late older one never supersedes a newer one. */
  seq: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
});

export const scannedFileSchema = z.object({ path: z.string(), name: z.string(), folder: z.string() });
export type ScannedFile = z.infer<typeof scannedFileSchema>;
