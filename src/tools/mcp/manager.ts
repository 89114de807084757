// The MCP client manager (contract 6.4): servers start on first need and keep running; a changed
// config restarts a server; a crashed one is restarted with backoff; a project-defined server (stdio or http)
// waits for the user's trust; the tools each server lists go to the MCP tool cache (so catalogs show
// them before the server is up); calls are validated against the tool's schema, bounded by a timeout
// and by cancel; shutdown stops every child.
import fs from "node:fs";
import path from "node:path";
import { entryOrigin } from "../../settings/credential-binding";
import { isInsideOrRoot } from "../../projects/project-path";
import { envSlot, headerSlot, SECRET_PLACEHOLDER } from "../../settings/settings-secrets";
import type { Credentials } from "../../settings/credentials";
import type { Logger } from "../../platform/logger";
import type { ProjectSnapshot } from "../../projects/project-snapshot";
import type { McpServerEntry } from "../../shared/settings";
import type { McpToolCacheRepo } from "./tool-cache-repo";
import { mcpToolId } from "../native-tools";
import { ToolError } from "../tool-error";
import { describeError, McpConnection, type McpTool } from "./connection";
import { validateArguments } from "./schema-validator";
import { commandLine, configuredServers, instanceKey, toolCacheKey, type McpServerConfig } from "./server-config";
import { toolOutput } from "./tool-result";

export type McpStatus = "starting" | "ready" | "error" | "stopped" | "untrusted";

export type McpServerStatus = {
  id: string;
  name: string;
  transport: "stdio" | "http";
  scope: "app" | "project";
  status: McpStatus;
  error?: string;
  stderrTail?: string;
  toolCount: number;
  /** For the trust prompt of a project stdio server. */
  command?: string;
  enabled: boolean;
};

export type McpToolEntry = { id: string; serverId: string; tool: string; description: string; parameters?: unknown };

export type McpManagerDeps = {
  cache: McpToolCacheRepo;
  credentials: Credentials;
  log: Logger;
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  /** A server changed state (the project's id for a project server): open status pages reload. */
  changed?: (projectId: string | undefined) => void;
};

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
  ready: Promise<void>;
  attempts: number;
  startedAt: number;
  restartTimer?: NodeJS.Timeout;
  stopped: boolean;
  /** What to start it with again after a crash. */
  launch: () => Promise<void>;
};

export class McpManager {
  private readonly instances = new Map<string, Instance>();
  /** Projects whose servers were needed: a settings change re-checks them. */
  readonly projects = new Set<string>();

  constructor(private readonly deps: McpManagerDeps) {}

  /** A project's own server (stdio or http) waits for the user's trust: no process starts, no request leaves. */
  private needsTrust(config: McpServerConfig, snapshot: ProjectSnapshot): boolean {
    return config.scope === "project" && !snapshot.trusted;
  }

