// Settings in layers (defaults < app < project): reading, patching, redacting, and moving a
// project's settings between `.app.json` and the app database.
import path from "node:path";
import type { z } from "zod";
import { AppError, conflict, invalid } from "../core/app-error";
import { applyPatch, resolveLayers, type JsonObject } from "../core/settings-merge";
import { extractSecrets, redactSettings, referencedSecretNames } from "../core/settings-secrets";
import { issuesForTouchedKeys, validateLayer, type LayerIssue } from "../core/settings-validate";
import {
  appSettingsPatchSchema,
  appSettingsShape,
  projectSettingsPatchSchema,
  projectSettingsShape,
} from "../shared/settings";
import type { AppSettingsStore } from "../store/app-settings-store";
import type { ProjectRow } from "../store/projects-repo";
import type { ProjectSettingsRepo } from "../store/project-settings-repo";
import { projectFilePath, readProjectFile, removeProjectFile, writeProjectFile } from "../store/project-file";
import type { SecretStore } from "../store/secret-store";
import type { EventBus } from "./event-bus";
import { KeyedMutex } from "./keyed-mutex";

const DB_BACKED_FLAG = "__dbBacked";

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

export type ProjectSettingsResponse = {
  project: JsonObject;
  path: string;
  dbBacked: boolean;
  error?: string;
  issues?: LayerIssue[];
};

export type SettingsServiceDeps = {
  app: AppSettingsStore;
  projectRows: ProjectSettingsRepo;
  secrets: SecretStore;
  events: EventBus;
  defaults: JsonObject;
  databaseFile: string;
};

export class SettingsService {
  private readonly projectLock = new KeyedMutex();
  private validatedApp: { stored: JsonObject; value: JsonObject } | undefined;
  private readonly validatedProjects = new WeakMap<JsonObject, { value: JsonObject; issues: LayerIssue[] }>();

  constructor(private readonly deps: SettingsServiceDeps) {}

  /** The stored app layer, validated key by key (bad keys are dropped from use, not deleted). */
  appLayer(): JsonObject {
    const stored = this.deps.app.read();
    // Validation is the costly part; the store hands back the same object while the row is unchanged.
    if (this.validatedApp?.stored !== stored) this.validatedApp = { stored, value: validateLayer(stored, appSettingsShape).value };
    return this.validatedApp.value;
  }

  async getApp(): Promise<JsonObject> {
    return this.redact(this.appLayer());
  }

  async patchApp(body: unknown): Promise<JsonObject> {
    const { patch, secrets } = parsePatch(body, appSettingsPatchSchema);
    const touched = Object.keys(patch);
    let rejected: unknown[] = [];
    const next = this.deps.app.update((current) => {
      const merged = applyPatch(current, patch);
      rejected = issuesForTouchedKeys(merged, touched, appSettingsShape);
      return rejected.length > 0 ? current : merged;
    });
    if (rejected.length > 0) throw invalid("app settings are invalid", rejected);
    await this.applySecrets(secrets);
    this.deps.events.publish({ type: "settings.changed", data: { scope: "app" } });
    return this.redact(validateLayer(next, appSettingsShape).value);
  }

  async readProjectLayer(project: ProjectRow): Promise<ProjectLayer> {
    const stored = this.deps.projectRows.get(project.id);
    if (stored !== undefined) {
      const raw = JSON.parse(stored) as JsonObject;
      return { ...validateLayer(raw, projectSettingsShape), raw, path: this.deps.databaseFile, dbBacked: true };
    }
    const file = await readProjectFile(project.dir);
    const filePath = projectFilePath(project.dir);
    if (file.state === "corrupt") {
      return { raw: undefined, value: {}, issues: [], error: file.error, path: filePath, dbBacked: false };
    }
    const raw = file.state === "ok" ? file.value : {};
    return { ...this.validatedProject(raw), raw, path: filePath, dbBacked: false };
  }

  /** Validation of an unchanged file is reused: the snapshot hands back the same object. */
  private validatedProject(raw: JsonObject): { value: JsonObject; issues: LayerIssue[] } {
    let validated = this.validatedProjects.get(raw);
    if (!validated) this.validatedProjects.set(raw, (validated = validateLayer(raw, projectSettingsShape)));
    return validated;
  }

  async getProject(project: ProjectRow): Promise<ProjectSettingsResponse> {
    return this.describe(await this.readProjectLayer(project));
  }

