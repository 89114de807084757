// The MCP client manager (contracts 6.4 and 7.3): app servers start with Parley, a project's on its
// first use, and keep running; a turn waits a while for servers still starting; a changed config
// restarts a server and a disabled or removed one stops (no process left); a crashed, lost or slow one
// is restarted with backoff; a project-defined server (any transport) waits for the user's trust; the
// tools each server lists go to the MCP tool cache (so catalogs show them before the server is up);
// calls are validated against the tool's schema, bounded by a timeout and by cancel, and a remote
// server that forgot our session is reconnected and the call tried once more; shutdown stops every child.
import fs from "node:fs";
import path from "node:path";
import { entryOrigin } from "../../settings/credential-binding";
import { isInsideOrRoot } from "../../projects/project-path";
import { envSlot, headerSlot, SECRET_PLACEHOLDER } from "../../settings/settings-secrets";
import type { Credentials } from "../../settings/credentials";
import type { Logger } from "../../platform/logger";
import type { ProjectSnapshot } from "../../projects/project-snapshot";
import type { McpServerEntry, McpTransport } from "../../shared/settings";
import type { McpToolCacheRepo } from "./tool-cache-repo";
import { mcpToolId } from "../native-tools";
import type { McpToolEntry } from "../catalog";
import { ToolError } from "../tool-error";
import {
  describeError,
  McpConnection,
  type McpLists,
  type McpPrompt,
  type McpResource,
  type McpTool,
} from "./connection";
import { validateArguments } from "./schema-validator";
import { commandLine, configuredServers, instanceKey, toolCacheKey, type McpServerConfig } from "./server-config";
import type { Sandbox } from "../sandbox/sandbox";
import type { SandboxStatus } from "../../shared/sandbox";
import { sandboxedLaunch } from "./sandboxed-launch";
import { serverSandboxStatus, startFailureHint, withSandbox } from "./server-sandbox";
import { toolOutput } from "./tool-result";

export type McpStatus = "starting" | "ready" | "error" | "stopped" | "untrusted";

export type McpServerStatus = {
  id: string;
  name: string;
  transport: McpTransport;
  scope: "app" | "project";
  status: McpStatus;
  error?: string;
  stderrTail?: string;
  toolCount: number;
  /** What a ready server offers besides tools. */
  resourceCount: number;
  promptCount: number;
  /** For the trust prompt of a project stdio server. */
  command?: string;
  enabled: boolean;
  /** A stdio server: whether it runs in the sandbox (contract 7.5), and why not. */
  sandboxed?: boolean;
  sandboxReason?: string;
};

export type { McpToolEntry };

/** What a ready server offers besides tools, as it holds it now. */
export type McpOffer = { serverId: string; resources: McpResource[]; prompts: McpPrompt[] };

export type McpManagerDeps = {
  cache: McpToolCacheRepo;
  credentials: Credentials;
  log: Logger;
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  /** A server changed state (the project's id for a project server): open status pages reload. */
  changed?: (projectId: string | undefined) => void;
  /** Runs stdio servers in the sandbox (contract 7.5); absent: they run as configured. */
  sandbox?: Sandbox;
  /** Where each sandboxed server keeps the caches that outlive it (npm's): a folder per server in here. */
  cacheRoot?: string;
};

/** How long a server may take to start (initialise and list its tools): settings `mcp.startupTimeoutMs`. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 60_000;
/** How long a turn waits for the project's servers still starting (contract 7.3). */
export const TURN_WAITS_FOR_SERVERS_MS = 10_000;

const RESTART_BASE_MS = 1_000;
const RESTART_MAX_MS = 60_000;
/** A server that stayed up this long has its restart backoff reset. */
const STABLE_AFTER_MS = 60_000;

/** How many configurations of one server keep their cached tool list (the newest ones). */
const KEPT_CONFIGURATIONS = 4;

type Instance = {
  key: string;
  config: McpServerConfig;
  status: "starting" | "ready" | "error" | "stopped";
  error?: string;
  warning?: string;
  connection?: McpConnection;
  tools: McpTool[];
  lists: McpLists;
  ready: Promise<void>;
  attempts: number;
  /** When it last became ready: one that stays up a while has its backoff reset. */
  readyAt?: number;
  restartTimer?: NodeJS.Timeout;
  /** Aborts a start under way: a server switched off while it starts leaves no process behind. */
  opening?: AbortController;
  stopped: boolean;
  /** What to start it with again after a crash. */
  launch: () => Promise<void>;
};

