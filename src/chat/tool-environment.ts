// What tools run with, wherever they are called from (a chat turn, a subagent, a direct dispatch):
// the project and its gates, approvals and answers, checkpoints of writes, MCP, and the usage of the
// steps a loop takes. One place, so every entry point applies the same rules.
import type { ResolvedSettings } from "../shared/settings";
import type { UpstreamMessage } from "./transcript";
import { modelEntries, userPricing } from "../gateway/model-entries";
import { effectivePricing, estimateUsage, normalizeUsage, type Pricing } from "./usage";
import type { StreamEvent } from "../shared/stream-events";
import type { Usage } from "../shared/usage";
import type { CheckpointsRepo } from "./checkpoints-repo";
import type { PendingInteractions } from "../tools/interactions";
import type { McpManager } from "../tools/mcp/manager";
import type { SubagentRunner, ToolRunContext } from "../tools/tool-runner";
import type { ConnectionResolver, ResolvedConnection } from "../gateway/connection-resolver";
import type { Logger } from "../platform/logger";
import type { ModelCatalog } from "../gateway/model-catalog";
import type { ProjectSnapshot } from "../projects/project-snapshot";
import type { SettingsService } from "../settings/settings-service";
import type { StepOutcome } from "./upstream-step";
import { modelTakesTools } from "./tool-support";
import type { Sandbox } from "../tools/sandbox/sandbox";
import type { ShellSandbox } from "../tools/shell";
import { UntrustedInput } from "../tools/untrusted-input";

export type ToolEnvironmentDeps = {
  settings: SettingsService;
  connections: ConnectionResolver;
  catalog: ModelCatalog;
  interactions: PendingInteractions;
  checkpoints: CheckpointsRepo;
  mcp?: McpManager;
  /** Confines `shell` commands (contract 7.5); absent, they run unconfined. */
  sandbox?: Sandbox;
  log: Logger;
  retryBaseMs?: number;
  /** Where a worktree chat's tools run (contract 7.6); absent, or undefined for a chat, in its project. */
  workspaces?: Workspaces;
};

/** A chat's own working folder, when it has one (a worktree chat's, see src/worktrees). */
export type Workspaces = {
  /**
   * The folder, and the folders of its repository's git folder its commands may write (to commit on
   * the chat's branch); undefined for a chat without one; throws (409) when it is gone.
   */
  workspaceOf(chatId: string): { dir: string; gitWritable: readonly string[] } | undefined;
};

export type ToolContextParams = {
  chatId: string;
  snapshot: ProjectSnapshot;
  /** The project's real path. */
  root: string;
  turnId: string;
  signal: AbortSignal;
  emit: (event: StreamEvent) => void;
  tools: Iterable<string>;
  parentCallId?: string;
  /** The turn's memory of untrusted input, shared by a turn and its subagents (a new one when absent). */
  untrusted?: UntrustedInput;
  runSubagent?: SubagentRunner;
  toolSearch?: ToolRunContext["toolSearch"];
};

export class ToolEnvironment {
  constructor(readonly deps: ToolEnvironmentDeps) {}

  /**
   * Where the chat's tools work: its worktree's folder for a worktree chat (409 once that was
   * discarded or deleted: never the project's own tree instead), else `projectDir`.
   */
  workingDir(chatId: string, projectDir: string): string {
    return this.deps.workspaces?.workspaceOf(chatId)?.dir ?? projectDir;
  }

  get retryBaseMs(): number {
    return this.deps.retryBaseMs ?? 500;
  }

