// The gateway's model catalog, one cache entry per slice and base URL (memory, and the app database
// for the latest one), refreshed in the background when stale so that neither the picker nor a
// chat ever waits on a refresh.
import type { CatalogModel, ModelSlice } from "../shared/gateway";
import { fetchModels } from "./models";
import type { GatewayConnection } from "./http";
import type { AppKvRepo } from "../platform/app-kv-repo";
import type { Logger } from "../platform/logger";

export const CATALOG_TTL_MS = 60 * 60 * 1000;
/**
 * Least time between two background loads of one list by chat turns. A model the list does not
 * show (`name@revision`, a LiteLLM wildcard route) is normal, so it must never cost a refetch of
 * the whole list per turn, nor must a server without `/models`.
 */
export const WARM_INTERVAL_MS = 5 * 60 * 1000;

type Entry = { baseUrl: string; fetchedAt: number; models: CatalogModel[] };

export class ModelCatalog {
  private readonly memory = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<CatalogModel[]>>();
  private readonly lastWarm = new Map<string, number>();

  constructor(
    private readonly kv: AppKvRepo,
    private readonly log: Logger,
    private readonly ttlMs = CATALOG_TTL_MS,
    private readonly warmIntervalMs = WARM_INTERVAL_MS,
  ) {}

  static cacheKey(slice: ModelSlice): string {
    return `cache.gateway.models.${slice}`;
  }

  /** Fresh cache as is; stale cache at once plus a background refresh; no cache: fetch and wait. */
  async list(slice: ModelSlice, connection: GatewayConnection): Promise<CatalogModel[]> {
    const entry = this.entry(slice, connection.baseUrl);
    if (entry && this.isFresh(entry)) return entry.models;
    if (entry) {
      this.refresh(slice, connection).catch((error) =>
        this.log.warn(`model catalog refresh failed: ${(error as Error).message}`),
      );
      return entry.models;
    }
    return this.refresh(slice, connection);
  }

  /** Whatever is cached for this base URL, never waiting on the network. */
  cached(slice: ModelSlice, baseUrl: string): CatalogModel[] | undefined {
    return this.entry(slice, baseUrl)?.models;
  }

  /** Live prices of a model from either slice, or undefined when the catalog has not been loaded. */
  find(modelId: string, baseUrl: string): CatalogModel | undefined {
    for (const slice of ["text", "transcription"] as const) {
      const model = this.cached(slice, baseUrl)?.find((m) => m.id === modelId);
      if (model) return model;
    }
    return undefined;
  }

  /**
   * Loads a slice in the background when it is missing or stale, at most once per
   * `warmIntervalMs` for each base URL whatever the outcome; for callers that must not wait.
   */
  warm(slice: ModelSlice, connection: GatewayConnection): void {
    const entry = this.entry(slice, connection.baseUrl);
    if (entry && this.isFresh(entry)) return;
    const key = `${slice} ${connection.baseUrl}`;
    const last = this.lastWarm.get(key);
    if (last !== undefined && Date.now() - last < this.warmIntervalMs) return;
    this.lastWarm.set(key, Date.now());
    this.refresh(slice, connection).catch((error) => this.log.warn(`model catalog: ${(error as Error).message}`));
  }

  /** One fetch per slice and base URL at a time; concurrent callers share it. */
  refresh(slice: ModelSlice, connection: GatewayConnection): Promise<CatalogModel[]> {
    const key = `${slice} ${connection.baseUrl}`;
    let running = this.inflight.get(key);
    if (!running) {
      running = fetchModels(connection, slice)
        .then((models) => {
          const entry = { baseUrl: connection.baseUrl, fetchedAt: Date.now(), models };
          this.memory.set(key, entry);
          this.kv.set(ModelCatalog.cacheKey(slice), JSON.stringify(entry));
          return models;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, running);
    }
    return running;
  }

  private isFresh(entry: Entry): boolean {
    return Date.now() - entry.fetchedAt < this.ttlMs;
  }

  /** The memory entry, else the database row when it is for this base URL (the list saved last). */
  private entry(slice: ModelSlice, baseUrl: string): Entry | undefined {
    const key = `${slice} ${baseUrl}`;
    const remembered = this.memory.get(key);
    if (remembered) return remembered;
    const row = this.kv.get(ModelCatalog.cacheKey(slice));
    if (!row) return undefined;
    try {
      const saved = JSON.parse(row.value) as Entry;
      if (saved.baseUrl !== baseUrl || !Array.isArray(saved.models)) return undefined;
      this.memory.set(key, saved);
      return saved;
    } catch {
      this.kv.delete(ModelCatalog.cacheKey(slice));
      return undefined;
    }
  }
}
