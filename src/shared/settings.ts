// Settings shapes: the app layer, the project layer, and the PATCH bodies that edit them.
// Stored layers are read loosely (unknown keys survive); PATCH bodies are strict so typos fail loudly.
import { z } from "zod";
import { compactionSettingsSchema } from "./compaction";
import { mcpServerSandboxSchema, sandboxSettingsSchema } from "./sandbox";
import { webFetchSettingsSchema } from "./web-fetch";

export const toolGateSchema = z.enum(["off", "ask", "allow"]);
export type ToolGate = z.infer<typeof toolGateSchema>;

const headersSchema = z.record(z.string(), z.string());

/** A provider connection. `apiKey` is write-only: it is moved to the secret store on save. */
export const providerEntrySchema = z.looseObject({
  id: z.string().min(1),
  provider: z.string().min(1).optional(),
  label: z.string().optional(),
  baseUrl: z.url().optional(),
  authMode: z.enum(["apiKey", "oauth"]).optional(),
  headers: headersSchema.optional(),
  apiKey: z.string().optional(),
});
export type ProviderEntry = z.infer<typeof providerEntrySchema>;

/** A model record; for the gateway, `id` is the `<vendor>/<model>` slug sent verbatim upstream. */
export const modelEntrySchema = z.looseObject({
  id: z.string().min(1),
  provider: z.string().min(1).optional(),
  label: z.string().optional(),
  headers: headersSchema.optional(),
  apiKey: z.string().optional(),
  /** USD per token, set by the user for a server that reports no cost (self-hosted, proxies). */
  pricing: z
    .strictObject({ prompt: z.number().nonnegative().max(1), completion: z.number().nonnegative().max(1) })
    .optional(),
  /** `transcription` marks a speech-to-text model the server's list does not label as one. */
  kind: z.enum(["chat", "transcription"]).optional(),
  /**
   * `false`: the model cannot use tools, so none are offered to it (set by the user, or remembered when
   * the model refused them); `true` offers them even where the server's catalog says it takes none.
   */
  tools: z.boolean().optional(),
  /** The model's context window in tokens, where the server's catalog does not say (contract 7.3). */
  contextLength: z.number().int().min(1_000).max(100_000_000).optional(),
});
export type ModelEntry = z.infer<typeof modelEntrySchema>;

/** A stable MCP server id: tool ids are `mcp__<id>__<tool>`. */
export const mcpServerIdSchema = z
  .string()
  .regex(/^[a-z0-9-]{1,32}$/, "lowercase letters, digits and -, 1 to 32 characters");

/**
 * An MCP server (contract 6.4). `env` and `headers` values are secrets: stored in the secret store,
 * shown and kept in the layer as `"<secret>"`.
 */
export const mcpTransportSchema = z.enum(["stdio", "http", "sse"]);
export type McpTransport = z.infer<typeof mcpTransportSchema>;

export const mcpServerEntrySchema = z
  .looseObject({
    id: mcpServerIdSchema,
    name: z.string().max(100).optional(),
    /** `http`: streamable HTTP, falling back to the older HTTP+SSE transport; `sse`: HTTP+SSE only. */
    transport: mcpTransportSchema,
    command: z.string().min(1).optional(),
    args: z.array(z.string()).max(100).optional(),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).optional(),
    cwd: z.string().min(1).optional(),
    url: z.url().optional(),
    headers: headersSchema.optional(),
    enabled: z.boolean().optional(),
    /** A stdio server's own `mode` and `network` in the sandbox, over `sandbox` (contract 7.5). */
    sandbox: mcpServerSandboxSchema.optional(),
  })
  .refine((entry) => (entry.transport === "stdio" ? entry.command !== undefined : entry.url !== undefined), {
    message: "a stdio server needs `command`, an http or sse server `url`",
  });
export type McpServerEntry = z.infer<typeof mcpServerEntrySchema>;

/** The built-in profile a new chat starts with (its `promptId`) when it names no prompt; `none`: no prompt. */
export const promptStyleSchema = z.enum(["none", "very-small", "average", "extensive"]);

/** Settings, App defaults, Chat defaults. */
export const chatDefaultsSchema = z.object({
  defaultPromptStyle: promptStyleSchema,
  enterInsertsNewline: z.boolean(),
  autoRetryFailedSends: z.boolean(),
  /** The agent loop's step limit per turn (contract 6.3). */
  maxSteps: z.number().int().min(1).max(1000),
  /** No further step starts once a turn has cost this much (USD); null: no budget. */
  maxTurnCost: z.number().positive().max(10_000).nullable(),
  /** The context window (tokens) of a model neither the catalog nor a `models` entry describes (contract 7.3). */
  contextWindow: z.number().int().min(1_000).max(100_000_000),
  /** `cache_control` marks for vendors that need them, and a byte-stable prefix for all (contract 7.3). */
  promptCaching: z.boolean(),
  /** The environment system message: folder, OS and shell, date, git branch (contract 7.3). */
  environment: z.boolean(),
  /**
   * Share of the window the tool definitions may take; past it, MCP tools are found through
   * `tool_search` instead of being offered one by one (contract 7.3).
   */
  toolBudget: z.number().min(0.01).max(1),
  /** When and how a long conversation is compacted (contract 7.3). */
  compaction: compactionSettingsSchema,
});
export type ChatDefaults = z.infer<typeof chatDefaultsSchema>;

export const dictationSchema = z.object({
  modelId: z.string().min(1),
  providerId: z.string().min(1),
});