export class McpManager {
  private readonly instances = new Map<string, Instance>();
  /** Projects whose servers were needed: a settings change re-checks them. */
  readonly projects = new Set<string>();

  constructor(private readonly deps: McpManagerDeps) {}

  /** Each snapshot's server configs, worked out once: a turn asks several times, before its first token. */
  private readonly configsOf = new WeakMap<ProjectSnapshot, McpServerConfig[]>();

  /**
   * The project's servers, each stdio one with the sandbox settings it runs under (in its fingerprint).
   * A snapshot is one read of the project and never changes, so its configs (resolved, fingerprinted:
   * a hash per server) are kept with it.
   */
  private configs(snapshot: ProjectSnapshot): McpServerConfig[] {
    let configs = this.configsOf.get(snapshot);
    if (!configs) {
      configs = configuredServers(snapshot.settings, snapshot.layer.value).map((config) =>
        withSandbox(config, snapshot.userSandbox, snapshot.sandbox),
      );
      this.configsOf.set(snapshot, configs);
    }
    return configs;
  }

  /** Whether each stdio server of the project runs in the sandbox, by server id (the catalog's `sandboxed`). */
  sandboxStatuses(snapshot: ProjectSnapshot): Map<string, SandboxStatus> {
    const statuses = new Map<string, SandboxStatus>();
    for (const config of this.configs(snapshot)) {
      const status = this.sandboxStatus(config, snapshot);
      if (status) statuses.set(config.entry.id, status);
    }
    return statuses;
  }

  /** Whether a stdio server runs sandboxed; never said of one this manager cannot sandbox (no Sandbox given). */
  private sandboxStatus(config: McpServerConfig, snapshot: ProjectSnapshot): SandboxStatus | undefined {
    const { sandbox, cacheRoot } = this.deps;
    return serverSandboxStatus(config, sandbox && cacheRoot ? snapshot.sandboxAvailability : undefined);
  }

  /** A project's own server (stdio or http) waits for the user's trust: no process starts, no request leaves. */
  private needsTrust(config: McpServerConfig, snapshot: ProjectSnapshot): boolean {
    return config.scope === "project" && !snapshot.trusted;
  }

  /** The status of every server the project has, started or not. */
  servers(snapshot: ProjectSnapshot): McpServerStatus[] {
    return this.configs(snapshot).map((config) => {
      const { entry } = config;
      const instance = this.current(config, snapshot.project.id);
      const base = {
        id: entry.id,
        name: entry.name ?? entry.id,
        transport: entry.transport,
        scope: config.scope,
        enabled: entry.enabled !== false,
        toolCount: (instance?.status === "ready" ? instance.tools : this.cachedTools(config, snapshot.project.id))
          .length,
        resourceCount: instance?.status === "ready" ? instance.lists.resources.length : 0,
        promptCount: instance?.status === "ready" ? instance.lists.prompts.length : 0,
        ...(entry.transport === "stdio" ? { command: commandLine(entry) } : {}),
        ...sandboxFields(this.sandboxStatus(config, snapshot)),
      };
      if (this.needsTrust(config, snapshot)) return { ...base, status: "untrusted" as const };
      if (!instance || entry.enabled === false) return { ...base, status: "stopped" as const };
      const detail = instance.error ?? instance.warning;
      return {
        ...base,
        status: instance.status,
        ...(detail ? { error: detail } : {}),
        ...(instance.connection?.stderrTail ? { stderrTail: instance.connection.stderrTail } : {}),
      };
    });
  }

