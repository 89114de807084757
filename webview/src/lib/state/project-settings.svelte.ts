// The current project's own settings layer (Settings, This project): where it is stored, whether
// it is damaged, and changes to it. Lives while that page is open.
import type { ProjectSettingsAnswer } from "$shared/api-routes";
import type { AppEvent } from "$shared/app-events";
import type { RouteInput } from "../api/client";
import type { AppState } from "./app.svelte";

export class ProjectSettingsState {
  answer = $state.raw<ProjectSettingsAnswer | undefined>();

  constructor(private readonly app: AppState) {}

  async load(): Promise<void> {
    const query = this.app.projects.dirQuery;
    if (query) this.answer = await this.app.api.call("GET /api/settings/project", { query });
  }

  onAppEvent(event: AppEvent): void {
    if (
      event.type === "settings.changed" &&
      event.data.scope === "project" &&
      event.data.projectId === this.app.projects.currentId
    )
      void this.load();
  }

  /** The answer carries the new layer, so this page needs no re-read; other views get the event. */
  async patch(body: RouteInput<"PATCH /api/settings/project">["body"]): Promise<void> {
    this.answer = (await this.app.patchProjectSettings(body)) ?? this.answer;
  }

  async setStorage(dbBacked: boolean): Promise<void> {
    const query = this.app.projects.dirQuery;
    if (!query) return;
    this.answer = await this.app.change(
      () => this.app.api.call("PUT /api/settings/project/storage", { query, body: { dbBacked } }),
      () => this.app.rereadSettings(),
    );
  }
}
