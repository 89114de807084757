// Every /api route, declared once: method and path, query, body and response schemas. The server
// registers its handlers against these keys (src/platform/http/define-route.ts), the webview client and the
// OpenAPI document (GET /api/openapi.json) are derived from them, so nothing else names a route.
import { z } from "zod";
import {
  boardSchema,
  worktreeDiscardBodySchema,
  worktreeFileQuerySchema,
  worktreeFileSchema,
  worktreeMergeBodySchema,
  worktreeMergeResultSchema,
  worktreeSchema,
} from "./worktrees";
import { actionEntrySchema, agentEntrySchema, agentWriteBodySchema } from "./agents";
import { appEventSchemas } from "./app-events";
import {
  chatPageSchema,
  chatSchema,
  createChatBodySchema,
  messageSchema,
  pageQuerySchema,
  patchChatBodySchema,
  streamBodySchema,
  forkChatBodySchema,
} from "./chats";
import { dictationResultSchema } from "./dictation";
import { chatExportSchema, exportQuerySchema } from "./chat-export";
import { searchHitSchema, searchQuerySchema } from "./search";
import { implementPlanBodySchema } from "./plan-mode";
import { contextReportSchema } from "./context";
import { upstreamRequestSchema } from "./requests";
import { patchCompactionBodySchema } from "./compaction";
import { catalogModelSchema, creditsAnswerSchema, modelSliceSchema } from "./gateway";
import {
  mentionCategorySchema,
  mentionMcpSchema,
  mentionSearchQuerySchema,
  rankedMentionSchema,
  scannedFileSchema,
} from "./mentions";
import { createProjectBodySchema, projectSchema, trustBodySchema, trustStateSchema } from "./projects";
import { promptDeleteQuerySchema, promptSchema, promptWriteBodySchema } from "./prompts";
import {
  appSettingsPatchSchema,
  appSettingsShape,
  mcpTransportSchema,
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
import { usageQuerySchema, usageRowSchema, usageTotalsSchema } from "./usage";

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

export const chatWithMessagesSchema = chatSchema.extend({
  messages: z.array(messageSchema),
  /** The whole chat's totals, whatever page of messages came with them. */
  usage: usageTotalsSchema,
  /** With `limit` or `before` (a page): whether older messages exist before the first one given. */
  hasMore: z.boolean().optional(),
});
export type ChatWithMessages = z.infer<typeof chatWithMessagesSchema>;

/** A built-in prompt profile (GET /api/prompts/defaults). */
export const promptProfileSchema = z.object({
  id: z.string(),
  title: z.string(),
  systemMessage: z.string(),
  tag: z.literal("default"),
});
export type PromptProfile = z.infer<typeof promptProfileSchema>;

/** A signed-in gateway account; `label` is the first characters of its key. */
export const gatewayAccountSchema = z.object({
  id: z.string(),
  label: z.string(),
  createdAt: z.string(),
  active: z.boolean(),
});
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
  transport: mcpTransportSchema,
  scope: z.enum(["app", "project"]),
  status: z.enum(["starting", "ready", "error", "stopped", "untrusted"]),
  error: z.string().optional(),
  stderrTail: z.string().optional(),
  toolCount: z.number(),
  /** What a ready server offers besides tools (0 until it is ready). */
  resourceCount: z.number(),
  promptCount: z.number(),
  /** The command line of a stdio server, for the trust prompt. */
  command: z.string().optional(),
  enabled: z.boolean(),
  /** A stdio server: whether it runs in the sandbox (contract 7.5), and why not. Absent for a remote server. */
  sandboxed: z.boolean().optional(),
  sandboxReason: z.string().optional(),
});
export type McpServerStatus = z.infer<typeof mcpServerStatusSchema>;

/** A resource an MCP server offers: attached to a message (`referencedResources`) like a referenced file. */
export const mcpResourceSchema = z.object({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
export type McpResource = z.infer<typeof mcpResourceSchema>;

/** A prompt an MCP server offers: the composer fills in its arguments and gets its text. */
export const mcpPromptSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z
    .array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() }))
    .optional(),
});
export type McpPrompt = z.infer<typeof mcpPromptSchema>;