  context(params: ToolContextParams): ToolRunContext {
    const { snapshot, chatId, turnId } = params;
    const mcp = this.deps.mcp;
    const sandbox = this.deps.sandbox;
    // A worktree chat's commands may commit on its branch: that share of the repository's git folder is writable.
    const gitWritable = this.deps.workspaces?.workspaceOf(chatId)?.gitWritable;
    const shellSandbox: ShellSandbox | undefined =
      sandbox &&
      ((command) =>
        sandbox.command({
          ...command,
          projectRoot: params.root,
          ...(gitWritable === undefined ? {} : { gitWritable }),
          settings: snapshot.sandbox,
        }));
    return {
      chatId,
      root: params.root,
      signal: params.signal,
      tools: new Set(params.tools),
      gates: snapshot.gates,
      // App-only: a project's `.app.json` never loosens what web_fetch may reach.
      ...(snapshot.settings.webFetch ? { webFetch: snapshot.settings.webFetch } : {}),
      emit: params.emit,
      interactions: this.deps.interactions,
      recordWrite: (path, before, after) => this.deps.checkpoints.record(turnId, chatId, path, before, after),
      rememberAllow: async (name) => {
        await this.deps.settings.patchProject(snapshot.project, { toolGates: { [name]: "allow" } });
      },
      logError: (line) => this.deps.log.error(line),
      untrusted: params.untrusted ?? new UntrustedInput(),
      ...(params.parentCallId ? { parentCallId: params.parentCallId } : {}),
      ...(params.runSubagent ? { runSubagent: params.runSubagent } : {}),
      ...(params.toolSearch ? { toolSearch: params.toolSearch } : {}),
      ...(shellSandbox ? { sandbox: shellSandbox } : {}),
      ...(mcp
        ? {
            mcpCall: (name: string, args: unknown, callSignal: AbortSignal) =>
              mcp.call(snapshot, name, args, callSignal),
            mcpValidate: (name: string, args: unknown) => mcp.validate(snapshot, name, args),
          }
        : {}),
    };
  }

  /**
   * Whether the turn's model is offered tools: not when its `models` entry says `tools: false`, nor when
   * the server's catalog (as cached: a turn never waits for it) lists its parameters without `tools`.
   */
  modelTakesTools(snapshot: ProjectSnapshot, resolved: ResolvedConnection): boolean {
    const entry = modelEntries(snapshot.settings).find((e) => e.id === resolved.modelId);
    return modelTakesTools(entry, this.deps.catalog.find(resolved.modelId, resolved.connection.baseUrl));
  }

  /**
   * Remembers that a model refused tools: `tools: false` on its entry in the user's app settings (where
   * Settings, Providers shows it and the user can change it), so later turns do not offer them again.
   */
  async rememberNoTools(modelId: string): Promise<void> {
    try {
      await this.deps.settings.patchApp({ models: [{ id: modelId, tools: false }] });
    } catch (error) {
      this.deps.log.warn(`cannot remember that ${modelId} takes no tools: ${(error as Error).message}`);
    }
  }

  pricing(snapshot: ProjectSnapshot, resolved: ResolvedConnection): Pricing | undefined {
    return this.pricingFor(snapshot.settings, resolved);
  }

  /** The model's prices: the user's `models` entry over the catalog's. */
  pricingFor(settings: ResolvedSettings, resolved: ResolvedConnection): Pricing | undefined {
    const catalog = this.deps.catalog.find(resolved.modelId, resolved.connection.baseUrl)?.pricing as
      Pricing | undefined;
    return effectivePricing(userPricing(modelEntries(settings), resolved.modelId), catalog);
  }

  /** A step's usage as the server reported it (clamped), or estimated when it sent none. */
  stepUsage(outcome: StepOutcome, messages: UpstreamMessage[], pricing: Pricing | undefined): Usage {
    // A request that failed before anything came back (unreachable, refused) cost nothing.
    if (!outcome.usage && outcome.error && !outcome.text && outcome.toolCalls.length === 0) {
      return {
        promptTokens: 0,
        completionTokens: 0,
        totalTokens: 0,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
        cost: 0,
        costSource: "estimate",
      };
    }
    if (outcome.usage) {
      return normalizeUsage(outcome.usage, pricing, (field, value) =>
        this.deps.log.warn(`the gateway reported an out-of-range ${field} (${String(value).slice(0, 40)}); clamped`),
      );
    }
    const sent = messages
      .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
      .join("\n");
    return estimateUsage(sent, outcome.text + outcome.toolCalls.map((c) => c.arguments).join(""), pricing);
  }
}
