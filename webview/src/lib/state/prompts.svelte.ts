// Custom prompts: the current project's (with the app prompts it inherits), or the app's alone, and
// the built-in profiles; and the changes made to them (create, save, delete).
import type { PromptProfile } from "$shared/api-routes";
import type { AppEvent } from "$shared/app-events";
import type { Prompt, PromptInput, PromptScope } from "$shared/prompts";
import type { AppState } from "./app.svelte";

export class PromptsState {
  prompts = $state.raw<Prompt[]>([]);
  profiles = $state.raw<PromptProfile[]>([]);
  loaded = $state(false);
  /** Called after every new listing (an edit here or elsewhere), so an open editor can follow it. */
  onReload: (() => void) | undefined;
  /** Reads overlap (an event and a change of ours): only the latest answer is shown. */
  private reads = 0;
  private latest: Promise<void> = Promise.resolve();

  /** `listing: "app"`: the app's prompts alone (Settings, App defaults), even with a project open. */
  constructor(
    private readonly app: AppState,
    private readonly listing: "app" | "current" = "current",
  ) {}

  /** Whether this listing shows the project's prompts (and scope badges). */
  get projectScoped(): boolean {
    return this.listing === "current" && this.app.projects.dirQuery !== undefined;
  }

  async load(): Promise<void> {
    await Promise.all([this.loadPrompts(), this.loadProfiles()]);
    this.loaded = true;
  }

  onAppEvent(event: AppEvent): void {
    if (event.type !== "prompts.changed") return;
    if (event.data.scope === "app" || (this.projectScoped && event.data.projectId === this.app.projects.currentId))
      void this.loadPrompts();
  }

  /** The saved prompt `id` as this listing means it: the project's own before an app prompt it overrides. */
  find(id: string, scope?: PromptScope): Prompt | undefined {
    return (
      this.prompts.find((p) => p.id === id && (scope === undefined || p.scope === scope) && !p.overridden) ??
      this.prompts.find((p) => p.id === id && (scope === undefined || p.scope === scope))
    );
  }

  async create(scope: PromptScope, prompt: PromptInput): Promise<Prompt> {
    const created = await this.app.api.call("POST /api/prompts", { body: { scope, ...this.dirFor(scope), prompt } });
    await this.loadPrompts();
    return created;
  }

  async update(scope: PromptScope, id: string, prompt: PromptInput): Promise<Prompt> {
    const saved = await this.app.api.call("PUT /api/prompts/:id", {
      params: { id },
      body: { scope, ...this.dirFor(scope), prompt },
    });
    await this.loadPrompts();
    return saved;
  }

  async remove(scope: PromptScope, id: string): Promise<void> {
    await this.app.api.call("DELETE /api/prompts/:id", { params: { id }, query: { scope, ...this.dirFor(scope) } });
    await this.loadPrompts();
  }

  private dirFor(scope: PromptScope): { projectDir?: string } {
    const dir = this.app.projects.dirQuery?.projectDir;
    return scope === "project" && dir ? { projectDir: dir } : {};
  }

  /** Resolves once the listing is at least as new as this read: a superseded read waits for the newer one. */
  private loadPrompts(): Promise<void> {
    const read = ++this.reads;
    const query =
      this.listing === "current"
        ? (this.app.projects.dirQuery ?? { scope: "app" as const })
        : { scope: "app" as const };
    this.latest = this.app.api.call("GET /api/prompts", { query }).then((prompts) => {
      if (read !== this.reads) return this.latest;
      this.prompts = prompts;
      this.onReload?.();
    });
    return this.latest;
  }

  /** The built-in profiles are part of the server's code: read once. */
  private async loadProfiles(): Promise<void> {
    if (this.profiles.length === 0) this.profiles = await this.app.api.call("GET /api/prompts/defaults");
  }
}