export const mcpPromptBodySchema = z.object({
  arguments: z.record(z.string().max(200), z.string().max(100_000)).default({}),
});

// ---- Access: password, passkeys and browser sessions (contract 6.7) ------------------------------

export const accessStatusSchema = z.object({
  passwordSet: z.boolean(),
  passkeys: z.number(),
  authenticated: z.boolean(),
});
export type AccessStatus = z.infer<typeof accessStatusSchema>;
/** `current` is needed to change or clear a password that is set; the server wants 12 characters or more. */
export const passwordBodySchema = z.strictObject({
  current: z.string().max(1024).optional(),
  next: z.string().max(1024),
});
export const clearPasswordBodySchema = z.strictObject({ current: z.string().max(1024) });
export const loginBodySchema = z.strictObject({ password: z.string().max(1024) });
/** A browser session; `id` is what DELETE takes (never the cookie itself). */
export const accessSessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  userAgent: z.string(),
  current: z.boolean(),
});
export type AccessSession = z.infer<typeof accessSessionSchema>;
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeyNameSchema = z.string().trim().min(1).max(100);
/** A WebAuthn credential as @simplewebauthn/browser hands it over; the server's library checks the rest. */
export const credentialResponseSchema = z.looseObject({
  id: z.string().max(2048),
  rawId: z.string().max(2048),
  type: z.literal("public-key"),
  response: z.looseObject({}),
});
/** PublicKeyCredentialCreationOptionsJSON / …RequestOptionsJSON: the fields the UI relies on, the rest kept. */
export const registrationOptionsSchema = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ name: z.string(), id: z.string().optional() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ type: z.literal("public-key"), alg: z.number() })),
});
export const authenticationOptionsSchema = z.looseObject({ challenge: z.string(), rpId: z.string().optional() });

// ---- Routes the table did not hold before (the UI does not call them; outside clients may) --------

export const healthSchema = z.object({ ok: z.literal(true), version: z.string() });
/** `.app.json` `fileTags` as rows. */
export const fileTagsSchema = z.array(z.object({ path: z.string(), tags: z.array(z.string()) }));
export const projectScanSchema = z.object({ scannedAt: z.string(), files: z.array(scannedFileSchema) });
/** An entry of the @ popup's catalog; `searchText` (tags or description) is matched after the name. */
export const mentionItemSchema = z.object({
  category: mentionCategorySchema,
  label: z.string(),
  detail: z.string(),
  insertText: z.string(),
  searchText: z.string().optional(),
  parameters: z.unknown().optional(),
  mcp: mentionMcpSchema.optional(),
});
export const mentionCatalogSchema = z.object({
  files: z.array(scannedFileSchema.extend({ tags: z.array(z.string()).optional() })),
  agents: z.array(mentionItemSchema),
  actions: z.array(mentionItemSchema),
  tools: z.array(mentionItemSchema),
  mcp: z.array(mentionItemSchema),
  /** The label of the model the chat (or the project) would use. */
  model: z.string().nullable(),
});
/** App settings rows that could not be read, kept aside instead of overwritten. */
export const quarantinedSettingsSchema = z.array(
  z.object({ key: z.string(), value: z.string(), createdAt: z.string() }),
);
/** The generated OpenAPI 3.1 document; its inside is checked by its own test, not by this schema. */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

/** 204 No Content: a route whose response is this answers 204 with no body. */
export const noContent = z.undefined();

// ---- The route table ---------------------------------------------------------------------------

/**
 * One JSON route. A body schema that accepts `undefined` (`.optional()`, `.default({})`) makes the
 * body optional; without `body`, whatever is sent is ignored. `created`: the route answers 201 when
 * it creates what it names (its handler says when); a `noContent` response answers 204.
 */
/** `public`: reachable without credentials (the access check lets exactly this spelling through). */
export type RouteSpec = { query?: z.ZodType; body?: z.ZodType; response: z.ZodType; created?: true; public?: true };

