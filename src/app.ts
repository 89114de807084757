// The composition root: opens the stores and builds the services one Parley process shares.
// Both `parley serve` and the VS Code extension start from here; only the secret store differs.
import path from "node:path";
import { randomBytes } from "node:crypto";
import { builtInDefaults } from "./settings/settings-defaults";
import { openDatabase, type Db } from "./platform/db";
import { AppKvRepo } from "./platform/app-kv-repo";
import { AppSettingsStore } from "./settings/app-settings-store";
import { ProjectsRepo } from "./projects/projects-repo";
import { ProjectSettingsRepo } from "./settings/project-settings-repo";
import { SessionsRepo } from "./access/sessions-repo";
import { FileSecretStore, type SecretStore } from "./settings/secret-store";
import { EventBus } from "./platform/event-bus";
import { ProjectRegistry } from "./projects/project-registry";
import { SettingsService } from "./settings/settings-service";
import type { Logger } from "./platform/logger";
import { ChatsRepo } from "./chat/chats-repo";
import { MessagesRepo } from "./chat/messages-repo";
import { UsageLedger } from "./chat/usage-ledger";
import { RecentModelsRepo } from "./chat/recent-models-repo";
import { ChatService } from "./chat/chat-service";
import { ChatTurns } from "./chat/chat-turn";
import { PromptService } from "./prompts/prompt-service";
import { PromptTurnContext } from "./chat/turn-context";
import { ToolCatalog } from "./tools/catalog";
import { PromptsRepo } from "./prompts/prompts-repo";
import { McpToolCacheRepo } from "./tools/mcp/tool-cache-repo";
import type { ProjectRow } from "./projects/projects-repo";
import { openMentions, type MentionEngine, type Mentions } from "./mentions";
import { ConnectionResolver } from "./gateway/connection-resolver";
import { WorktreeService } from "./worktrees/worktree-service";
import { WorktreesRepo } from "./worktrees/worktrees-repo";
import { PendingInteractions } from "./tools/interactions";
import { CheckpointsRepo } from "./chat/checkpoints-repo";
import { RequestsRepo } from "./chat/requests-repo";
import { SearchRepo } from "./search/search-repo";
import { ProjectTrustRepo } from "./projects/project-trust-repo";
import { tempJournal } from "./platform/temp-journal";
import { ProjectTrust } from "./projects/project-trust";
import { PasskeysRepo } from "./access/passkeys-repo";
import { AccessService, DEFAULT_SESSION_IDLE_DAYS } from "./access/access-service";
import { McpManager } from "./tools/mcp/manager";
import { ToolEnvironment } from "./chat/tool-environment";
import { Subagents } from "./chat/subagents";
import { Compactor } from "./chat/compaction/compactor";
import { CompactionEntries } from "./chat/compaction/compaction-entries";
import { DirectRuns } from "./chat/direct-runs";
import { Credentials } from "./settings/credentials";
import { entryOrigin } from "./settings/credential-binding";
import { resolveLayers } from "./settings/settings-merge";
import { ModelCatalog } from "./gateway/model-catalog";
import { followGatewayBaseUrl } from "./gateway/catalog-follower";
import { ActiveTurns } from "./chat/turn-broadcast";
import { PlanPins } from "./chat/plan/plan-pins";
import { Dictation } from "./dictation/dictation";
import { GatewayAccounts } from "./gateway/gateway-accounts";
import { GatewayOAuth } from "./gateway/gateway-oauth";
import { DEFAULT_GATEWAY_AUTH_URL } from "./settings/settings-defaults";
import { Sandbox } from "./tools/sandbox/sandbox";
import type { SandboxAvailability } from "./tools/sandbox/sandbox-rules";

export type RuntimeOptions = {
  home: string;
  log: Logger;
  /** Defaults to the 0600 file store under `home`. */
  secrets?: SecretStore;
  /** APP_GATEWAY_BASE_URL; the provider setting `baseUrl` still wins. */
  gatewayBaseUrl?: string;
  /** APP_GATEWAY_AUTH_URL: the gateway's browser authorization page. */
  gatewayAuthUrl?: string;
  /** Access token for this start; random when absent. */
  token?: string;
  /** Base of the retry backoff for failed sends (tests shorten it). */
  retryBaseMs?: number;
  /** VS Code's Workspace Trust; absent (a plain `parley serve`) counts as trusted. */
  workspaceTrusted?: () => boolean;
  mcpConnectTimeoutMs?: number;
  mcpCallTimeoutMs?: number;
  /** Replaces the sandbox probe (tests of a machine without one). */
  sandboxProbe?: () => Promise<SandboxAvailability>;
};

