// The app settings layer as stored (GET /api/settings/app), for the parts of App defaults that edit a
// key both layers may set: the resolved settings would show a project's value there. Lives while the
// page is open.
import type { AppEvent } from "$shared/app-events";
import type { RouteResult } from "../api/client";
import type { AppState } from "./app.svelte";

export class AppSettingsLayerState {
  value = $state.raw<RouteResult<"GET /api/settings/app"> | undefined>();

  /** The top-level keys the page shows from this layer (a change to others does not concern it). */
  constructor(
    private readonly app: AppState,
    private readonly keys: readonly string[],
  ) {}

  async load(): Promise<void> {
    this.value = await this.app.api.call("GET /api/settings/app");
  }

  /** Another change to the app layer: read again, unless it is known to touch none of the keys shown. */
  onAppEvent(event: AppEvent): void {
    if (event.type !== "settings.changed" || event.data.scope !== "app") return;
    if (event.data.keys && !event.data.keys.some((key) => this.keys.includes(key))) return;
    void this.load();
  }

  /** Saves a change; the answer is the new layer. */
  async patch(body: Parameters<AppState["patchAppSettings"]>[0]): Promise<void> {
    this.value = (await this.app.patchAppSettings(body)) ?? this.value;
  }
}