export const apiRoutes = {
  /** Liveness; public (no credentials). */
  "GET /api/health": { response: healthSchema, public: true },
  /** This table as an OpenAPI 3.1 document. */
  "GET /api/openapi.json": { response: openApiDocumentSchema },

  "GET /api/projects": { response: z.array(projectSchema) },
  /** 201 when the directory is registered now, 200 when it was already. */
  "POST /api/projects": { body: createProjectBodySchema, response: projectSchema, created: true },
  "GET /api/projects/:id/tags": { response: fileTagsSchema },
  /** The project's text files (`.gitignore` honoured); `folder` is `Project root` for root files. */
  "POST /api/projects/:id/tags/scan": { response: projectScanSchema },

  /** With `limit` or `before` (a chat id): `{chats, hasMore}`, newest first; else every chat (an array). */
  "GET /api/projects/:id/chats": { query: pageQuerySchema, response: z.union([z.array(chatSchema), chatPageSchema]) },
  "POST /api/projects/:id/chats": { body: createChatBodySchema.default({}), response: chatSchema, created: true },
  /** With `limit` or `before` (a message id of this chat, else 404): the last messages before it, and `hasMore`. */
  "GET /api/chats/:id": { query: pageQuerySchema, response: chatWithMessagesSchema },
  /** `leafId` switches the branch shown (409 while the chat answers, 404 for a message of another chat). */
  "PATCH /api/chats/:id": { body: patchChatBodySchema, response: chatSchema },
  "DELETE /api/chats/:id": { response: noContent },
  /** A new chat holding the current path up to and including `messageId` (contract 7.4). */
  "POST /api/chats/:id/fork": { body: forkChatBodySchema, response: chatSchema, created: true },
  /** A worktree chat's worktree (contract 7.6): branch, base, changed files, ahead and behind; 404 for another chat. */
  "GET /api/chats/:id/worktree": { response: worktreeSchema },
  /** One changed file at the base and in the worktree, for a diff view. */
  "GET /api/chats/:id/worktree/file": { query: worktreeFileQuerySchema, response: worktreeFileSchema },
  /**
   * Merges (or squashes) the chat's work into its base in the project; 409 `conflict` listing the files
   * in `issues` (nothing changed) for a conflict, uncommitted project changes in its way, another base
   * checked out, a running turn or another merge under way.
   */
  "POST /api/chats/:id/worktree/merge": { body: worktreeMergeBodySchema, response: worktreeMergeResultSchema },
  /** Removes the worktree and its branch; 409 listing the files while it holds unmerged work, unless `force`. */
  "DELETE /api/chats/:id/worktree": { body: worktreeDiscardBodySchema.default({}), response: noContent },
  /** The project's board of worktree chats (contract 7.6): status, changes, cost, last message, what waits. */
  "GET /api/projects/:id/worktree-chats": { response: boardSchema },
  /** How full the context of the request the chat would send now is (contract 7.3); 400 without a model. */
  "GET /api/chats/:id/context": { response: contextReportSchema },
  /** One row per upstream request of the chat, oldest first (contract 7.3). */
  "GET /api/chats/:id/requests": { response: z.array(upstreamRequestSchema) },
  /**
   * Compacts the chat now (contract 7.3): the stored entry (role `compaction`). 409 while it answers or
   * when there is nothing older to summarise; 502 when the summary fails (nothing is stored).
   */
  "POST /api/chats/:id/compact": { response: messageSchema },
  /** Edits a compaction's summary; 413 past MAX_SUMMARY_CHARS, 409 for an entry without a summary. */
  "PATCH /api/chats/:id/compactions/:cid": { body: patchCompactionBodySchema, response: messageSchema },
  /** Undoes a compaction: the chat sends what it sent before it. */
  "DELETE /api/chats/:id/compactions/:cid": { response: noContent },
  "POST /api/chats/:id/cancel": { response: noContent },
  /** Answers a `tool.approval` of the chat's waiting turn (`:call` is its callId). */
  "POST /api/chats/:id/approvals/:call": { body: approvalBodySchema, response: noContent },
  /** Answers a `tool.question` (ask_user) of the chat's waiting turn. */
  "POST /api/chats/:id/answers/:call": { body: answerBodySchema, response: noContent },
  /** Restores the files a turn changed; 409 `conflict` (issues `[{path}]`) when one changed since, unless forced. */
  "POST /api/chats/:id/turns/:turn/revert": { body: revertBodySchema.default({}), response: revertResultSchema },
  /** Messages (text and tool output) of every chat, or one project's, that hold the words; best first (contract 7.4). */
  "GET /api/search": { query: searchQuerySchema, response: z.array(searchHitSchema) },
  /**
   * "Implement this plan" (Plan mode): the chat goes back to the default agent with that answer pinned.
   * 404 for a message of another chat, 400 for anything but a finished answer, 409 while the chat
   * answers or when the project's default agent is Plan itself.
   */
  "POST /api/chats/:id/implement-plan": { body: implementPlanBodySchema, response: chatSchema },
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
  /** 201; 409 when an agent of that name exists; 400 with issues under `agent.<field>`. */
  "POST /api/agents": { body: agentWriteBodySchema, response: agentEntrySchema, created: true },
  /** Replaces the agent's fields (its name cannot change; keys Parley does not know stay); 404 unknown agent. */
  "PUT /api/agents/:name": { body: agentWriteBodySchema, response: agentEntrySchema },
  /** 404 unknown agent. */
  "DELETE /api/agents/:name": { query: projectDirQuerySchema, response: noContent },
  /** Sets (or with null clears) an agent's prompt in `.app.json`; 404 unknown agent or prompt. */
  "PUT /api/agents/:name/prompt": {
    body: z.strictObject({ projectDir: z.string(), promptId: z.string().min(1).nullable() }),
    response: noContent,
  },
  "GET /api/actions": { query: projectDirQuerySchema, response: z.array(actionEntrySchema) },
  /**
   * The @ popup's ranked rows. With `clientId`, a keystroke a newer one of the same client replaced
   * is answered `[]` with the header `X-Parley-Superseded: 1`.
   */
  "GET /api/mentions/search": { query: mentionSearchQuerySchema, response: z.array(rankedMentionSchema) },
  /** Everything the @ popup offers before a keystroke; `chatId` picks the chat's model. */
  "GET /api/mentions/catalog": {
    query: z.object({ projectDir: z.string(), chatId: z.string().optional() }),
    response: mentionCatalogSchema,
  },

  /** Every server the project has (app and project layers), started or not. */
  "GET /api/mcp/servers": { query: projectDirQuerySchema, response: z.array(mcpServerStatusSchema) },
  /** Starts or restarts a server; 400 while it waits for the project's trust. */
  "POST /api/mcp/servers/:id/restart": { query: projectDirQuerySchema, response: noContent },
  /** A server's resources and prompts; the server is started (and waited for) if need be. 400 when it cannot be. */
  "GET /api/mcp/servers/:id/resources": { query: projectDirQuerySchema, response: z.array(mcpResourceSchema) },
  "GET /api/mcp/servers/:id/prompts": { query: projectDirQuerySchema, response: z.array(mcpPromptSchema) },
  /** A prompt with its arguments filled in, as the composer's text; 400 when a required argument is missing. */
  "POST /api/mcp/servers/:id/prompts/:name": {
    query: projectDirQuerySchema,
    body: mcpPromptBodySchema,
    response: z.object({ text: z.string() }),
  },
  /** What the repository's `.app.json` brings that waits for the user's trust, and whether it has it (contract 7.1). */
  "GET /api/projects/:id/trust": { response: trustStateSchema },
  /** 409 under VS Code's Restricted Mode, or while `.app.json` cannot be parsed. */
  "POST /api/projects/:id/trust": { body: trustBodySchema, response: trustBodySchema },

  /** `?projectDir=` (the project's prompts and the app's it inherits) wins over `?scope=app`. */
  "GET /api/prompts": {
    query: z.union([
      projectDirQuerySchema.extend({ scope: z.literal("app").optional() }),
      z.object({ scope: z.literal("app") }),
    ]),
    response: z.array(promptSchema),
  },
  "GET /api/prompts/defaults": { response: z.array(promptProfileSchema) },
  /** 201; 409 when the id exists in that scope; 400 with zod issues under `prompt.<field>`. */
  "POST /api/prompts": { body: promptWriteBodySchema, response: promptSchema, created: true },
  "PUT /api/prompts/:id": { body: promptWriteBodySchema, response: promptSchema },
  /** Clears `promptId` on every chat that used it. */
  "DELETE /api/prompts/:id": { query: promptDeleteQuerySchema, response: noContent },
  /** The agent files and skills a preset can switch on, and the master switches that lock them. */
  "GET /api/instructions": { query: projectDirQuerySchema, response: instructionSourcesSchema },

  "GET /api/settings/app": { response: appSettingsViewSchema },
  "GET /api/settings/app/quarantine": { response: quarantinedSettingsSchema },
  "PATCH /api/settings/app": { body: appSettingsPatchSchema, response: appSettingsViewSchema },
  "GET /api/settings/project": { query: projectDirQuerySchema, response: projectSettingsAnswerSchema },
  "PATCH /api/settings/project": {
    query: projectDirQuerySchema,
    body: projectSettingsPatchSchema,
    response: projectSettingsAnswerSchema,
  },
  "PUT /api/settings/project/storage": {
    query: projectDirQuerySchema,
    body: storageBodySchema,
    response: projectSettingsAnswerSchema,
  },
  /** `provenance`: the layer (default, app, project) of each value, in the shape of `settings`. */
  "GET /api/settings/resolved": {
    query: optionalProjectDirQuery,
    response: z.object({ settings: resolvedSettingsViewSchema, provenance: provenanceSchema }),
  },

  "GET /api/access/status": { response: accessStatusSchema, public: true },
  /** Sets or changes the password (204); every session ends, and the caller gets a fresh one. 403 wrong `current`. */
  "POST /api/access/password": { body: passwordBodySchema, response: noContent },
  "DELETE /api/access/password": { body: clearPasswordBodySchema, response: noContent },
  "POST /api/access/login": { body: loginBodySchema, response: noContent, public: true },
  "POST /api/access/logout": { response: noContent },
  "GET /api/access/sessions": { response: z.array(accessSessionSchema) },
  "DELETE /api/access/sessions/:id": { response: noContent },
  /** Revokes every session but the caller's. */
  "DELETE /api/access/sessions": { response: z.object({ revoked: z.number() }) },
  "GET /api/access/passkeys": { response: z.array(passkeySchema) },
  "PATCH /api/access/passkeys/:id": { body: z.strictObject({ name: passkeyNameSchema }), response: noContent },
  "DELETE /api/access/passkeys/:id": { response: noContent },
  /** 400 on an IP address (the message names http://localhost:PORT/). */
  "POST /api/access/passkeys/register/options": {
    body: z.strictObject({}).optional(),
    response: registrationOptionsSchema,
  },
  /** 201, the new passkey. */
  "POST /api/access/passkeys/register/verify": {
    body: z.strictObject({ name: passkeyNameSchema, response: credentialResponseSchema }),
    response: passkeySchema,
    created: true,
  },
  /** Public; 429 while sign-in is locked, whatever the body. */
  "POST /api/access/login/passkey/options": {
    body: z.strictObject({}).optional(),
    response: authenticationOptionsSchema,
    public: true,
  },
  "POST /api/access/login/passkey/verify": {
    body: z.strictObject({ response: credentialResponseSchema }),
    response: noContent,
    public: true,
  },

  "GET /api/providers/gateway/models": {
    query: z.object({ slice: modelSliceSchema.default("text") }),
    response: z.array(catalogModelSchema),
  },
  "GET /api/providers/gateway/credits": { response: creditsAnswerSchema },
  "POST /api/providers/gateway/oauth/start": {
    body: oauthStartBodySchema.default({}),
    response: oauthStartAnswerSchema,
  },
  "GET /api/providers/gateway/accounts": { response: z.array(gatewayAccountSchema) },
  "POST /api/providers/gateway/accounts/:id/activate": { response: noContent },
  "DELETE /api/providers/gateway/accounts/:id": { response: noContent },

  /** Tokens and cost (chat turns and transcriptions) grouped by model or by day, for one project or all. */
  "GET /api/usage": { query: usageQuerySchema, response: z.array(usageRowSchema) },
} as const satisfies Record<string, RouteSpec>;