export type Runtime = {
  home: string;
  token: string;
  db: Db;
  log: Logger;
  events: EventBus;
  secrets: SecretStore;
  sessions: SessionsRepo;
  access: AccessService;
  appStore: AppSettingsStore;
  projects: ProjectRegistry;
  settings: SettingsService;
  messages: MessagesRepo;
  usageLedger: UsageLedger;
  recentModels: RecentModelsRepo;
  connections: ConnectionResolver;
  catalog: ModelCatalog;
  chatService: ChatService;
  chatTurns: ChatTurns;
  compactionEntries: CompactionEntries;
  activeTurns: ActiveTurns;
  dictation: Dictation;
  accounts: GatewayAccounts;
  prompts: PromptService;
  toolCatalog: ToolCatalog;
  mentions: Mentions;
  mentionEngine: MentionEngine;
  gatewayOAuth: GatewayOAuth;
  interactions: PendingInteractions;
  checkpoints: CheckpointsRepo;
  /** The request ledger (contract 7.3). */
  requests: RequestsRepo;
  /** Full-text search over every chat's messages (contract 7.4). */
  search: SearchRepo;
  mcp: McpManager;
  /** Confines `shell` commands (contract 7.5). */
  sandbox: Sandbox;
  /** Starts the app's MCP servers (in the folder of the first project served); called as Parley starts. */
  startAppMcpServers(project: ProjectRow): Promise<void>;
  trust: ProjectTrust;
  tools: ToolEnvironment;
  subagents: Subagents;
  directRuns: DirectRuns;
  /** The plan each chat implements (Plan mode's "Implement this plan"). */
  planPins: PlanPins;
  /** Worktree chats (contract 7.6). */
  worktrees: WorktreeService;
  worktreesRepo: WorktreesRepo;
  chats: ChatsRepo;
  /** One-time upgrades that must finish before the first request (run by `listen`). */
  prepare(): Promise<void>;
  close(): void;
};

export const DATABASE_FILE_NAME = "store.sqlite";

