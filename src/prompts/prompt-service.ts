// Custom prompts at app scope (app database) and project scope (`.app.json` key `prompts`).
// A project prompt overrides an app prompt with the same id.
import { randomBytes } from "node:crypto";
import { conflict, invalid, notFound } from "../platform/app-error";
import { PROMPT_PROFILES } from "./prompt-profiles";
import { normalizePreset } from "./preset";
import type { LayerIssue } from "../settings/settings-validate";
import type { JsonObject } from "../settings/settings-merge";
import {
  readIcon,
  storedPromptSchema,
  type Prompt,
  type PromptInput,
  type PromptScope,
  type StoredPrompt,
} from "../shared/prompts";
import type { ChatsRepo } from "../chat/chats-repo";
import type { ProjectRow } from "../projects/projects-repo";
import type { PromptsRepo } from "./prompts-repo";
import type { EventBus } from "../platform/event-bus";
import { parseEntries } from "../projects/project-entries";
import type { SettingsService } from "../settings/settings-service";
import type { ProjectSnapshot } from "../projects/project-snapshot";

export type PromptServiceDeps = {
  appPrompts: PromptsRepo;
  chats: ChatsRepo;
  settings: SettingsService;
  events: EventBus;
  transaction: <T>(work: () => T) => T;
  /** Whether an `mcp__<server>__<tool>` id is in the project's tool catalog. */
  isKnownMcpTool: (name: string) => boolean;
};

/**
 * A prompt a chat can run with: a saved one, or a built-in profile (`scope: "default"`) that the
 * default prompt style gives a new chat. Profiles are never listed or stored as prompts.
 */
export type ChatPrompt = Omit<Prompt, "scope"> & { scope: PromptScope | "default" };

export class PromptService {
  constructor(private readonly deps: PromptServiceDeps) {}

  /** The API view of a stored prompt: role coerced to system, icon and flags defaulted, preset normalised. */
  view(stored: StoredPrompt, scope: PromptScope): Prompt {
    return {
      id: stored.id,
      title: stored.title ?? "",
      icon: readIcon(stored.icon),
      showOnProjectCard: stored.showOnProjectCard ?? false,
      content: stored.content,
      role: "system",
      preset: normalizePreset(stored.preset, this.deps.isKnownMcpTool),
      createdAt: stored.createdAt ?? "",
      updatedAt: stored.updatedAt ?? stored.createdAt ?? "",
      scope,
    };
  }

  listApp(): Prompt[] {
    const prompts: Prompt[] = [];
    for (const row of this.deps.appPrompts.list()) {
      const parsed = safeJson(row.json);
      const stored = storedPromptSchema.safeParse(parsed);
      if (stored.success) prompts.push(this.view(stored.data, "app"));
    }
    return prompts;
  }

  /** Project prompts, then the app prompts they inherit (marked `overridden` when a project one shares the id). */
  listForProject(snapshot: ProjectSnapshot): { prompts: Prompt[]; issues: LayerIssue[] } {
    const { items, issues } = snapshot.prompts;
    const own = items.map((item) => this.view(item.value, "project"));
    const ownIds = new Set(own.map((p) => p.id));
    const inherited = this.listApp().map((p) => (ownIds.has(p.id) ? { ...p, overridden: true } : p));
    return { prompts: [...own, ...inherited], issues };
  }

  /** The prompt a chat in `project` means by `id`: the project's own first, then the app's. */
  find(snapshot: ProjectSnapshot | undefined, id: string): Prompt | undefined {
    if (snapshot) {
      const own = snapshot.prompts.items.find((item) => item.value.id === id);
      if (own) return this.view(own.value, "project");
    }
    return this.listApp().find((p) => p.id === id);
  }

  /**
   * `find`, then the built-in profiles: a saved prompt with a profile's id wins, as a project prompt
   * wins over an app prompt with the same id.
   */
  resolve(snapshot: ProjectSnapshot | undefined, id: string): ChatPrompt | undefined {
    const saved = this.find(snapshot, id);
    if (saved) return saved;
    const profile = PROMPT_PROFILES.find((p) => p.id === id);
    if (!profile) return undefined;
    return {
      id: profile.id,
      title: profile.title,
      icon: "sparkles",
      showOnProjectCard: false,
      content: profile.systemMessage,
      role: "system",
      preset: null,
      createdAt: "",
      updatedAt: "",
      scope: "default",
    };
  }