export type ApiRouteKey = keyof typeof apiRoutes;

/** Routes that take a multipart/form-data upload: the form's fields (`files`: those that are files, each required), and what each answers. */
export const uploadRoutes = {
  /** Fields: `audio` (a file of at most 25 MB, else 413) and optional `modelId` (else the app's `dictation` model). */
  "POST /api/dictation/transcribe": { fields: ["audio", "modelId"], files: ["audio"], response: dictationResultSchema },
} as const satisfies Record<string, { fields: readonly string[]; files: readonly string[]; response: z.ZodType }>;

export type UploadRouteKey = keyof typeof uploadRoutes;

/**
 * Routes that answer a file to save (`Content-Disposition: attachment`, named after what it holds)
 * instead of an API answer: `types` gives the media type of each `format` the query takes, `json` the
 * shape of the JSON format's document.
 */
export const downloadRoutes = {
  /** The chat's current path with its tool calls and results (contract 7.4); 404 unknown chat, 400 unknown format. */
  "GET /api/chats/:id/export": {
    query: exportQuerySchema,
    types: { markdown: "text/markdown", json: "application/json" },
    json: chatExportSchema,
  },
} as const satisfies Record<string, { query: z.ZodType; types: Record<string, string>; json?: z.ZodType }>;

export type DownloadRouteKey = keyof typeof downloadRoutes;

