// One read of a project's settings (`.app.json` or its database row), validated and typed, that every
// service of a request takes: the resolved settings, prompts, agents, actions and file tags all come
// from the same read, so a chat turn or a mention search reads the project exactly once.
import { isPlainObject, type JsonObject } from "../settings/settings-merge";
import type { LayerIssue } from "../settings/settings-validate";
import { actionSchema, agentSchema, type Action, type Agent } from "../shared/agents";
import { storedPromptSchema, type StoredPrompt } from "../shared/prompts";
import type { ResolvedSettings, ToolGate } from "../shared/settings";
import { gatesOf, untrustedGates } from "../tools/gate";
import type { SandboxSettings, SandboxSettingsInput, SandboxStatus } from "../shared/sandbox";
import {
  sandboxedGates,
  sandboxSettings,
  sandboxStatus,
  type SandboxAvailability,
} from "../tools/sandbox/sandbox-rules";
import type { ProjectRow } from "./projects-repo";
import { parseEntries } from "./project-entries";

/** One project's settings layer as stored, before and after validation. */
export type ProjectLayer = {
  /** The stored object, unknown keys included; undefined when the file cannot be parsed. */
  raw: JsonObject | undefined;
  /** The known keys that passed validation, plus unknown keys. */
  value: JsonObject;
  issues: LayerIssue[];
  error?: string;
  path: string;
  dbBacked: boolean;
};

type Entries<T> = { items: { index: number; value: T }[]; issues: LayerIssue[] };

/**
 * The empty project layer, one object: settings are resolved (and cached) per layer object, so the
 * user's own settings (defaults < app) come from the cache on every turn rather than merged anew.
 */
const NO_PROJECT_LAYER: JsonObject = Object.freeze({});

export class ProjectSnapshot {
  private memo = new Map<string, unknown>();

  constructor(
    readonly project: ProjectRow,
    readonly layer: ProjectLayer,
    /** defaults < app < this layer, computed on first use. */
    private readonly resolve: (projectValue: JsonObject) => ResolvedSettings,
    /** Whether the user trusts what this layer brings (contract 7.1); until then its gates only tighten. */
    readonly trusted: boolean,
    /** Whether this machine can sandbox commands (contract 7.5); absent: not known, no rule follows from it. */
    readonly sandboxAvailability?: SandboxAvailability,
  ) {}

  /**
   * The tool gates in force. An untrusted project's gates only tighten the user's own (defaults < app):
   * its `allow` counts for no more than the user's gate, its `off` and `ask` apply at once.
   */
  get gates(): Record<string, ToolGate> {
    return this.once("gates", () => {
      const gates = this.trusted
        ? gatesOf(this.settings)
        : untrustedGates(
            gatesOf(this.resolve(NO_PROJECT_LAYER)),
            gatesOf(this.layer.value as Parameters<typeof gatesOf>[0]),
          );
      // Where nothing can confine a command, `shell` asks even under `allow` (contract 7.5).
      return this.sandboxAvailability ? sandboxedGates(gates, this.sandboxAvailability) : gates;
    });
  }

  /**
   * The sandbox settings in force (contract 7.5): the user's (defaults < app), with the project's on
   * top; an untrusted project's only where they tighten (contract 7.1).
   */
  get sandbox(): SandboxSettings {
    return this.once("sandbox", () =>
      sandboxSettings(
        this.resolve(NO_PROJECT_LAYER).sandbox,
        (this.layer.value as { sandbox?: SandboxSettingsInput }).sandbox,
        this.trusted,
      ),
    );
  }

  /**
   * The user's own sandbox settings (defaults < app), the project's left out: for what serves every
   * project alike (an app MCP server, one process for all of them).
   */
  get userSandbox(): SandboxSettings {
    return this.once("userSandbox", () => sandboxSettings(this.resolve(NO_PROJECT_LAYER).sandbox, undefined, true));
  }

  /** Whether `shell` runs sandboxed in this project, and why not. */
  get shellSandbox(): SandboxStatus {
    return this.sandboxAvailability
      ? sandboxStatus(this.sandbox, this.sandboxAvailability)
      : { sandboxed: false, reason: "Parley has not looked for a sandbox on this machine" };
  }

  /** defaults < app < project, unredacted: for server-side use only. */
  get settings(): ResolvedSettings {
    return this.once("settings", () => this.resolve(this.layer.value));
  }

  get prompts(): Entries<StoredPrompt> {
    return this.once("prompts", () => parseEntries(this.layer.raw?.prompts, storedPromptSchema, "prompts"));
  }

  get agents(): { agents: Agent[]; issues: LayerIssue[] } {
    return this.once("agents", () => {
      const { items, issues } = parseEntries(this.layer.raw?.agents, agentSchema, "agents");
      return { agents: items.map((i) => i.value), issues };
    });
  }

  get actions(): { actions: Action[]; issues: LayerIssue[] } {
    return this.once("actions", () => {
      const { items, issues } = parseEntries(this.layer.raw?.actions, actionSchema, "actions");
      return { actions: items.map((i) => i.value), issues };
    });
  }

  /** `.app.json` `fileTags` as a list (validated with the layer: a damaged value is an empty list). */
  get fileTags(): { path: string; tags: string[] }[] {
    return this.once("fileTags", () => {
      const fileTags = this.layer.value.fileTags;
      return isPlainObject(fileTags)
        ? Object.entries(fileTags as Record<string, string[]>).map(([path, tags]) => ({ path, tags }))
        : [];
    });
  }

  private once<T>(key: string, compute: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, compute());
    return this.memo.get(key) as T;
  }
}