  async patchProject(project: ProjectRow, body: unknown): Promise<ProjectSettingsResponse> {
    const { patch, secrets } = parsePatch(body, projectSettingsPatchSchema);
    const layer = await this.updateProjectRaw(project, async (raw) => {
      const merged = applyPatch(raw, patch);
      const issues = issuesForTouchedKeys(merged, Object.keys(patch), projectSettingsShape);
      if (issues.length > 0) throw invalid("project settings are invalid", issues);
      await this.applySecrets(secrets);
      return merged;
    });
    return this.describe(layer);
  }

  /**
   * Read-modify-write of a project's stored settings object (file or database), serialised per
   * project. Refuses (409) when `.app.json` cannot be parsed: it is never overwritten.
   */
  async updateProjectRaw(project: ProjectRow, change: (raw: JsonObject) => JsonObject | Promise<JsonObject>): Promise<ProjectLayer> {
    const layer = await this.projectLock.run(project.id, async () => {
      const current = await this.readProjectLayer(project);
      if (!current.raw) throw unreadableFile(current);
      const { [DB_BACKED_FLAG]: _flag, ...raw } = current.raw;
      await this.store(project, await change(raw), current.dbBacked);
      return this.readProjectLayer(project);
    });
    this.deps.events.publish({ type: "settings.changed", data: { scope: "project", projectId: project.id } });
    return layer;
  }

  /**
   * Moves the settings into the app database (`dbBacked: true`) or back into `.app.json`.
   * The destination is written first and the source removed after, so a failure loses nothing.
   */
  async setStorage(project: ProjectRow, dbBacked: boolean): Promise<ProjectSettingsResponse> {
    const layer = await this.projectLock.run(project.id, async () => {
      const current = await this.readProjectLayer(project);
      if (current.dbBacked === dbBacked) return current;
      if (!current.raw) throw unreadableFile(current);
      const { [DB_BACKED_FLAG]: _flag, ...settings } = current.raw;
      if (dbBacked) {
        this.deps.projectRows.put(project.id, JSON.stringify({ ...settings, [DB_BACKED_FLAG]: true }));
        try {
          await removeProjectFile(project.dir);
        } catch (error) {
          this.deps.projectRows.delete(project.id);
          throw error;
        }
      } else {
        if ((await readProjectFile(project.dir)).state !== "missing") {
          throw conflict(`a ${path.basename(projectFilePath(project.dir))} appeared in the project; move it away before switching back`);
        }
        await writeProjectFile(project.dir, settings);
        this.deps.projectRows.delete(project.id);
      }
      return this.readProjectLayer(project);
    });
    this.deps.events.publish({ type: "settings.changed", data: { scope: "project", projectId: project.id } });
    return this.describe(layer);
  }

  /** defaults < app < project, redacted. */
  async resolved(project?: ProjectRow): Promise<JsonObject> {
    return this.redact(await this.resolvedUnredacted(project));
  }

  /** For server-side use only (never sent): the merged settings with whatever the layers hold. */
  async resolvedUnredacted(project?: ProjectRow): Promise<JsonObject> {
    const projectLayer = project ? (await this.readProjectLayer(project)).value : {};
    const { [DB_BACKED_FLAG]: _flag, ...projectValue } = projectLayer;
    return resolveLayers(this.deps.defaults, this.appLayer(), projectValue);
  }

  private async store(project: ProjectRow, settings: JsonObject, dbBacked: boolean): Promise<void> {
    if (dbBacked) this.deps.projectRows.put(project.id, JSON.stringify({ ...settings, [DB_BACKED_FLAG]: true }));
    else await writeProjectFile(project.dir, settings);
  }

  private async applySecrets(changes: { name: string; value: string | null }[]): Promise<void> {
    for (const { name, value } of changes) {
      if (value === null) await this.deps.secrets.delete(name);
      else await this.deps.secrets.set(name, value);
    }
  }

  private async describe(layer: ProjectLayer): Promise<ProjectSettingsResponse> {
    const response: ProjectSettingsResponse = {
      project: await this.redact(layer.value),
      path: layer.path,
      dbBacked: layer.dbBacked,
    };
    if (layer.error) response.error = layer.error;
    if (layer.issues.length > 0) response.issues = layer.issues;
    return response;
  }

  private async redact(settings: JsonObject): Promise<JsonObject> {
    const present = new Set<string>();
    for (const name of referencedSecretNames(settings)) {
      if ((await this.deps.secrets.get(name)) !== undefined) present.add(name);
    }
    return redactSettings(settings, (name) => present.has(name));
  }
}

function parsePatch(body: unknown, schema: z.ZodType) {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalid("the settings patch is invalid", parsed.error.issues);
  return extractSecrets(parsed.data as JsonObject);
}

function unreadableFile(layer: ProjectLayer): AppError {
  return conflict(`${layer.error ?? "the project settings file cannot be read"}; fix the file first, Parley will not overwrite it`);
}
