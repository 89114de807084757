// Settings in layers (defaults < app < project): reading, patching, redacting, and moving a
// project's settings between `.app.json` and the app database.
import path from "node:path";
import type { z } from "zod";
import { AppError, conflict, invalid } from "../platform/app-error";
import { applyPatch, deepFreeze, resolveLayers, type JsonObject } from "./settings-merge";
import { settingsProvenance } from "./settings-provenance";
import { credentialEntries, extractSecrets, redactSettings, type SecretChange } from "./settings-secrets";
import { entryOrigin } from "./credential-binding";
import { issuesForTouchedKeys, validateLayer, validateProjectLayer, type LayerIssue } from "./settings-validate";
import {
  appSettingsPatchSchema,
  appSettingsShape,
  APP_ONLY_KEYS,
  projectSettingsPatchSchema,
  projectSettingsShape,
} from "../shared/settings";
import type { AppSettingsStore } from "./app-settings-store";
import type { ProjectRow } from "../projects/projects-repo";
import type { ProjectSettingsRepo } from "./project-settings-repo";
import { projectFilePath, readProjectFile, removeProjectFile, writeProjectFile } from "./project-file";
import { Credentials } from "./credentials";
import { ProjectSnapshot, type ProjectLayer } from "../projects/project-snapshot";
import type { AppSettings, Provenance, ResolvedSettings } from "../shared/settings";
import { apiKeySlot } from "./settings-secrets";
import type { EventBus } from "../platform/event-bus";
import { KeyedMutex } from "../platform/keyed-mutex";
import type { ProjectTrust } from "../projects/project-trust";
import { hideEntriesInside } from "../shared/sandbox";
import type { SandboxAvailability } from "../tools/sandbox/sandbox-rules";

const DB_BACKED_FLAG = "__dbBacked";
/** The layer of a project without settings: one object, so what is worked out from it is reused. */
const NO_PROJECT_SETTINGS: JsonObject = Object.freeze({});

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
  credentials: Credentials;
  events: EventBus;
  defaults: JsonObject;
  databaseFile: string;
  /** Whether the user trusts what a project's layer brings; absent, no project is trusted. */
  trust?: ProjectTrust;
  /** Whether this machine can sandbox commands (probed once); absent, snapshots do not know. */
  sandboxAvailability?: () => Promise<SandboxAvailability>;
};

export class SettingsService {
  private readonly projectLock = new KeyedMutex();
  private validatedApp: { stored: JsonObject; value: JsonObject } | undefined;
  private readonly validatedProjects = new WeakMap<JsonObject, { value: JsonObject; issues: LayerIssue[] }>();
  private readonly parsedRows = new Map<string, { stored: string; raw: JsonObject }>();
  /** Resolved settings per project layer value, for the app layer they were resolved with. */
  private readonly resolvedByProject = new WeakMap<JsonObject, { app: JsonObject; settings: ResolvedSettings }>();
  /** Each project's last snapshot, with what it was made from (see `snapshot`). */
  private readonly lastSnapshots = new Map<string, { from: SnapshotSources; snapshot: ProjectSnapshot }>();

  constructor(private readonly deps: SettingsServiceDeps) {}

  /** The stored app layer, validated key by key (bad keys are dropped from use, not deleted). */
  appLayer(): AppSettings {
    const stored = this.deps.app.read();
    // Validation is the costly part; the store hands back the same object while the row is unchanged.
    if (this.validatedApp?.stored !== stored)
      this.validatedApp = { stored, value: validateLayer(stored, appSettingsShape).value };
    return this.validatedApp.value;
  }

  async getApp(): Promise<JsonObject> {
    return this.redactApp(this.appLayer());
  }

  async patchApp(body: unknown): Promise<JsonObject> {
    const { patch, secrets } = parsePatch(body, appSettingsPatchSchema);
    const touched = Object.keys(patch);
    let rejected: unknown[] = [];
    let unbound: SecretChange | undefined;
    const next = this.deps.app.update((current) => {
      const merged = applyPatch(current, patch);
      rejected = issuesForTouchedKeys(merged, touched, appSettingsShape);
      unbound =
        rejected.length > 0
          ? undefined
          : unboundSecret(secrets, resolveLayers(this.deps.defaults, validateLayer(merged, appSettingsShape).value));
      return rejected.length > 0 || unbound ? current : merged;
    });
    if (rejected.length > 0) throw invalid("app settings are invalid", rejected);
    if (unbound) throw unboundError(unbound);
    // A key is bound to the origin the entry points at once this patch is in force.
    await this.applySecrets(secrets, resolveLayers(this.deps.defaults, validateLayer(next, appSettingsShape).value));
    this.deps.events.publish({ type: "settings.changed", data: { scope: "app", keys: touched } });
    return this.redactApp(validateLayer(next, appSettingsShape).value);
  }

