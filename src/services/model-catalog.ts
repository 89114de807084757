// The gateway's model catalog, one cache entry per slice (memory and app database), refreshed in
// the background when stale so that neither the picker nor a chat ever waits on a refresh.
import type { CatalogModel, ModelSlice } from "../shared/gateway";
import { fetchModels } from "../providers/gateway/models";
import type { GatewayConnection } from "../providers/gateway/http";
import type { AppKvRepo } from "../store/app-kv-repo";
import type { Logger } from "./logger";

export const CATALOG_TTL_MS = 60 * 60 * 1000;

type Entry = { baseUrl: string; fetchedAt: number; models: CatalogModel[] };

export class ModelCatalog {
  private readonly memory = new Map<ModelSlice, Entry>();
  private readonly inflight = new Map<string, Promise<CatalogModel[]>>();

  constructor(
    private readonly kv: AppKvRepo,
    private readonly log: Logger,
    private readonly ttlMs = CATALOG_TTL_MS,
  ) {}

  static cacheKey(slice: ModelSlice): string {
    return `cache.gateway.models.${slice}`;
  }

  /** Fresh cache as is; stale cache at once plus a background refresh; no cache: fetch and wait. */
  async list(slice: ModelSlice, connection: GatewayConnection): Promise<CatalogModel[]> {
    const entry = this.entry(slice, connection.baseUrl);
    if (entry && Date.now() - entry.fetchedAt < this.ttlMs) return entry.models;
    if (entry) {
      this.refresh(slice, connection).catch((error) => this.log.warn(`model catalog refresh failed: ${(error as Error).message}`));
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

  /** One fetch per slice and base URL at a time; concurrent callers share it. */
  refresh(slice: ModelSlice, connection: GatewayConnection): Promise<CatalogModel[]> {
    const key = `${slice} ${connection.baseUrl}`;
    let running = this.inflight.get(key);
    if (!running) {
      running = fetchModels(connection, slice)
        .then((models) => {
          const entry = { baseUrl: connection.baseUrl, fetchedAt: Date.now(), models };
          this.memory.set(slice, entry);
          this.kv.set(ModelCatalog.cacheKey(slice), JSON.stringify(entry));
          return models;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, running);
    }
    return running;
  }

  private entry(slice: ModelSlice, baseUrl: string): Entry | undefined {
    let entry = this.memory.get(slice);
    if (!entry) {
      const row = this.kv.get(ModelCatalog.cacheKey(slice));
      if (row) {
        try {
          entry = JSON.parse(row.value) as Entry;
          this.memory.set(slice, entry);
        } catch {
          this.kv.delete(ModelCatalog.cacheKey(slice));
        }
      }
    }
    return entry && entry.baseUrl === baseUrl ? entry : undefined;
  }
}
