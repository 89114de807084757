// The app settings document (app_kv key `settings`) and the spec's corrupt-settings quarantine rule.
import { randomBytes } from "node:crypto";
import { exceedsJsonDepth } from "../platform/json-depth";
import { isPlainObject, type JsonObject } from "./settings-merge";
import type { AppKvRepo, KvRow } from "../platform/app-kv-repo";

export const APP_SETTINGS_KEY = "settings";
const QUARANTINE_PREFIX = `${APP_SETTINGS_KEY}.corrupt-`;

export type QuarantinedRow = { key: string; value: string; createdAt: string };
export type Logger = (line: string) => void;

/** No app settings yet: one (read-only) object, like any unchanged row. */
const NO_APP_SETTINGS: JsonObject = Object.freeze({});

export class AppSettingsStore {
  private last: { text: string; value: JsonObject } | undefined;

  constructor(
    private readonly kv: AppKvRepo,
    private readonly log: Logger,
  ) {}

  /**
   * The stored app settings object. A value that does not parse, or parses to a non-object, is
   * moved to a quarantine row with its original bytes, the live row is deleted, and `{}` is returned.
   */
  read(): JsonObject {
    const row = this.kv.get(APP_SETTINGS_KEY);
    if (!row) return NO_APP_SETTINGS;
    // The same text gives back the same (read-only) object, so callers can cache what they derive.
    if (this.last?.text === row.value) return this.last.value;
    const parsed = parseObject(row.value);
    if (parsed) {
      this.last = { text: row.value, value: parsed };
      return parsed;
    }
    const key = this.quarantine(row);
    this.log(`app settings were unreadable and were moved to app_kv key "${key}"; starting from defaults`);
    return NO_APP_SETTINGS;
  }

  write(settings: JsonObject): void {
    this.kv.set(APP_SETTINGS_KEY, JSON.stringify(settings));
  }

  /** Read-modify-write in one database transaction, so concurrent writers cannot lose updates. */
  update(change: (current: JsonObject) => JsonObject): JsonObject {
    return this.kv.transaction(() => {
      const next = change(this.read());
      this.write(next);
      return next;
    });
  }

  listQuarantined(): QuarantinedRow[] {
    return this.kv.listByPrefix(QUARANTINE_PREFIX).map(({ key, value, createdAt }) => ({ key, value, createdAt }));
  }

  private quarantine(row: KvRow): string {
    const key = `${QUARANTINE_PREFIX}${Date.now()}-${randomBytes(4).toString("hex")}`;
    this.kv.transaction(() => {
      this.kv.set(key, row.value);
      this.kv.delete(APP_SETTINGS_KEY);
    });
    return key;
  }
}

function parseObject(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    // Too deep to merge safely counts as unreadable, like a non-object.
    return isPlainObject(value) && !exceedsJsonDepth(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The spec's named accessor, for callers that hold only the key-value repository. */
export function listQuarantinedAppSettings(kv: AppKvRepo): QuarantinedRow[] {
  return new AppSettingsStore(kv, () => {}).listQuarantined();
}