/** Server-sent event streams: what each takes, and what it sends by event name. */
export const streamRoutes = {
  "POST /api/chats/:id/messages/stream": { body: streamBodySchema, events: streamEventSchemas },
  /**
   * Follows the chat's live turn, replayed after the `Last-Event-ID` header (or `?after=`, for a
   * client that cannot set headers; a malformed one counts as none); 204 when no turn is live.
   */
  "GET /api/chats/:id/stream": {
    query: z.object({ after: z.string().optional().catch(undefined) }),
    events: streamEventSchemas,
  },
  /** `ready` is sent once when the stream opens. */
  "GET /api/events": { events: { ...appEventSchemas, ready: z.object({}) } },
} as const satisfies Record<string, { query?: z.ZodType; body?: z.ZodType; events: Record<string, z.ZodType> }>;

export type StreamRouteKey = keyof typeof streamRoutes;

/**
 * /api routes a browser opens itself rather than the UI's client: they answer an HTML page, never
 * JSON, even to a malformed query (so its schema cannot fail).
 */
export const pageRoutes = {
  /** Where the gateway sends the browser back after sign-in; public, proven by its single-use `state`. */
  "GET /api/providers/gateway/oauth/callback": {
    query: z.object({ code: z.string().optional().catch(undefined), state: z.string().optional().catch(undefined) }),
    public: true,
  },
} as const satisfies Record<string, { query?: z.ZodType; public?: true }>;

export type PageRouteKey = keyof typeof pageRoutes;

/** The keys (`"GET /api/health"`) of every route that needs no credentials. */
export const publicRouteKeys: ReadonlySet<string> = new Set(
  Object.entries({ ...apiRoutes, ...pageRoutes })
    .filter(([, spec]) => "public" in spec && spec.public === true)
    .map(([key]) => key),
);

// ---- Keys as types and values --------------------------------------------------------------------

/** The path of a route key: `"GET /api/chats/:id"` → `"/api/chats/:id"`. */
export type PathOf<K extends string> = string extends K ? string : K extends `${string} ${infer P}` ? P : never;
/** `:name` segments of a path pattern, as an object of strings. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : unknown;

export function methodOf(key: string): string {
  return key.slice(0, key.indexOf(" "));
}
export function pathOf<K extends string>(key: K): PathOf<K> {
  return key.slice(key.indexOf(" ") + 1) as PathOf<K>;
}
