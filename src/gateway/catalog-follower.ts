// Reloads the gateway's model lists as soon as its base URL changes (Settings, Providers), so the
// picker, the prices and the transcription slice show the new server's models at once instead of
// the previous server's cached list until someone asks.
import type { ResolvedSettings } from "../shared/settings";
import type { AppEvent } from "../shared/app-events";
import { providerEntry } from "../settings/credential-binding";
import type { GatewayConnection } from "./http";
import type { ModelCatalog } from "./model-catalog";
import type { Logger } from "../platform/logger";

export type CatalogFollowerDeps = {
  subscribe: (listener: (event: AppEvent) => void) => () => void;
  /** The app-level settings, as the catalog routes read them. */
  settings: () => Promise<ResolvedSettings>;
  /** The gateway connection for those settings (the key is optional for the catalog). */
  connection: (settings: ResolvedSettings) => Promise<GatewayConnection>;
  catalog: ModelCatalog;
  log: Logger;
};

/** The gateway provider's `baseUrl` in resolved settings. */
export function gatewayBaseUrl(settings: ResolvedSettings): string | undefined {
  const baseUrl = providerEntry(settings, "gateway")?.baseUrl;
  return typeof baseUrl === "string" ? baseUrl : undefined;
}

/** Starts following; `stop` ends it, `idle` settles when the checks queued so far are done. */
export function followGatewayBaseUrl(deps: CatalogFollowerDeps): { stop: () => void; idle: () => Promise<void> } {
  let current: string | undefined;
  let checks = Promise.resolve();

  const check = async (atStart: boolean) => {
    const settings = await deps.settings();
    const next = gatewayBaseUrl(settings);
    if (next === current) return;
    current = next;
    // At start the cached list is as good as its age says; only a change calls for a reload.
    if (atStart || next === undefined) return;
    deps.log.info("gateway base URL changed: reloading the model lists");
    const connection = await deps.connection(settings);
    const results = await Promise.allSettled([
      deps.catalog.refresh("text", connection),
      deps.catalog.refresh("transcription", connection),
    ]);
    for (const result of results) {
      if (result.status === "rejected") deps.log.warn(`model catalog: ${(result.reason as Error).message}`);
    }
  };
  // One check at a time, in order, so two quick saves end on the last URL.
  const queue = (atStart: boolean) => {
    checks = checks
      .then(() => check(atStart))
      .catch((error) => deps.log.warn(`model catalog: ${(error as Error).message}`));
  };

  queue(true);
  const unsubscribe = deps.subscribe((event) => {
    if (event.type === "settings.changed" && event.data.scope === "app") queue(false);
  });
  return { stop: unsubscribe, idle: () => checks };
}
