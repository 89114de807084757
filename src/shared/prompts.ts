// Custom prompts: what clients send, what is stored, and what the API returns.
import { z } from "zod";

export const PROMPT_ICONS = ["sparkles", "code", "search", "pencil", "bug", "book"] as const;
export type PromptIcon = (typeof PROMPT_ICONS)[number];
/** Unknown icons fall back to `sparkles`. */
export function readIcon(value: unknown): PromptIcon {
  return PROMPT_ICONS.includes(value as PromptIcon) ? (value as PromptIcon) : "sparkles";
}

export const promptScopeSchema = z.enum(["app", "project"]);
export type PromptScope = z.infer<typeof promptScopeSchema>;

export const promptIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "ids use letters, digits, '.', '_' and '-' (at most 64)");

export const presetInputSchema = z.strictObject({
  tools: z.array(z.string()).max(500).optional(),
  agentFiles: z.boolean().optional(),
  skills: z.boolean().optional(),
});

/** A prompt as the editor sends it. Only `system` is accepted as a role. */
export const promptInputSchema = z.strictObject({
  id: promptIdSchema.optional(),
  title: z.string().max(200).optional(),
  icon: z.string().max(40).optional(),
  showOnProjectCard: z.boolean().optional(),
  content: z.string().min(1, "content must not be empty").max(200_000),
  role: z.literal("system", { error: "role must be system" }).optional(),
  preset: presetInputSchema.nullable().optional(),
});
export type PromptInput = z.infer<typeof promptInputSchema>;

export const promptWriteBodySchema = z
  .strictObject({ scope: promptScopeSchema, projectDir: z.string().optional(), prompt: promptInputSchema })
  .refine((body) => body.scope === "app" || body.projectDir !== undefined, {
    message: "projectDir is required for project scope",
    path: ["projectDir"],
  });

export const promptDeleteQuerySchema = z
  .object({ scope: promptScopeSchema, projectDir: z.string().optional() })
  .refine((q) => q.scope === "app" || q.projectDir !== undefined, {
    message: "projectDir is required for project scope",
    path: ["projectDir"],
  });

/** A stored prompt, read leniently: old or hand-edited entries still load. */
export const storedPromptSchema = z.looseObject({
  id: z.string().min(1),
  title: z.string().optional(),
  icon: z.unknown().optional(),
  showOnProjectCard: z.boolean().optional(),
  content: z.string(),
  role: z.string().optional(),
  preset: z.unknown().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
});
export type StoredPrompt = z.infer<typeof storedPromptSchema>;

export const presetSchema = z.object({
  tools: z.array(z.string()).optional(),
  agentFiles: z.boolean().optional(),
  skills: z.boolean().optional(),
});

export const promptSchema = z.object({
  id: z.string(),
  title: z.string(),
  icon: z.enum(PROMPT_ICONS),
  showOnProjectCard: z.boolean(),
  content: z.string(),
  role: z.literal("system"),
  preset: presetSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  scope: promptScopeSchema,
  /** On the project listing: an app prompt hidden by a project prompt with the same id. */
  overridden: z.boolean().optional(),
});
export type Prompt = z.infer<typeof promptSchema>;
