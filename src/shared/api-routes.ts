// The /api routes the UI calls, each once: method and path, query, body and response schemas. The
// webview client is derived from this table, so a path, a body or a result cannot drift unnoticed.
import { z } from "zod";
import { actionEntrySchema, agentEntrySchema } from "./agents";
import { appEventSchemas } from "./app-events";
import { chatSchema, createChatBodySchema, messageSchema, patchChatBodySchema, streamBodySchema } from "./chats";
import { dictationResultSchema } from "./dictation";
import { catalogModelSchema, creditsAnswerSchema, modelSliceSchema } from "./gateway";
import { mentionSearchQuerySchema, rankedMentionSchema } from "./mentions";
import { createProjectBodySchema, projectSchema, trustBodySchema, trustStateSchema } from "./projects";
import { promptDeleteQuerySchema, promptSchema, promptWriteBodySchema } from "./prompts";
import {
  appSettingsPatchSchema,
  appSettingsShape,
  modelEntrySchema,
  projectSettingsPatchSchema,
  provenanceSchema,
  projectSettingsShape,
  providerEntrySchema,
  resolvedSettingsShape,
  storageBodySchema,
} from "./settings";
import { streamEventSchemas } from "./stream-events";
import {
  actionRunBodySchema,
  answerBodySchema,
  approvalBodySchema,
  catalogToolSchema,
  composerRouteBodySchema,
  composerRouteSchema,
  dispatchBodySchema,
  dispatchResultSchema,
  instructionSourcesSchema,
  revertBodySchema,
  revertResultSchema,
  subagentBodySchema,
  subagentResultSchema,
} from "./tools";
import { usageTotalsSchema } from "./usage";

// ---- Settings as responses show them (the zod counterparts of the SettingsView types) ----------

/** A `providers`/`models` entry in a response: `apiKey` never, `hasApiKey` instead. */
const redaction = { apiKey: z.never().optional(), hasApiKey: z.boolean() };
export const redactedProviderSchema = providerEntrySchema.extend(redaction);
export const redactedModelSchema = modelEntrySchema.extend(redaction);
export type RedactedProvider = z.infer<typeof redactedProviderSchema>;
export type RedactedModel = z.infer<typeof redactedModelSchema>;

/** Every known key optional and typed, unknown keys kept: a layer may hold keys a newer version added. */
function settingsViewSchema<S extends z.ZodRawShape>(shape: S) {
  return z
    .looseObject(shape)
    .partial()
    .extend({
      providers: z.array(redactedProviderSchema).optional(),
      models: z.array(redactedModelSchema).optional(),
      /** The storage flag of a database-backed project layer stays on the server. */
      __dbBacked: z.never().optional(),
    });
}
export const appSettingsViewSchema = settingsViewSchema(appSettingsShape);
export const projectSettingsViewSchema = settingsViewSchema(projectSettingsShape);
export const resolvedSettingsViewSchema = settingsViewSchema(resolvedSettingsShape);
export type AppSettingsViewData = z.infer<typeof appSettingsViewSchema>;
export type ProjectSettingsViewData = z.infer<typeof projectSettingsViewSchema>;
export type ResolvedSettingsViewData = z.infer<typeof resolvedSettingsViewSchema>;

/** GET/PATCH /api/settings/project and PUT …/storage: the layer, where it is stored, and its damage. */
export const projectSettingsAnswerSchema = z.object({
  project: projectSettingsViewSchema,
  path: z.string(),
  dbBacked: z.boolean(),
  /** The file could not be read; it is kept as it is and never overwritten. */
  error: z.string().optional(),
  issues: z.array(z.object({ key: z.string(), message: z.string() })).optional(),
});
export type ProjectSettingsAnswer = z.infer<typeof projectSettingsAnswerSchema>;

// ---- Other response shapes no other module defines ----------------------------------------------

export const chatWithMessagesSchema = chatSchema.extend({ messages: z.array(messageSchema), usage: usageTotalsSchema });
export type ChatWithMessages = z.infer<typeof chatWithMessagesSchema>;

