// Custom prompts available in the current project (or the app's alone), and the built-in profiles.
import type { PromptProfile } from "../../../../src/shared/api-routes";
import type { AppEvent } from "../../../../src/shared/app-events";
import type { Prompt } from "../../../../src/shared/prompts";
import type { AppState } from "./app.svelte";

export class PromptsState {
  prompts = $state.raw<Prompt[]>([]);
  profiles = $state.raw<PromptProfile[]>([]);

  constructor(private readonly app: AppState) {}

  async load(): Promise<void> {
    await Promise.all([this.loadPrompts(), this.loadProfiles()]);
  }

  onAppEvent(event: AppEvent): void {
    if (event.type !== "prompts.changed") return;
    if (event.data.scope === "app" || event.data.projectId === this.app.projects.currentId) void this.loadPrompts();
  }

  private async loadPrompts(): Promise<void> {
    this.prompts = await this.app.api.call("GET /api/prompts", { query: this.app.projects.dirQuery ?? { scope: "app" } });
  }

  /** The built-in profiles are part of the server's code: read once. */
  private async loadProfiles(): Promise<void> {
    this.profiles = await this.app.api.call("GET /api/prompts/defaults");
  }
}
