// Gateway catalog and account shapes as Parley's API returns them, and which gateway is the hosted one.
import { z } from "zod";

/** The hosted gateway Parley talks to unless told otherwise (an OpenRouter-style service). */
export const HOSTED_GATEWAY_BASE_URL = "https://openrouter.ai/api/v1";

/**
 * Whether `baseUrl` points at the hosted gateway (its origin), which lists prices, modalities and tool
 * support itself; any other server is self-hosted (or a proxy) and may need them set by hand.
 */
export function isHostedGateway(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).origin === new URL(HOSTED_GATEWAY_BASE_URL).origin;
  } catch {
    return false;
  }
}

export const modelSliceSchema = z.enum(["text", "transcription"]);
export type ModelSlice = z.infer<typeof modelSliceSchema>;

export const catalogModelSchema = z.object({
  id: z.string(),
  label: z.string(),
  contextLength: z.number().nullable(),
  /** USD per token (per request for `request`), as the gateway reports them. */
  pricing: z.record(z.string(), z.number()),
  inputModalities: z.array(z.string()),
  outputModalities: z.array(z.string()),
  /** The request parameters the model takes (`tools`, `temperature`, …), when the server lists them. */
  supportedParameters: z.array(z.string()).optional(),
});
export type CatalogModel = z.infer<typeof catalogModelSchema>;

export const creditsSchema = z.object({
  /** Where the numbers come from: the account (`credits`) or only this key's limit (`key`). */
  source: z.enum(["credits", "key"]),
  totalCredits: z.number().nullable(),
  totalUsage: z.number().nullable(),
  balance: z.number().nullable(),
  note: z.string().optional(),
});
export type Credits = z.infer<typeof creditsSchema>;

/** What GET /api/providers/gateway/credits answers: the numbers, or that this server keeps none. */
export const creditsAnswerSchema = z.union([creditsSchema, z.object({ supported: z.literal(false) })]);
export type CreditsAnswer = z.infer<typeof creditsAnswerSchema>;
