// One read of a project's settings (`.app.json` or its database row), validated and typed, that every
// service of a request takes: the resolved settings, prompts, agents, actions and file tags all come
// from the same read, so a chat turn or a mention search reads the project exactly once.
import { isPlainObject, type JsonObject } from "../settings/settings-merge";
import type { LayerIssue } from "../settings/settings-validate";
import { actionSchema, agentSchema, type Action, type Agent } from "../shared/agents";
import { storedPromptSchema, type StoredPrompt } from "../shared/prompts";
import type { ResolvedSettings, ToolGate } from "../shared/settings";
import { gatesOf, untrustedGates } from "../tools/gate";
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

export class ProjectSnapshot {
  private memo = new Map<string, unknown>();

  constructor(
    readonly project: ProjectRow,
    readonly layer: ProjectLayer,
    /** defaults < app < this layer, computed on first use. */
    private readonly resolve: (projectValue: JsonObject) => ResolvedSettings,
    /** Whether the user trusts what this layer brings (contract 7.1); until then its gates only tighten. */
    readonly trusted: boolean,
  ) {}

  /**
   * The tool gates in force. An untrusted project's gates only tighten the user's own (defaults < app):
   * its `allow` counts for no more than the user's gate, its `off` and `ask` apply at once.
   */
  get gates(): Record<string, ToolGate> {
    return this.once("gates", () =>
      this.trusted
        ? gatesOf(this.settings)
        : untrustedGates(gatesOf(this.resolve({})), gatesOf(this.layer.value as Parameters<typeof gatesOf>[0])),
    );
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