  /**
   * Starts every enabled, trusted server of the project that is not running its current config (so a
   * changed config restarts it), and stops the servers that were removed or switched off: the
   * project's own, and app servers, which every project resolves alike (a project may override one by
   * id; then it is the project's own there and the app's instance is left to the others).
   * `appOnly`: only the app's servers (Parley starting; a project's own wait for its first use).
   */
  ensure(snapshot: ProjectSnapshot, { appOnly = false } = {}): void {
    const configs = this.configs(snapshot);
    if (!appOnly) this.projects.add(snapshot.project.id);
    const wanted = (c: McpServerConfig) =>
      c.entry.enabled !== false && !this.needsTrust(c, snapshot) && (!appOnly || c.scope === "app");
    const wantedKeys = new Set(configs.filter(wanted).map((c) => instanceKey(c, snapshot.project.id)));
    const byId = new Map(configs.map((c) => [c.entry.id, c]));
    for (const [key, instance] of this.instances) {
      const ownedHere = key.startsWith(`project:${snapshot.project.id}:`);
      const app = key.startsWith("app:");
      const config = app ? byId.get(instance.config.entry.id) : undefined;
      const appGone = app && (config === undefined || (config.scope === "app" && config.entry.enabled === false));
      if ((ownedHere && !wantedKeys.has(key)) || appGone) {
        this.instances.delete(key);
        void this.stop(instance);
      }
    }
    for (const config of configs) {
      if (!wanted(config)) continue;
      const existing = this.instances.get(instanceKey(config, snapshot.project.id));
      if (existing && existing.config.fingerprint === config.fingerprint && !existing.stopped) continue;
      void this.start(config, snapshot);
    }
  }

  async restart(snapshot: ProjectSnapshot, serverId: string): Promise<void> {
    const config = this.configs(snapshot).find((c) => c.entry.id === serverId);
    if (!config) throw new ToolError(`no MCP server "${serverId}" in this project`);
    if (this.needsTrust(config, snapshot))
      throw new ToolError(
        `the project is not trusted to use its MCP server "${config.entry.id}"; review and trust it in Settings, This project`,
      );
    this.projects.add(snapshot.project.id);
    await this.start(config, snapshot).catch(() => {});
  }