  async readProjectLayer(project: ProjectRow): Promise<ProjectLayer> {
    const stored = this.deps.projectRows.get(project.id);
    if (stored !== undefined) {
      const raw = this.parsedRow(project.id, stored);
      return { ...this.validatedProject(raw), raw, path: this.deps.databaseFile, dbBacked: true };
    }
    const file = await readProjectFile(project.dir);
    const filePath = projectFilePath(project.dir);
    if (file.state === "corrupt") {
      return { raw: undefined, value: {}, issues: [], error: file.error, path: filePath, dbBacked: false };
    }
    const raw = file.state === "ok" ? file.value : NO_PROJECT_SETTINGS;
    return { ...this.validatedProject(raw), raw, path: filePath, dbBacked: false };
  }

  /** A project's database row, parsed once per stored text (the same object while the row is unchanged). */
  private parsedRow(projectId: string, stored: string): JsonObject {
    const known = this.parsedRows.get(projectId);
    if (known?.stored === stored) return known.raw;
    const raw = JSON.parse(stored) as JsonObject;
    this.parsedRows.set(projectId, { stored, raw });
    return raw;
  }

  /** Validation of an unchanged file is reused: the snapshot hands back the same object. */
  private validatedProject(raw: JsonObject): { value: JsonObject; issues: LayerIssue[] } {
    let validated = this.validatedProjects.get(raw);
    if (!validated)
      this.validatedProjects.set(raw, (validated = validateProjectLayer(raw, projectSettingsShape, APP_ONLY_KEYS)));
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
      if (Object.hasOwn(patch, "sandbox")) refuseHiddenProjectPaths(merged, project.dir);
      const { [DB_BACKED_FLAG]: _flag, ...projectValue } = validateProjectLayer(
        merged,
        projectSettingsShape,
        APP_ONLY_KEYS,
      ).value;
      const resolvedAfter = resolveLayers(this.deps.defaults, this.appLayer(), projectValue);
      const unbound = unboundSecret(secrets, resolvedAfter);
      if (unbound) throw unboundError(unbound);
      await this.applySecrets(secrets, resolvedAfter);
      return merged;
    });
    return this.describe(layer);
  }

  /**
   * Read-modify-write of a project's stored settings object (file or database), serialised per
   * project. Refuses (409) when `.app.json` cannot be parsed: it is never overwritten.
   */
  async updateProjectRaw(
    project: ProjectRow,
    change: (raw: JsonObject) => JsonObject | Promise<JsonObject>,
  ): Promise<ProjectLayer> {
    const layer = await this.projectLock.run(project.id, async () => {
      const current = await this.readProjectLayer(project);
      if (!current.raw) throw unreadableFile(current);
      const { [DB_BACKED_FLAG]: _flag, ...raw } = current.raw;
      const next = await change(raw);
      await this.store(project, next, current.dbBacked);
      // What Parley writes for the user keeps the trust the project had (contract 7.1).
      this.deps.trust?.keepAcross(project.id, raw, next);
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
          throw conflict(
            `a ${path.basename(projectFilePath(project.dir))} appeared in the project; move it away before switching back`,
          );
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
    const settings = await this.resolvedUnredacted(project);
    return this.redact(settings, settings);
  }

  /**
   * The resolved settings, redacted, and which layer (default, app, project) each value comes from:
   * both from one read of the project.
   */
  async resolvedWithProvenance(project?: ProjectRow): Promise<{ settings: JsonObject; provenance: Provenance }> {
    const snapshot = project ? await this.snapshot(project) : undefined;
    const settings = snapshot ? snapshot.settings : this.resolveWith({});
    const { [DB_BACKED_FLAG]: _flag, ...projectValue } = snapshot?.layer.value ?? {};
    const provenance = settingsProvenance([
      { name: "default", value: this.deps.defaults },
      { name: "app", value: this.appLayer() },
      { name: "project", value: projectValue },
    ]);
    return { settings: await this.redact(settings, settings), provenance };
  }

  /** For server-side use only (never sent): the merged settings with whatever the layers hold. */
  async resolvedUnredacted(project?: ProjectRow): Promise<ResolvedSettings> {
    return project ? (await this.snapshot(project)).settings : this.resolveWith({});
  }

  /** One read of the project, for everything a request needs from it. */
  async snapshot(project: ProjectRow): Promise<ProjectSnapshot> {
    const layer = await this.readProjectLayer(project);
    const trusted = this.deps.trust?.isTrusted(project.id, layer.raw) ?? false;
    const sandbox = await this.deps.sandboxAvailability?.();
    // The same snapshot while nothing it is made of changed: what it works out on first use (the
    // gates, the sandbox settings, the MCP servers' configs and their hashes) is then not worked out
    // again on every turn, between the user's Enter and the request.
    const from: SnapshotSources = { project, layer, app: this.appLayer(), trusted, sandbox };
    const last = this.lastSnapshots.get(project.id);
    if (last && sameSources(last.from, from)) return last.snapshot;
    const snapshot = new ProjectSnapshot(project, layer, (value) => this.resolveWith(value), trusted, sandbox);
    // Folders read without being registered have ids of their own: the oldest kept snapshot goes first.
    this.lastSnapshots.delete(project.id);
    if (this.lastSnapshots.size >= MAX_KEPT_SNAPSHOTS)
      this.lastSnapshots.delete(this.lastSnapshots.keys().next().value!);
    this.lastSnapshots.set(project.id, { from, snapshot });
    return snapshot;
  }

  /**
   * defaults < app < `projectValue`. Each layer was validated key by key against its schema (a bad
   * value dropped), and the defaults are typed, so the result has the resolved settings' shape.
   */
  private resolveWith(projectValue: JsonObject): ResolvedSettings {
    // An unchanged file and app layer hand back the same objects, so each turn does not merge the
    // three layers again. What is handed out is frozen: it is shared by every reader.
    const app = this.appLayer();
    const known = this.resolvedByProject.get(projectValue);
    if (known?.app === app) return known.settings;
    const { [DB_BACKED_FLAG]: _flag, ...value } = projectValue;
    const settings = deepFreeze(resolveLayers(this.deps.defaults, app, value)) as ResolvedSettings;
    this.resolvedByProject.set(projectValue, { app, settings });
    return settings;
  }

  private async store(project: ProjectRow, settings: JsonObject, dbBacked: boolean): Promise<void> {
    if (dbBacked) this.deps.projectRows.put(project.id, JSON.stringify({ ...settings, [DB_BACKED_FLAG]: true }));
    else await writeProjectFile(project.dir, settings);
  }

  /**
   * Once, at start: keys saved before credentials were bound to origins are bound to the origin the app
   * layer gives their entry, and credential headers written in plain text into the app layer move to the
   * secret store (bound the same way), leaving the placeholder.
   */
  async bindLegacyCredentials(): Promise<void> {
    const appResolved = resolveLayers(this.deps.defaults, this.appLayer());
    await this.deps.credentials.bindLegacy((kind, id) => entryOrigin(appResolved, kind, id));
    const plain = extractSecrets(this.deps.app.read()).secrets.filter(
      (change) => change.slot.startsWith("header/") && change.value !== null,
    );
    // A header whose entry has no base URL stays as it is (responses still hide it) rather than be lost.
    if (plain.length === 0 || unboundSecret(plain, appResolved)) return;
    await this.applySecrets(plain, appResolved);
    this.deps.app.update((current) => extractSecrets(current).patch);
  }

  private async applySecrets(changes: SecretChange[], resolvedAfter: JsonObject): Promise<void> {
    await this.deps.credentials.apply(changes, (kind, id) => entryOrigin(resolvedAfter, kind, id));
  }

  private async describe(layer: ProjectLayer): Promise<ProjectSettingsResponse> {
    const { [DB_BACKED_FLAG]: _flag, ...projectValue } = layer.value;
    const response: ProjectSettingsResponse = {
      project: await this.redact(layer.value, resolveLayers(this.deps.defaults, this.appLayer(), projectValue)),
      path: layer.path,
      dbBacked: layer.dbBacked,
    };
    if (layer.error) response.error = layer.error;
    if (layer.issues.length > 0) response.issues = layer.issues;
    return response;
  }

  /**
   * Redacts `settings`; `hasApiKey` says whether a key is stored for the origin each entry resolves to
   * in `context` (the layer as it is in force).
   */
  private async redact(settings: JsonObject, context: JsonObject): Promise<JsonObject> {
    const present = new Set<string>();
    for (const [kind, id] of credentialEntries(settings)) {
      if (await this.hasStoredKey(context, kind, id)) present.add(`${kind}\n${id}`);
    }
    return redactSettings(settings, (kind, id) => present.has(`${kind}\n${id}`));
  }

  /** Whether a key is stored for the entry at the origin it resolves to in `context`. */
  private async hasStoredKey(context: JsonObject, kind: string, id: string): Promise<boolean> {
    const origin = entryOrigin(context, kind, id);
    return origin !== undefined && (await this.deps.credentials.get(apiKeySlot(kind, id), origin)) !== undefined;
  }

  /**
   * The app layer, redacted. A provider whose key is the only thing the app layer sets (a pasted key) is
   * listed as `{id, hasApiKey}` too, so a client sees that the key it just saved is there.
   */
  private async redactApp(layer: JsonObject): Promise<JsonObject> {
    const context = resolveLayers(this.deps.defaults, layer);
    const out = await this.redact(layer, context);
    const listed = new Set(credentialEntries(layer).map(([kind, id]) => `${kind}\n${id}`));
    const keyOnly = [];
    for (const [kind, id] of credentialEntries(this.deps.defaults)) {
      if (kind !== "providers" || listed.has(`${kind}\n${id}`)) continue;
      if (await this.hasStoredKey(context, kind, id)) keyOnly.push({ id, hasApiKey: true });
    }
    if (keyOnly.length > 0) out.providers = [...(Array.isArray(out.providers) ? out.providers : []), ...keyOnly];
    return out;
  }
}

/**
 * `sandbox.hide` on a project may not name the project or a path inside it (contract 7.5): the project
 * is the sandbox's working folder, and the `file` tool reads it whatever the sandbox hides.
 */
function refuseHiddenProjectPaths(layer: JsonObject, projectDir: string): void {
  const hide = (layer.sandbox as { hide?: string[] } | undefined)?.hide ?? [];
  const inside = hideEntriesInside(hide, projectDir);
  if (inside.length > 0)
    throw invalid(
      `sandbox.hide cannot name the project or a path inside it (${inside.join(", ")}): the project is the sandbox's working folder`,
      inside.map((entry) => ({
        path: ["sandbox", "hide", hide.indexOf(entry)],
        message: `${entry} is inside the project: it cannot be hidden from commands that run there`,
      })),
    );
}

function parsePatch(body: unknown, schema: z.ZodType) {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalid("the settings patch is invalid", parsed.error.issues);
  return extractSecrets(parsed.data as JsonObject);
}

function unboundSecret(changes: SecretChange[], resolvedAfter: JsonObject): SecretChange | undefined {
  return Credentials.unbound(changes, (kind, id) => entryOrigin(resolvedAfter, kind, id));
}

function unboundError(change: SecretChange): AppError {
  const entry = change.kind === "models" ? `model "${change.id}"` : `provider "${change.id}"`;
  return invalid(
    `${entry} has no provider with a valid baseUrl, so its key cannot be bound to a server; set the baseUrl first`,
  );
}

function unreadableFile(layer: ProjectLayer): AppError {
  return conflict(
    `${layer.error ?? "the project settings file cannot be read"}; fix the file first, Parley will not overwrite it`,
  );
}

/** Projects whose last snapshot is kept (see SettingsService.snapshot). */
const MAX_KEPT_SNAPSHOTS = 64;

/** What a project's snapshot is made of: the stored layers (unchanged, they are the same objects), trust, the sandbox. */
type SnapshotSources = {
  project: ProjectRow;
  layer: ProjectLayer;
  app: JsonObject;
  trusted: boolean;
  sandbox: SandboxAvailability | undefined;
};

function sameSources(a: SnapshotSources, b: SnapshotSources): boolean {
  return (
    a.project.id === b.project.id &&
    a.project.dir === b.project.dir &&
    a.project.createdAt === b.project.createdAt &&
    a.layer.raw === b.layer.raw &&
    a.layer.value === b.layer.value &&
    a.layer.error === b.layer.error &&
    a.layer.path === b.layer.path &&
    a.layer.dbBacked === b.layer.dbBacked &&
    a.app === b.app &&
    a.trusted === b.trusted &&
    a.sandbox === b.sandbox
  );
}
