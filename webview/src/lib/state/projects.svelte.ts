// The registered projects and which one the UI shows; the one place that builds `?projectDir=`.
import type { Project } from "../../../../src/shared/projects";
import type { ApiClient } from "../api/client";

export class ProjectsState {
  list = $state.raw<Project[]>([]);
  currentId = $state<string | undefined>();
  current = $derived(this.list.find((p) => p.id === this.currentId));
  /** The `projectDir` query of every project-scoped route, or undefined when no project is open. */
  dirQuery = $derived(this.current ? { projectDir: this.current.dir } : undefined);

  constructor(
    private readonly api: ApiClient,
    private readonly preferredId?: string,
  ) {}

  /** Reloads the list; returns true when that made a project current (none was before). */
  async load(): Promise<boolean> {
    this.list = await this.api.call("GET /api/projects");
    if (this.currentId) return false;
    this.currentId = this.list.find((p) => p.id === this.preferredId)?.id ?? this.list[0]?.id;
    return this.currentId !== undefined;
  }
}