/** A built-in prompt profile (GET /api/prompts/defaults). */
export const promptProfileSchema = z.object({ id: z.string(), title: z.string(), systemMessage: z.string(), tag: z.literal("default") });
export type PromptProfile = z.infer<typeof promptProfileSchema>;

/** A signed-in gateway account; `label` is the first characters of its key. */
export const gatewayAccountSchema = z.object({ id: z.string(), label: z.string(), createdAt: z.string(), active: z.boolean() });
export type GatewayAccount = z.infer<typeof gatewayAccountSchema>;

export const oauthStartBodySchema = z.strictObject({ returnTo: z.string().optional() });
export const oauthStartAnswerSchema = z.object({ authorizeUrl: z.string(), state: z.string() });

/** `?projectDir=`: an absolute path; optional where the route also answers without a project. */
export const projectDirQuerySchema = z.object({ projectDir: z.string() });
const optionalProjectDirQuery = z.object({ projectDir: z.string().optional() });

/** One configured MCP server as GET /api/mcp/servers reports it (contract 6.4). */
export const mcpServerStatusSchema = z.object({
  id: z.string(),
  name: z.string(),
  transport: z.enum(["stdio", "http"]),
  scope: z.enum(["app", "project"]),
  status: z.enum(["starting", "ready", "error", "stopped", "untrusted"]),
  error: z.string().optional(),
  stderrTail: z.string().optional(),
  toolCount: z.number(),
  /** The command line of a stdio server, for the trust prompt. */
  command: z.string().optional(),
  enabled: z.boolean(),
});
export type McpServerStatus = z.infer<typeof mcpServerStatusSchema>;

// ---- Access: password, passkeys and browser sessions (contract 6.7) ------------------------------

export const accessStatusSchema = z.object({ passwordSet: z.boolean(), passkeys: z.number(), authenticated: z.boolean() });
export type AccessStatus = z.infer<typeof accessStatusSchema>;
/** `current` is needed to change or clear a password that is set; the server wants 12 characters or more. */
export const passwordBodySchema = z.strictObject({ current: z.string().max(1024).optional(), next: z.string().max(1024) });
export const clearPasswordBodySchema = z.strictObject({ current: z.string().max(1024) });
export const loginBodySchema = z.strictObject({ password: z.string().max(1024) });
/** A browser session; `id` is what DELETE takes (never the cookie itself). */
export const accessSessionSchema = z.object({ id: z.string(), createdAt: z.string(), lastSeenAt: z.string(), userAgent: z.string(), current: z.boolean() });
export type AccessSession = z.infer<typeof accessSessionSchema>;
export const passkeySchema = z.object({ id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeyNameSchema = z.string().trim().min(1).max(100);
/** A WebAuthn credential as @simplewebauthn/browser hands it over; the server's library checks the rest. */
export const credentialResponseSchema = z.looseObject({ id: z.string().max(2048), rawId: z.string().max(2048), type: z.literal("public-key"), response: z.looseObject({}) });
/** PublicKeyCredentialCreationOptionsJSON / …RequestOptionsJSON: the fields the UI relies on, the rest kept. */
export const registrationOptionsSchema = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ name: z.string(), id: z.string().optional() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ type: z.literal("public-key"), alg: z.number() })),
});
export const authenticationOptionsSchema = z.looseObject({ challenge: z.string(), rpId: z.string().optional() });

/** 204 No Content. */
const noContent = z.undefined();

// ---- The route table ---------------------------------------------------------------------------

export type RouteSpec = { query?: z.ZodType; body?: z.ZodType; response: z.ZodType };