  async create(scope: PromptScope, project: ProjectRow | undefined, input: PromptInput): Promise<Prompt> {
    const now = new Date().toISOString();
    const id = input.id ?? `prompt-${randomBytes(5).toString("hex")}`;
    const stored = this.toStored(input, id, now, now);
    if (scope === "app") {
      if (!this.deps.appPrompts.insert(id, JSON.stringify(stored), now))
        throw conflict(`an app prompt with id "${id}" already exists`);
    } else {
      await this.deps.settings.updateProjectRaw(project!, (raw) => {
        const list = Array.isArray(raw.prompts) ? raw.prompts : [];
        if (list.some((entry) => (entry as { id?: unknown })?.id === id))
          throw conflict(`a project prompt with id "${id}" already exists`);
        return { ...raw, prompts: [...list, stored] };
      });
    }
    this.changed(scope, project);
    return this.view(stored, scope);
  }

  /** Replaces a prompt's editable fields; `createdAt` and fields Parley does not know are kept. */
  async update(scope: PromptScope, project: ProjectRow | undefined, id: string, input: PromptInput): Promise<Prompt> {
    if (input.id !== undefined && input.id !== id) throw invalid("the prompt id cannot be changed");
    const now = new Date().toISOString();
    let result: StoredPrompt | undefined;
    if (scope === "app") {
      const row = this.deps.appPrompts.get(id);
      if (!row) throw notFound(`no app prompt with id "${id}"`);
      const previous = safeObject(safeJson(row.json));
      result = replaceFields(
        previous,
        this.toStored(input, id, typeof previous.createdAt === "string" ? previous.createdAt : now, now),
      );
      this.deps.appPrompts.update(id, JSON.stringify(result), now);
    } else {
      await this.deps.settings.updateProjectRaw(project!, (raw) => {
        const list = Array.isArray(raw.prompts) ? [...raw.prompts] : [];
        const at = list.findIndex((entry) => (entry as { id?: unknown })?.id === id);
        if (at < 0) throw notFound(`no project prompt with id "${id}"`);
        const previous = safeObject(list[at]);
        result = replaceFields(
          previous,
          this.toStored(input, id, typeof previous.createdAt === "string" ? previous.createdAt : now, now),
        );
        list[at] = result;
        return { ...raw, prompts: list };
      });
    }
    this.changed(scope, project);
    return this.view(result!, scope);
  }

  /** Deletes a prompt and clears `promptId` on every chat that referenced it. */
  async delete(scope: PromptScope, project: ProjectRow | undefined, id: string): Promise<void> {
    let cleared;
    if (scope === "app") {
      cleared = this.deps.transaction(() => {
        if (!this.deps.appPrompts.delete(id)) throw notFound(`no app prompt with id "${id}"`);
        return this.deps.chats.clearPromptId(id);
      });
    } else {
      await this.deps.settings.updateProjectRaw(project!, (raw) => {
        const list = Array.isArray(raw.prompts) ? raw.prompts : [];
        const kept = list.filter((entry) => (entry as { id?: unknown })?.id !== id);
        if (kept.length === list.length) throw notFound(`no project prompt with id "${id}"`);
        return { ...raw, prompts: kept };
      });
      cleared = this.deps.transaction(() => this.deps.chats.clearPromptId(id, project!.id));
    }
    for (const chat of cleared)
      this.deps.events.publish({ type: "chats.changed", data: { projectId: chat.projectId, chatId: chat.id } });
    this.changed(scope, project);
  }

  /** What is written: the preset normalised (null removes it), the icon checked, the title filled in. */
  private toStored(input: PromptInput, id: string, createdAt: string, updatedAt: string): StoredPrompt {
    const preset =
      input.preset === undefined || input.preset === null
        ? null
        : normalizePreset(input.preset, this.deps.isKnownMcpTool);
    const title = input.title?.trim() || titleFromContent(input.content);
    return {
      id,
      title,
      icon: readIcon(input.icon),
      showOnProjectCard: input.showOnProjectCard ?? false,
      content: input.content,
      role: "system",
      ...(preset ? { preset } : {}),
      createdAt,
      updatedAt,
    };
  }

  private changed(scope: PromptScope, project: ProjectRow | undefined): void {
    this.deps.events.publish({
      type: "prompts.changed",
      data: { scope, ...(project ? { projectId: project.id } : {}) },
    });
  }
}

/** A title is optional until saved; a saved prompt without one is named after its first line. */
export function titleFromContent(content: string): string {
  const line =
    content
      .split("\n")
      .find((l) => l.trim())
      ?.trim() ?? "";
  if (!line) return "Untitled prompt";
  return line.length > 60 ? `${line.slice(0, 57).trimEnd()}…` : line;
}

/** The new editable fields over the old entry; a preset switched off is removed, unknown fields stay. */
function replaceFields(previous: JsonObject, next: StoredPrompt): StoredPrompt {
  const merged: JsonObject = { ...previous, ...next };
  if (!("preset" in next)) delete merged.preset;
  return merged as StoredPrompt;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function safeObject(value: unknown): JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}