/** Keys that both layers may set; the project value wins. */
const sharedShape = {
  skills: z.boolean(),
  agentFiles: z.boolean(),
  agentFileNames: z.array(z.string().min(1)),
  tags: z.array(z.string()),
  /** Per-tool gates, the contract's key (`{"shell": "ask"}`); `tools` is the older name and still read. */
  toolGates: z.record(z.string(), toolGateSchema),
  tools: z.record(z.string(), toolGateSchema),
  providers: z.array(providerEntrySchema),
  models: z.array(modelEntrySchema),
  /** The model a new chat takes when it names none. */
  defaultModel: z.string().min(1),
  mcpServers: z.array(mcpServerEntrySchema),
  /** Where `shell` runs (contract 7.5): `mode`, `network`, `hide`. A project's `hide` adds to the app's. */
  sandbox: sandboxSettingsSchema,
};

const appOnlyShape = {
  chat: chatDefaultsSchema.partial(),
  dictation: dictationSchema,
  /** Extra Host header names accepted besides loopback (DNS-rebinding defence). */
  allowedHosts: z.array(z.string().min(1)),
  /** Attribution `HTTP-Referer` sent upstream. */
  refererUrl: z.url(),
  /** Browser sessions (password, passkey, token link) end after this many idle days (default 7). */
  access: z.object({ sessionIdleDays: z.number().int().min(1).max(365) }).partial(),
  /** MCP servers: how long one may take to start (initialise and list its tools) before it counts as failed. */
  mcp: z.object({ startupTimeoutMs: z.number().int().min(1_000).max(600_000) }).partial(),
  /** Which private addresses `web_fetch` may reach (none by default): the user's defence, never a repository's. */
  webFetch: webFetchSettingsSchema,
};

const projectOnlyShape = {
  name: z.string().min(1),
  /** `{ "<relPath>": ["tag", …] }` */
  fileTags: z.record(z.string(), z.array(z.string())),
  /** The agent a chat runs as when it picks none (Settings, Agents). */
  defaultAgent: z.string().min(1),
};

export const appSettingsShape = { ...sharedShape, ...appOnlyShape };
/** Keys only the app layer may set: the user's own limits and defences, never a repository's. */
export const APP_ONLY_KEYS: readonly string[] = Object.keys(appOnlyShape);
export const projectSettingsShape = { ...sharedShape, ...projectOnlyShape };

export type AppSettings = Partial<z.infer<z.ZodObject<typeof appSettingsShape>>> & Record<string, unknown>;
export type ProjectSettings = Partial<z.infer<z.ZodObject<typeof projectSettingsShape>>> & Record<string, unknown>;

/** defaults < app < project, as the services read it: every known key typed, unknown keys kept. */
export const resolvedSettingsShape = { ...appSettingsShape, ...projectSettingsShape };
export type ResolvedSettings = Partial<z.infer<z.ZodObject<typeof resolvedSettingsShape>>> & Record<string, unknown>;

/** A `providers`/`models` entry as responses show it: no `apiKey`, but whether one is stored. */
export type RedactedEntry<E> = Omit<E, "apiKey"> & { hasApiKey: boolean };

/** Settings as a client receives them (GET /api/settings/app, /resolved, the project's `project`). */
export type SettingsView<S extends { providers?: ProviderEntry[]; models?: ModelEntry[] }> = Omit<
  S,
  "providers" | "models"
> & {
  providers?: RedactedEntry<ProviderEntry>[];
  models?: RedactedEntry<ModelEntry>[];
};
export type AppSettingsView = SettingsView<AppSettings>;
export type ProjectSettingsView = SettingsView<ProjectSettings>;
export type ResolvedSettingsView = SettingsView<ResolvedSettings>;

/**
 * A PATCH body: every known key, each optional, `null` deletes the key.
 * Entries of `providers`/`models` are merged by `id`; `{id, $remove: true}` removes one,
 * and a `null` field inside an entry deletes that field (`apiKey: null` deletes the stored key).
 */
function patchSchema<S extends Record<string, z.ZodType>>(shape: S) {
  const entryPatch = z.looseObject({ id: z.string().min(1), $remove: z.literal(true).optional() });
  const fields: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape)) {
    const value =
      key === "providers" || key === "models" || key === "mcpServers" ? z.array(entryPatch) : nestedNulls(schema);
    fields[key] = value.nullable().optional();
  }
  return z.strictObject(fields);
}

/**
 * An object- or record-valued key also takes `null` for one of its own keys, which deletes just that
 * key (`{"toolGates": {"shell": null}}`, `{"chat": {"maxSteps": null}}`): "reset to inherited" of one
 * value. The merged result is validated against the plain schema afterwards.
 */
function nestedNulls(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodRecord)
    return z.record(schema.keyType as z.ZodString, (schema.valueType as z.ZodType).nullable());
  if (schema instanceof z.ZodObject) {
    const shape: Record<string, z.ZodType> = {};
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>))
      shape[key] = nestedNulls(field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType) : field).nullish();
    // Strict like the body itself: `{"chat": {"maxStep": 5}}` is a typo to refuse, not a 200 that saved nothing.
    return z.strictObject(shape);
  }
  return schema;
}

export const appSettingsPatchSchema = patchSchema(appSettingsShape);
export const projectSettingsPatchSchema = patchSchema(projectSettingsShape);
export type SettingsPatch = Record<string, unknown>;

/** The layer a resolved value comes from. */
export const settingsLayerNameSchema = z.enum(["default", "app", "project"]);
export type SettingsLayerName = z.infer<typeof settingsLayerNameSchema>;
/** GET /api/settings/resolved `provenance`: the settings' shape, with the layer name at each value. */
export type Provenance = { [key: string]: SettingsLayerName | Provenance };
export const provenanceSchema: z.ZodType<Provenance> = z.lazy(() =>
  z.record(z.string(), z.union([settingsLayerNameSchema, provenanceSchema])),
);

export const storageBodySchema = z.strictObject({ dbBacked: z.boolean() });
