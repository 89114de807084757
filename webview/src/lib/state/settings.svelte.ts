// Resolved settings (defaults < app < project) of the current project, as the server redacts them.
// Reloaded on a `settings.changed` that concerns them; a change says whether the gateway
// connection moved, since only then the model list must be read again.
import type { ResolvedSettingsViewData } from "$shared/api-routes";
import type { AppEvent } from "$shared/app-events";
import type { Provenance } from "$shared/settings";
import type { ApiClient, RouteInput } from "../api/client";
import type { ProjectsState } from "./projects.svelte";

/** What the model list and the balance depend on: the provider connections and the model records. */
function connectionKey(settings: ResolvedSettingsViewData): string {
  return JSON.stringify([settings.providers ?? [], settings.models ?? []]);
}

export class SettingsState {
  value = $state.raw<ResolvedSettingsViewData>({});
  /** Which layer (default, app, project) each value of `value` comes from. */
  provenance = $state.raw<Provenance>({});
  /** The gateway provider entry (base URL, auth mode, whether a key is stored), or an empty one. */
  gateway = $derived(this.value.providers?.find((p) => p.id === "gateway"));
  connection = $derived(connectionKey(this.value));

  constructor(
    private readonly api: ApiClient,
    private readonly projects: ProjectsState,
  ) {}

  async load(): Promise<void> {
    const answer = await this.api.call("GET /api/settings/resolved", { query: this.projects.dirQuery ?? {} });
    this.value = answer.settings;
    this.provenance = answer.provenance;
  }

  affectedBy(event: AppEvent): boolean {
    return (
      event.type === "settings.changed" &&
      (event.data.scope === "app" || event.data.projectId === this.projects.currentId)
    );
  }

  /** PATCH of the app layer; the resulting state comes back as a `settings.changed` event. */
  patchApp(body: RouteInput<"PATCH /api/settings/app">["body"]) {
    return this.api.call("PATCH /api/settings/app", { body });
  }

  /** PATCH of the current project's layer; answers with that layer (none without a project). */
  async patchProject(body: RouteInput<"PATCH /api/settings/project">["body"]) {
    const query = this.projects.dirQuery;
    return query ? this.api.call("PATCH /api/settings/project", { query, body }) : undefined;
  }
}