  /**
   * Starts what the project needs and waits, at most `ms`, for those of its servers still starting:
   * a new server's tools are then offered in the very first turn.
   */
  async whenStarted(snapshot: ProjectSnapshot, ms = TURN_WAITS_FOR_SERVERS_MS): Promise<void> {
    this.ensure(snapshot);
    const starting = this.configs(snapshot).flatMap((config) => {
      const instance = this.current(config, snapshot.project.id);
      return instance?.status === "starting" ? [instance.ready.catch(() => {})] : [];
    });
    if (starting.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(starting),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
    clearTimeout(timer);
  }

  /** The MCP tools the project's enabled, trusted servers offer (from the cache until they are up). */
  toolsFor(snapshot: ProjectSnapshot): McpToolEntry[] {
    return this.configs(snapshot).flatMap((config) => {
      if (config.entry.enabled === false || this.needsTrust(config, snapshot)) return [];
      const instance = this.current(config, snapshot.project.id);
      const ready = instance?.status === "ready";
      const starting = instance?.status === "starting";
      const tools = ready ? instance.tools : this.cachedTools(config, snapshot.project.id);
      return tools.map((tool) => ({
        id: mcpToolId(config.entry.id, tool.name),
        serverId: config.entry.id,
        tool: tool.name,
        description: tool.description ?? "",
        parameters: tool.inputSchema,
        ...(starting ? { starting: true } : {}),
      }));
    });
  }

  /**
   * The resources and prompts the project's ready servers hold now (the @ popup's rows): nothing is
   * started or waited for, so a server still starting offers them once it is up.
   */
  offersFor(snapshot: ProjectSnapshot): McpOffer[] {
    return this.configs(snapshot).flatMap((config) => {
      if (config.entry.enabled === false || this.needsTrust(config, snapshot)) return [];
      const instance = this.current(config, snapshot.project.id);
      if (instance?.status !== "ready") return [];
      const { resources, prompts } = instance.lists;
      return resources.length + prompts.length > 0 ? [{ serverId: config.entry.id, resources, prompts }] : [];
    });
  }

  /** Runs `mcp__<server>__<tool>`: the server started if need be, the arguments checked first. */
  async call(
    snapshot: ProjectSnapshot,
    toolId: string,
    args: unknown,
    signal: AbortSignal,
  ): Promise<{ ok: boolean; output: string }> {
    const match = /^mcp__([a-z0-9-]{1,32})__(.+)$/.exec(toolId);
    if (!match) throw new ToolError(`no MCP server offers "${toolId}" in this project`);
    const { config, instance } = await this.readyInstance(snapshot, match[1]!, signal, `"${toolId}"`);
    const tool = instance.tools.find((t) => t.name === match[2]);
    if (!tool) throw new ToolError(`the MCP server "${config.entry.id}" has no tool "${match[2]}"`);
    const problems = validateArguments(tool.inputSchema, args);
    if (problems) throw new ToolError(`the arguments do not fit ${toolId}'s schema: ${problems.join("; ")}`);
    const callOnce = async (connection: McpConnection) =>
      toolOutput(
        (await connection.client.callTool({ name: tool.name, arguments: args as Record<string, unknown> }, undefined, {
          signal,
          timeout: this.callTimeoutMs,
        })) as { content?: unknown; isError?: unknown; structuredContent?: unknown },
      );
    const connection = instance.connection;
    try {
      return await callOnce(connection);
    } catch (error) {
      if (signal.aborted) throw new ToolError("the turn was cancelled");
      // A remote server restarted: it forgot our session, or its connection was found lost while the
      // call was under way (the new process never saw the call), so connect again (a new session) and
      // try once more. A local server that died during the call may have done part of it: no retry.
      const remoteRestarted = connection.transportKind !== "stdio" && connection.wasLost;
      if (!connection.isSessionGone(error) && !remoteRestarted) {
        const why = connection.wasLost ? "the server stopped during the call" : describeError(error);
        throw new ToolError(`the MCP call failed: ${why}`);
      }
      this.deps.log.warn(`MCP server ${config.entry.id} restarted and no longer knows our session; reconnecting`);
      const fresh = await this.reconnect(instance, connection, signal);
      if (!fresh)
        throw new ToolError(
          `the MCP server "${config.entry.id}" restarted and could not be reconnected: ${instance.error ?? instance.status}`,
        );
      try {
        return await callOnce(fresh);
      } catch (retryError) {
        if (signal.aborted) throw new ToolError("the turn was cancelled");
        throw new ToolError(`the MCP call failed: ${describeError(retryError)}`);
      }
    }
  }

  /** The resources a ready server of the project offers (it is started, and waited for, if need be). */
  async resources(snapshot: ProjectSnapshot, serverId: string, signal?: AbortSignal): Promise<McpResource[]> {
    return (await this.readyInstance(snapshot, serverId, signal)).instance.lists.resources;
  }

  /** The prompts a ready server of the project offers. */
  async prompts(snapshot: ProjectSnapshot, serverId: string, signal?: AbortSignal): Promise<McpPrompt[]> {
    return (await this.readyInstance(snapshot, serverId, signal)).instance.lists.prompts;
  }

  /** One resource's contents as text, to attach to a message like a referenced file (binary parts described). */
  async readResource(
    snapshot: ProjectSnapshot,
    serverId: string,
    uri: string,
    signal?: AbortSignal,
  ): Promise<{ uri: string; name: string; text: string }> {
    const { instance } = await this.readyInstance(snapshot, serverId, signal);
    const listed = instance.lists.resources.find((r) => r.uri === uri);
    try {
      const read = await instance.connection!.client.readResource({ uri }, { signal, timeout: this.callTimeoutMs });
      const text = resourceText(read.contents);
      return { uri, name: listed?.name ?? uri, text };
    } catch (error) {
      throw new ToolError(`the MCP server "${serverId}" could not read ${uri}: ${describeError(error)}`);
    }
  }

  /** A prompt with its arguments filled in, as the text the composer gets (each message's text, in order). */
  async getPrompt(
    snapshot: ProjectSnapshot,
    serverId: string,
    name: string,
    args: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<{ text: string }> {
    const { instance } = await this.readyInstance(snapshot, serverId, signal);
    const prompt = instance.lists.prompts.find((p) => p.name === name);
    if (!prompt) throw new ToolError(`the MCP server "${serverId}" has no prompt "${name}"`);
    const missing = (prompt.arguments ?? []).filter((a) => a.required && !(args[a.name] ?? "").trim());
    if (missing.length > 0)
      throw new ToolError(`the prompt "${name}" needs ${missing.map((a) => `"${a.name}"`).join(", ")}`);
    try {
      const got = await instance.connection!.client.getPrompt(
        { name, arguments: args },
        { signal, timeout: this.callTimeoutMs },
      );
      const text = got.messages
        .map((m) => toolOutput({ content: [m.content] }).output)
        .filter(Boolean)
        .join("\n\n");
      return { text };
    } catch (error) {
      throw new ToolError(`the MCP server "${serverId}" could not give the prompt "${name}": ${describeError(error)}`);
    }
  }

  private get callTimeoutMs(): number {
    return this.deps.callTimeoutMs ?? 60_000;
  }

  /**
   * The project's enabled, trusted server `serverId`, started if need be and waited for (bounded by
   * `signal`), ready with a connection; otherwise a ToolError that says why. `what` names the thing
   * asked for in the "no such server" message.
   */
  private async readyInstance(
    snapshot: ProjectSnapshot,
    serverId: string,
    signal: AbortSignal | undefined,
    what?: string,
  ): Promise<{ config: McpServerConfig; instance: Instance & { connection: McpConnection } }> {
    const config = this.configs(snapshot).find((c) => c.entry.id === serverId);
    if (!config || config.entry.enabled === false)
      throw new ToolError(
        what ? `no MCP server offers ${what} in this project` : `no MCP server "${serverId}" in this project`,
      );
    if (this.needsTrust(config, snapshot))
      throw new ToolError(
        `the project is not trusted to use its MCP server "${config.entry.id}"; review and trust it in Settings, This project`,
      );
    this.ensure(snapshot);
    const instance = this.instances.get(instanceKey(config, snapshot.project.id));
    if (!instance) throw new ToolError(`the MCP server "${config.entry.id}" is not running`);
    const ready = instance.ready.catch(() => {});
    await (signal ? raceAbort(ready, signal) : ready);
    if (instance.status !== "ready" || !instance.connection)
      throw new ToolError(`the MCP server "${config.entry.id}" is not ready: ${instance.error ?? instance.status}`);
    return { config, instance: instance as Instance & { connection: McpConnection } };
  }

  /** Drops a connection whose session is gone and connects again (once, shared by concurrent callers). */
  private async reconnect(
    instance: Instance,
    stale: McpConnection,
    signal: AbortSignal,
  ): Promise<McpConnection | undefined> {
    // Not already connecting again: start now rather than after the crash backoff.
    if (instance.connection === stale || (instance.status === "error" && !instance.stopped)) {
      clearTimeout(instance.restartTimer);
      instance.connection = undefined;
      instance.status = "starting";
      this.notify(instance);
      void stale.close();
      instance.ready = instance.launch();
    }
    await raceAbort(
      instance.ready.catch(() => {}),
      signal,
    );
    return instance.status === "ready" ? instance.connection : undefined;
  }

  /** Validates a dispatch's arguments without calling (400 with the reasons). */
  validate(snapshot: ProjectSnapshot, toolId: string, args: unknown): string[] | undefined {
    const tool = this.toolsFor(snapshot).find((t) => t.id === toolId);
    if (!tool) return [`no MCP tool "${toolId}" in this project`];
    return validateArguments(tool.parameters, args);
  }

  async stopAll(): Promise<void> {
    const all = [...this.instances.values()];
    this.instances.clear();
    await Promise.all(all.map((instance) => this.stop(instance)));
  }

  private current(config: McpServerConfig, projectId: string): Instance | undefined {
    const instance = this.instances.get(instanceKey(config, projectId));
    return instance && instance.config.fingerprint === config.fingerprint ? instance : undefined;
  }

  private cachedTools(config: McpServerConfig, projectId: string): McpTool[] {
    const row = this.deps.cache.get(toolCacheKey(instanceKey(config, projectId), config));
    return (row?.tools ?? []).filter((t): t is McpTool => typeof (t as McpTool)?.name === "string");
  }

  private async stop(instance: Instance): Promise<void> {
    instance.stopped = true;
    clearTimeout(instance.restartTimer);
    instance.opening?.abort();
    await instance.connection?.close();
    instance.connection = undefined;
    instance.status = "stopped";
  }

  /** Replaces the instance at once (so two callers never start two processes), then launches it. */
  private start(config: McpServerConfig, snapshot: ProjectSnapshot): Promise<void> {
    const key = instanceKey(config, snapshot.project.id);
    const previous = this.instances.get(key);
    const instance: Instance = {
      key,
      config,
      status: "starting",
      tools: [],
      lists: { resources: [], prompts: [] },
      ready: Promise.resolve(),
      attempts: 0,
      stopped: false,
      launch: async () => {},
    };
    const startupTimeoutMs =
      snapshot.settings.mcp?.startupTimeoutMs ?? this.deps.connectTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
    this.instances.set(key, instance);
    let secrets: { env: Record<string, string>; headers: Record<string, string> } | Error = new Error(
      "not resolved yet",
    );
    let sandboxed: Awaited<ReturnType<typeof sandboxedLaunch>> = {};
    const cwd = this.workingDir(config, snapshot);
    const sandboxStatus = this.sandboxStatus(config, snapshot);
    instance.launch = async () => {
      if (instance.stopped) return;
      instance.status = "starting";
      instance.error = undefined;
      this.notify(instance);
      if (secrets instanceof Error) return this.fail(instance, secrets.message, false);
      if (cwd instanceof Error) return this.fail(instance, cwd.message, false);
      if (sandboxed instanceof Error) return this.fail(instance, sandboxed.message, false);
      const opening = new AbortController();
      instance.opening = opening;
      try {
        const opened = await McpConnection.open({
          signal: opening.signal,
          entry: config.entry,
          env: secrets.env,
          headers: secrets.headers,
          cwd,
          ...(sandboxed.launch ? { launch: sandboxed.launch } : {}),
          connectTimeoutMs: startupTimeoutMs,
          onToolsChanged: (tools) => this.setTools(instance, tools),
          onListsChanged: (lists) => {
            instance.lists = { ...instance.lists, ...lists };
            this.notify(instance);
          },
          onClosed: (reason) => this.fail(instance, reason, true),
        });
        if (instance.stopped) return void (await opened.connection.close());
        instance.connection = opened.connection;
        const truncated = opened.truncatedFrom
          ? `the server lists ${opened.truncatedFrom} tools; only the first ${opened.tools.length} are offered`
          : undefined;
        instance.warning = [truncated, sandboxed.warning].filter(Boolean).join("; ") || undefined;
        instance.lists = { resources: opened.resources, prompts: opened.prompts };
        this.setTools(instance, opened.tools);
        instance.status = "ready";
        instance.readyAt = Date.now();
        this.notify(instance);
        this.deps.log.info(`MCP server ${config.entry.id} is ready with ${opened.tools.length} tools`);
      } catch (error) {
        this.fail(instance, `${describeError(error)}${startFailureHint(config, sandboxStatus)}`, true);
      } finally {
        if (instance.opening === opening) instance.opening = undefined;
      }
    };
    instance.ready = (async () => {
      if (previous) await this.stop(previous);
      secrets = await this.secrets(config.entry, snapshot).catch((error: Error) => error);
      sandboxed = await this.sandboxedLaunch(config, snapshot, key, cwd);
      await instance.launch();
    })();
    return instance.ready;
  }

  private setTools(instance: Instance, tools: McpTool[]): void {
    instance.tools = tools;
    this.deps.cache.put(toolCacheKey(instance.key, instance.config), instance.config.entry.id, tools);
    this.deps.cache.prune(`${instance.key}#`, KEPT_CONFIGURATIONS);
    this.notify(instance);
  }

  private notify(instance: Instance): void {
    const projectId = instance.key.startsWith("project:") ? instance.key.split(":")[1] : undefined;
    this.deps.changed?.(projectId);
  }

  /**
   * Marks the server failed; a crash, a lost connection or a start that timed out (not a config
   * problem) is retried with exponential backoff, reset only for a server that had stayed up a while.
   */
  private fail(instance: Instance, message: string, retry: boolean): void {
    if (instance.stopped) return;
    const stale = instance.connection;
    instance.status = "error";
    instance.error = message;
    instance.connection = undefined;
    void stale?.close();
    this.notify(instance);
    this.deps.log.warn(`MCP server ${instance.config.entry.id}: ${message}`);
    if (!retry) return;
    if (instance.readyAt !== undefined && Date.now() - instance.readyAt > STABLE_AFTER_MS) instance.attempts = 0;
    instance.readyAt = undefined;
    const delay = Math.min(RESTART_BASE_MS * 2 ** instance.attempts, RESTART_MAX_MS);
    instance.attempts++;
    clearTimeout(instance.restartTimer);
    instance.restartTimer = setTimeout(() => {
      instance.ready = instance.launch();
    }, delay);
    instance.restartTimer.unref();
  }

  /** The server's `env` and `headers` with each `"<secret>"` taken from the secret store, bound to its command or URL. */
  private async secrets(
    entry: McpServerEntry,
    snapshot: ProjectSnapshot,
  ): Promise<{ env: Record<string, string>; headers: Record<string, string> }> {
    const binding = entryOrigin(snapshot.settings, "mcpServers", entry.id);
    const resolve = async (
      values: Record<string, string> | undefined,
      slotOf: (name: string) => string,
      what: string,
    ) => {
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(values ?? {})) {
        if (value !== SECRET_PLACEHOLDER) {
          out[name] = value;
          continue;
        }
        const stored = binding ? await this.deps.credentials.get(slotOf(name), binding) : undefined;
        if (stored === undefined)
          throw new Error(
            `${what} ${name} has no stored value for this ${entry.transport === "stdio" ? "command" : "URL"}; set it again in Settings, MCP servers`,
          );
        out[name] = stored;
      }
      return out;
    };
    return {
      env: await resolve(entry.env, (name) => envSlot(entry.id, name), "the variable"),
      headers: await resolve(entry.headers, (name) => headerSlot("mcpServers", entry.id, name), "the header"),
    };
  }

  /** How a stdio server starts in the sandbox, where it runs in one (see ./sandboxed-launch.ts). */
  private async sandboxedLaunch(
    config: McpServerConfig,
    snapshot: ProjectSnapshot,
    key: string,
    cwd: string | Error,
  ): Promise<Awaited<ReturnType<typeof sandboxedLaunch>>> {
    const { sandbox, cacheRoot } = this.deps;
    if (!sandbox || !cacheRoot || cwd instanceof Error || !config.sandbox) return {};
    return sandboxedLaunch({
      sandbox,
      cacheRoot,
      config,
      instanceKey: key,
      projectDir: snapshot.project.dir,
      cwd,
    }).catch((error: Error) => new Error(`the sandbox could not be prepared: ${describeError(error)}`));
  }

  /** The server's folder: the project, or its `cwd` (inside the project for a project server). */
  private workingDir(config: McpServerConfig, snapshot: ProjectSnapshot): string | Error {
    const root = snapshot.project.dir;
    const cwd = config.entry.cwd ? path.resolve(root, config.entry.cwd) : root;
    if (config.scope === "project" && !isInsideOrRoot(root, cwd))
      return new Error("the server's cwd leads out of the project");
    if (!fs.existsSync(cwd)) return new Error(`the server's cwd ${config.entry.cwd} does not exist`);
    return cwd;
  }
}

/** A resource's contents as text: text parts as they are, binary ones described; capped like tool output. */
function resourceText(contents: readonly { uri: string; mimeType?: string; text?: unknown; blob?: unknown }[]): string {
  return toolOutput({
    content: contents.map((c) =>
      typeof c.text === "string" ? { type: "text", text: c.text } : { type: "resource", resource: c },
    ),
  }).output;
}

/** A status's sandbox fields: `sandboxed`, and the reason when it is not; nothing for a remote server. */
function sandboxFields(status: SandboxStatus | undefined): Pick<McpServerStatus, "sandboxed" | "sandboxReason"> {
  if (!status) return {};
  return status.sandboxed ? { sandboxed: true } : { sandboxed: false, sandboxReason: status.reason ?? "not sandboxed" };
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ToolError("the turn was cancelled"));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new ToolError("the turn was cancelled"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