export function createRuntime(options: RuntimeOptions): Runtime {
  const databaseFile = path.join(options.home, DATABASE_FILE_NAME);
  const db = openDatabase(databaseFile);
  // Every atomic write notes its temporary under the home, so a crash's leftovers go at the next start.
  tempJournal.configure(options.home);
  const events = new EventBus();
  const secrets = options.secrets ?? new FileSecretStore(options.home);
  const appStore = new AppSettingsStore(new AppKvRepo(db), (line) => options.log.warn(line));
  const projects = new ProjectRegistry(new ProjectsRepo(db), events);
  const credentials = new Credentials(secrets);
  const defaults = builtInDefaults({ gatewayBaseUrl: options.gatewayBaseUrl });
  const trust = new ProjectTrust(new ProjectTrustRepo(new AppKvRepo(db)), options.workspaceTrusted);
  const sandbox = new Sandbox({ appHome: options.home, probe: options.sandboxProbe });
  const settings = new SettingsService({
    app: appStore,
    projectRows: new ProjectSettingsRepo(db),
    credentials,
    events,
    defaults,
    databaseFile,
    trust,
    sandboxAvailability: () => sandbox.availability(),
  });
  // Quarantine damaged app settings at start, so the stderr line shows up when the user looks.
  appStore.read();
  const chats = new ChatsRepo(db);
  const messages = new MessagesRepo(db);
  const interrupted = messages.markInterrupted();
  if (interrupted > 0)
    options.log.warn(`${interrupted} answer(s) were cut off by the last shutdown and are marked interrupted`);
  const recentModels = new RecentModelsRepo(db);
  const usageLedger = new UsageLedger(db);
  const kv = new AppKvRepo(db);
  const accounts = new GatewayAccounts(secrets, kv, events);
  const connections = new ConnectionResolver(credentials, accounts, () => settings.appLayer());
  const catalog = new ModelCatalog(kv, options.log);
  const catalogFollower = followGatewayBaseUrl({
    subscribe: (listener) => events.subscribe(listener),
    settings: () => settings.resolvedUnredacted(),
    connection: (resolved) => connections.forProvider(resolved, "gateway", false),
    catalog,
    log: options.log,
  });
  const transaction = <T>(work: () => T): T => db.transaction(work)();
  const toolCache = new McpToolCacheRepo(db);
  const toolCatalog = new ToolCatalog(toolCache);
  const sessions = new SessionsRepo(db);
  const access = new AccessService(
    kv,
    sessions,
    new PasskeysRepo(db),
    () => settings.appLayer().access?.sessionIdleDays ?? DEFAULT_SESSION_IDLE_DAYS,
  );
  const mcp = new McpManager({
    cache: toolCache,
    credentials,
    log: options.log,
    connectTimeoutMs: options.mcpConnectTimeoutMs,
    callTimeoutMs: options.mcpCallTimeoutMs,
    changed: (projectId) => events.publish({ type: "mcp.changed", data: projectId ? { projectId } : {} }),
    sandbox,
    cacheRoot: path.join(options.home, "mcp-cache"),
  });
  // App MCP servers start with Parley (contract 7.3), in the folder of the first project it serves;
  // a project's own start on its first use.
  let appServersProjectId: string | undefined;
  const startAppMcpServers = async (project: ProjectRow) => {
    appServersProjectId ??= project.id;
    mcp.ensure(await settings.snapshot(project), { appOnly: true });
  };
  // "A changed config restarts the server" (and a switched-off one stops): re-check the projects
  // whose servers were needed, and the app's servers.
  events.subscribe((event) => {
    const appProject = appServersProjectId;
    const watched = (id: string) => mcp.projects.has(id) || id === appProject;
    if (event.type !== "settings.changed" && !(event.type === "projects.changed" && watched(event.data.projectId)))
      return;
    const ids =
      event.type === "settings.changed" && event.data.projectId
        ? [event.data.projectId]
        : [...new Set([...mcp.projects, ...(appProject ? [appProject] : [])])];
    for (const id of ids) {
      if (!watched(id)) continue;
      const row = projects.byIdOrUndefined(id);
      if (row)
        void settings
          .snapshot(row)
          .then((snapshot) => mcp.ensure(snapshot, { appOnly: !mcp.projects.has(id) }))
          .catch(() => {});
    }
  });
  const prompts = new PromptService({
    appPrompts: new PromptsRepo(db),
    chats,
    settings,
    events,
    transaction,
    isKnownMcpTool: (name) => toolCatalog.isKnownMcpTool(name),
  });
  const { mentions, engine: mentionEngine } = openMentions({
    log: (message) => options.log.warn(message),
    mcpTools: (snapshot) => mcp.toolsFor(snapshot),
    mcpOffers: (snapshot) => mcp.offersFor(snapshot),
    chats,
    recentModels,
    // A worktree chat's popup lists its worktree's files (new ones the agent made included).
    chatFolder: (chatId) => liveWorktreeFolder(chatId),
  });
  const liveWorktreeFolder = (chatId: string): string | undefined => {
    try {
      return worktrees.workspaceOf(chatId)?.dir;
    } catch {
      // Discarded, or its folder gone: the project's files are listed instead.
      return undefined;
    }
  };
  const chatService = new ChatService(chats, messages, events, {
    snapshot: (project) => settings.snapshot(project),
    find: (snapshot, id) => prompts.resolve(snapshot, id),
  });
  const activeTurns = new ActiveTurns();
  const planPins = new PlanPins(
    kv,
    (id) => messages.byId(id),
    (id, tip) => messages.pathTo(tip).some((message) => message.id === id),
  );
  // What a chat leaves outside its rows: a deleted chat's plan pin (its messages went with it), and
  // the popup's watch on its worktree once the chat or its worktree is gone.
  events.subscribe((event) => {
    if (event.type !== "chats.changed" || !event.data.chatId) return;
    const chat = chats.byId(event.data.chatId);
    if (!chat) planPins.forget(event.data.chatId);
    if (!chat || (chat.worktreeBranch && !liveWorktreeFolder(chat.id))) mentions.forgetChatFolder(event.data.chatId);
  });
  const interactions = new PendingInteractions();
  const checkpoints = new CheckpointsRepo(db);
  const worktreesRepo = new WorktreesRepo(db);
  const worktrees: WorktreeService = new WorktreeService({
    repo: worktreesRepo,
    home: options.home,
    log: options.log,
    // The chat's files may change while it answers or compacts (ChatTurns is made below).
    isBusy: (chatId): boolean => chatTurns.isBusy(chatId),
  });
  const tools = new ToolEnvironment({
    settings,
    connections,
    catalog,
    interactions,
    checkpoints,
    mcp,
    sandbox,
    log: options.log,
    retryBaseMs: options.retryBaseMs,
    workspaces: worktrees,
  });
  const requests = new RequestsRepo(db);
  const subagents = new Subagents(tools, prompts, messages, requests);
  const compactor = new Compactor({
    messages,
    requests,
    resolve: (resolvedSettings, modelId) => connections.forModel(resolvedSettings, modelId),
    usageOf: (outcome, sent, resolved, resolvedSettings) =>
      tools.stepUsage(outcome, sent, tools.pricingFor(resolvedSettings, resolved)),
    retryBaseMs: options.retryBaseMs ?? 500,
  });
  const chatTurns = new ChatTurns({
    chats,
    messages,
    requests,
    chatService,
    settings,
    connections,
    catalog,
    recentModels,
    turns: activeTurns,
    log: options.log,
    context: new PromptTurnContext(
      prompts,
      (snapshot) => mcp.toolsFor(snapshot),
      (chat, under) => planPins.text(chat.id, under === undefined ? messages.leafId(chat.id) : under),
    ),
    transaction,
    retryBaseMs: options.retryBaseMs,
    mcp,
    tools,
    subagents,
    compactor,
  });
  return {
    home: options.home,
    token: options.token ?? randomBytes(32).toString("base64url"),
    db,
    log: options.log,
    events,
    secrets,
    sessions,
    access,
    appStore,
    projects,
    settings,
    messages,
    usageLedger,
    recentModels,
    connections,
    catalog,
    chatService,
    chatTurns,
    compactionEntries: new CompactionEntries(messages, activeTurns, compactor),
    activeTurns,
    dictation: new Dictation(connections, catalog, usageLedger, options.log),
    accounts,
    prompts,
    toolCatalog,
    mentionEngine,
    mentions,
    interactions,
    checkpoints,
    requests,
    search: new SearchRepo(db),
    mcp,
    sandbox,
    startAppMcpServers,
    trust,
    tools,
    subagents,
    directRuns: new DirectRuns({ chats, messages, chatService, turns: activeTurns, tools, subagents }),
    planPins,
    worktrees,
    worktreesRepo,
    chats,
    gatewayOAuth: new GatewayOAuth({
      accounts,
      settings,
      authUrl: options.gatewayAuthUrl ?? DEFAULT_GATEWAY_AUTH_URL,
      log: options.log,
    }),
    prepare: async () => {
      // What a deleted chat's worktree or a killed turn left (nothing to do, and no git call, without worktrees).
      await worktrees.cleanUp();
      // Temporaries that writes killed midway (kill -9, a crash) left in projects and in the home.
      const { removed } = tempJournal.sweep();
      if (removed.length > 0)
        options.log.warn(`removed ${removed.length} temporary file(s) an interrupted write left behind`);
      // Credentials stored before they were bound to origins: bind them to the origins in force now.
      try {
        await settings.bindLegacyCredentials();
        const gatewayOrigin = entryOrigin(resolveLayers(defaults, settings.appLayer()), "providers", "gateway");
        if (gatewayOrigin) await accounts.bindLegacy(gatewayOrigin);
      } catch (error) {
        // A damaged secret store fails the reads that need it, not the start.
        options.log.warn(`stored credentials could not be bound to their origins: ${(error as Error).message}`);
      }
    },
    close: () => {
      catalogFollower.stop();
      void mentionEngine.close();
      db.close();
    },
  };
}