export const apiRoutes = {
  "GET /api/projects": { response: z.array(projectSchema) },
  "POST /api/projects": { body: createProjectBodySchema, response: projectSchema },

  "GET /api/projects/:id/chats": { response: z.array(chatSchema) },
  "POST /api/projects/:id/chats": { body: createChatBodySchema, response: chatSchema },
  "GET /api/chats/:id": { response: chatWithMessagesSchema },
  "PATCH /api/chats/:id": { body: patchChatBodySchema, response: chatSchema },
  "DELETE /api/chats/:id": { response: noContent },
  "POST /api/chats/:id/cancel": { response: noContent },
  /** Answers a `tool.approval` of the chat's waiting turn (`:call` is its callId). */
  "POST /api/chats/:id/approvals/:call": { body: approvalBodySchema, response: noContent },
  /** Answers a `tool.question` (ask_user) of the chat's waiting turn. */
  "POST /api/chats/:id/answers/:call": { body: answerBodySchema, response: noContent },
  /** Restores the files a turn changed; 409 `conflict` (issues `[{path}]`) when one changed since, unless forced. */
  "POST /api/chats/:id/turns/:turn/revert": { body: revertBodySchema, response: revertResultSchema },
  "GET /api/tools/catalog": { query: optionalProjectDirQuery, response: z.array(catalogToolSchema) },

  /** Direct runs from the composer (contract 6.5, 6.6): each is a turn of its own on the chat's stream. */
  "POST /api/composer/route": { body: composerRouteBodySchema, response: composerRouteSchema },
  /** 404 unknown agent, 403 gate off, 409 while the chat answers. */
  "POST /api/tools/subagent": { body: subagentBodySchema, response: subagentResultSchema },
  /** `shell` or an MCP tool; stays open while its approval waits. 400 file tools or bad MCP arguments, 403 off. */
  "POST /api/tools/dispatch": { body: dispatchBodySchema, response: dispatchResultSchema },
  /** 403 for any action of a project the user has not trusted (contract 7.1). */
  "POST /api/actions/:id/run": { body: actionRunBodySchema, response: dispatchResultSchema },
  "GET /api/agents": { query: projectDirQuerySchema, response: z.array(agentEntrySchema) },
  /** Sets (or with null clears) an agent's prompt in `.app.json`; 404 unknown agent or prompt. */
  "PUT /api/agents/:name/prompt": { body: z.strictObject({ projectDir: z.string(), promptId: z.string().min(1).nullable() }), response: noContent },
  "GET /api/actions": { query: projectDirQuerySchema, response: z.array(actionEntrySchema) },
  /**
   * The @ popup's ranked rows. With `clientId`, a keystroke a newer one of the same client replaced
   * is answered `[]` with the header `X-Parley-Superseded: 1`.
   */
  "GET /api/mentions/search": { query: mentionSearchQuerySchema, response: z.array(rankedMentionSchema) },

  /** Every server the project has (app and project layers), started or not. */
  "GET /api/mcp/servers": { query: projectDirQuerySchema, response: z.array(mcpServerStatusSchema) },
  /** Starts or restarts a server; 400 while it waits for the project's trust. */
  "POST /api/mcp/servers/:id/restart": { query: projectDirQuerySchema, response: noContent },
  /** What the repository's `.app.json` brings that waits for the user's trust, and whether it has it (contract 7.1). */
  "GET /api/projects/:id/trust": { response: trustStateSchema },
  /** 409 under VS Code's Restricted Mode, or while `.app.json` cannot be parsed. */
  "POST /api/projects/:id/trust": { body: trustBodySchema, response: trustBodySchema },

  "GET /api/prompts": { query: z.union([z.object({ scope: z.literal("app") }), projectDirQuerySchema]), response: z.array(promptSchema) },
  "GET /api/prompts/defaults": { response: z.array(promptProfileSchema) },
  /** 201; 409 when the id exists in that scope; 400 with zod issues under `prompt.<field>`. */
  "POST /api/prompts": { body: promptWriteBodySchema, response: promptSchema },
  "PUT /api/prompts/:id": { body: promptWriteBodySchema, response: promptSchema },
  /** Clears `promptId` on every chat that used it. */
  "DELETE /api/prompts/:id": { query: promptDeleteQuerySchema, response: noContent },
  /** The agent files and skills a preset can switch on, and the master switches that lock them. */
  "GET /api/instructions": { query: projectDirQuerySchema, response: instructionSourcesSchema },

  "GET /api/settings/app": { response: appSettingsViewSchema },
  "PATCH /api/settings/app": { body: appSettingsPatchSchema, response: appSettingsViewSchema },
  "GET /api/settings/project": { query: projectDirQuerySchema, response: projectSettingsAnswerSchema },
  "PATCH /api/settings/project": { query: projectDirQuerySchema, body: projectSettingsPatchSchema, response: projectSettingsAnswerSchema },
  "PUT /api/settings/project/storage": { query: projectDirQuerySchema, body: storageBodySchema, response: projectSettingsAnswerSchema },
  /** `provenance`: the layer (default, app, project) of each value, in the shape of `settings`. */
  "GET /api/settings/resolved": { query: optionalProjectDirQuery, response: z.object({ settings: resolvedSettingsViewSchema, provenance: provenanceSchema }) },

  "GET /api/access/status": { response: accessStatusSchema },
  /** Sets or changes the password (204); every session ends, and the caller gets a fresh one. 403 wrong `current`. */
  "POST /api/access/password": { body: passwordBodySchema, response: noContent },
  "DELETE /api/access/password": { body: clearPasswordBodySchema, response: noContent },
  "POST /api/access/login": { body: loginBodySchema, response: noContent },
  "POST /api/access/logout": { response: noContent },
  "GET /api/access/sessions": { response: z.array(accessSessionSchema) },
  "DELETE /api/access/sessions/:id": { response: noContent },
  /** Revokes every session but the caller's. */
  "DELETE /api/access/sessions": { response: z.object({ revoked: z.number() }) },
  "GET /api/access/passkeys": { response: z.array(passkeySchema) },
  "PATCH /api/access/passkeys/:id": { body: z.strictObject({ name: passkeyNameSchema }), response: noContent },
  "DELETE /api/access/passkeys/:id": { response: noContent },
  /** 400 on an IP address (the message names http://localhost:PORT/). */
  "POST /api/access/passkeys/register/options": { body: z.strictObject({}), response: registrationOptionsSchema },
  "POST /api/access/passkeys/register/verify": { body: z.strictObject({ name: passkeyNameSchema, response: credentialResponseSchema }), response: passkeySchema },
  "POST /api/access/login/passkey/options": { body: z.strictObject({}), response: authenticationOptionsSchema },
  "POST /api/access/login/passkey/verify": { body: z.strictObject({ response: credentialResponseSchema }), response: noContent },

  "GET /api/providers/gateway/models": { query: z.object({ slice: modelSliceSchema.optional() }), response: z.array(catalogModelSchema) },
  "GET /api/providers/gateway/credits": { response: creditsAnswerSchema },
  "POST /api/providers/gateway/oauth/start": { body: oauthStartBodySchema, response: oauthStartAnswerSchema },
  "GET /api/providers/gateway/accounts": { response: z.array(gatewayAccountSchema) },
  "POST /api/providers/gateway/accounts/:id/activate": { response: noContent },
  "DELETE /api/providers/gateway/accounts/:id": { response: noContent },
} as const satisfies Record<string, RouteSpec>;

export type ApiRouteKey = keyof typeof apiRoutes;

/** Routes that take a multipart/form-data upload: the form's fields, and what each answers. */
export const uploadRoutes = {
  /** Fields: `audio` (a file of at most 25 MB, else 413) and optional `modelId` (else the app's `dictation` model). */
  "POST /api/dictation/transcribe": { fields: ["audio", "modelId"], response: dictationResultSchema },
} as const satisfies Record<string, { fields: readonly string[]; response: z.ZodType }>;

export type UploadRouteKey = keyof typeof uploadRoutes;

/** Server-sent event streams: what each sends, by event name. */
export const streamRoutes = {
  "POST /api/chats/:id/messages/stream": { body: streamBodySchema, events: streamEventSchemas },
  /** Follows the chat's live turn; 204 when none is live. */
  "GET /api/chats/:id/stream": { events: streamEventSchemas },
  /** `ready` is sent once when the stream opens. */
  "GET /api/events": { events: { ...appEventSchemas, ready: z.object({}) } },
} as const satisfies Record<string, { body?: z.ZodType; events: Record<string, z.ZodType> }>;

export type StreamRouteKey = keyof typeof streamRoutes;