  /** The status of every server the project has, started or not. */
  servers(snapshot: ProjectSnapshot): McpServerStatus[] {
    return configuredServers(snapshot.settings, snapshot.layer.value).map((config) => {
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
        ...(entry.transport === "stdio" ? { command: commandLine(entry) } : {}),
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
   * changed config restarts it), and stops the project's servers that were removed or switched off.
   */
  ensure(snapshot: ProjectSnapshot): void {
    const configs = configuredServers(snapshot.settings, snapshot.layer.value);
    this.projects.add(snapshot.project.id);
    const wanted = new Set(
      configs
        .filter((c) => c.entry.enabled !== false && !this.needsTrust(c, snapshot))
        .map((c) => instanceKey(c, snapshot.project.id)),
    );
    for (const [key, instance] of this.instances) {
      if (key.startsWith(`project:${snapshot.project.id}:`) && !wanted.has(key)) {
        this.instances.delete(key);
        void this.stop(instance);
      }
    }
    for (const config of configs) {
      if (config.entry.enabled === false || this.needsTrust(config, snapshot)) continue;
      const existing = this.instances.get(instanceKey(config, snapshot.project.id));
      if (existing && existing.config.fingerprint === config.fingerprint && !existing.stopped) continue;
      void this.start(config, snapshot);
    }
  }

  async restart(snapshot: ProjectSnapshot, serverId: string): Promise<void> {
    const config = configuredServers(snapshot.settings, snapshot.layer.value).find((c) => c.entry.id === serverId);
    if (!config) throw new ToolError(`no MCP server "${serverId}" in this project`);
    if (this.needsTrust(config, snapshot))
      throw new ToolError(
        `the project is not trusted to use its MCP server "${config.entry.id}"; review and trust it in Settings, This project`,
      );
    this.projects.add(snapshot.project.id);
    await this.start(config, snapshot).catch(() => {});
  }

  /** The MCP tools the project's enabled, trusted servers offer (from the cache until they are up). */
  toolsFor(snapshot: ProjectSnapshot): McpToolEntry[] {
    return configuredServers(snapshot.settings, snapshot.layer.value).flatMap((config) => {
      if (config.entry.enabled === false || this.needsTrust(config, snapshot)) return [];
      const instance = this.current(config, snapshot.project.id);
      const tools = instance?.status === "ready" ? instance.tools : this.cachedTools(config, snapshot.project.id);
      return tools.map((tool) => ({
        id: mcpToolId(config.entry.id, tool.name),
        serverId: config.entry.id,
        tool: tool.name,
        description: tool.description ?? "",
        parameters: tool.inputSchema,
      }));
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
    const config = match
      ? configuredServers(snapshot.settings, snapshot.layer.value).find((c) => c.entry.id === match[1])
      : undefined;
    if (!match || !config || config.entry.enabled === false)
      throw new ToolError(`no MCP server offers "${toolId}" in this project`);
    if (this.needsTrust(config, snapshot))
      throw new ToolError(
        `the project is not trusted to use its MCP server "${config.entry.id}"; review and trust it in Settings, This project`,
      );
    this.ensure(snapshot);
    const instance = this.instances.get(instanceKey(config, snapshot.project.id));
    if (!instance) throw new ToolError(`the MCP server "${config.entry.id}" is not running`);
    await raceAbort(
      instance.ready.catch(() => {}),
      signal,
    );
    if (instance.status !== "ready" || !instance.connection)
      throw new ToolError(`the MCP server "${config.entry.id}" is not ready: ${instance.error ?? instance.status}`);
    const tool = instance.tools.find((t) => t.name === match[2]);
    if (!tool) throw new ToolError(`the MCP server "${config.entry.id}" has no tool "${match[2]}"`);
    const problems = validateArguments(tool.inputSchema, args);
    if (problems) throw new ToolError(`the arguments do not fit ${toolId}'s schema: ${problems.join("; ")}`);
    try {
      const result = await instance.connection.client.callTool(
        { name: tool.name, arguments: args as Record<string, unknown> },
        undefined,
        {
          signal,
          timeout: this.deps.callTimeoutMs ?? 60_000,
        },
      );
      return toolOutput(result as { content?: unknown; isError?: unknown; structuredContent?: unknown });
    } catch (error) {
      if (signal.aborted) throw new ToolError("the turn was cancelled");
      throw new ToolError(`the MCP call failed: ${describeError(error)}`);
    }
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
      ready: Promise.resolve(),
      attempts: 0,
      startedAt: Date.now(),
      stopped: false,
      launch: async () => {},
    };
    this.instances.set(key, instance);
    let secrets: { env: Record<string, string>; headers: Record<string, string> } | Error = new Error(
      "not resolved yet",
    );
    const cwd = this.workingDir(config, snapshot);
    instance.launch = async () => {
      if (instance.stopped) return;
      instance.status = "starting";
      instance.error = undefined;
      instance.startedAt = Date.now();
      if (secrets instanceof Error) return this.fail(instance, secrets.message, false);
      if (cwd instanceof Error) return this.fail(instance, cwd.message, false);
      try {
        const opened = await McpConnection.open({
          entry: config.entry,
          env: secrets.env,
          headers: secrets.headers,
          cwd,
          connectTimeoutMs: this.deps.connectTimeoutMs ?? 20_000,
          onToolsChanged: (tools) => this.setTools(instance, tools),
          onClosed: (reason) => this.fail(instance, reason, true),
        });
        if (instance.stopped) return void (await opened.connection.close());
        instance.connection = opened.connection;
        instance.warning = opened.truncatedFrom
          ? `the server lists ${opened.truncatedFrom} tools; only the first ${opened.tools.length} are offered`
          : undefined;
        this.setTools(instance, opened.tools);
        instance.status = "ready";
        this.notify(instance);
        this.deps.log.info(`MCP server ${config.entry.id} is ready with ${opened.tools.length} tools`);
      } catch (error) {
        this.fail(instance, describeError(error), true);
      }
    };
    instance.ready = (async () => {
      if (previous) await this.stop(previous);
      secrets = await this.secrets(config.entry, snapshot).catch((error: Error) => error);
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

  /** Marks the server failed; a crash (not a config problem) is retried with exponential backoff. */
  private fail(instance: Instance, message: string, retry: boolean): void {
    if (instance.stopped) return;
    instance.status = "error";
    instance.error = message;
    instance.connection = undefined;
    this.notify(instance);
    this.deps.log.warn(`MCP server ${instance.config.entry.id}: ${message}`);
    if (!retry) return;
    if (Date.now() - instance.startedAt > STABLE_AFTER_MS) instance.attempts = 0;
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
            `${what} ${name} has no stored value for this ${entry.transport === "http" ? "URL" : "command"}; set it again in Settings, MCP servers`,
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
