// The registered projects and which one the UI shows; the one place that builds `?projectDir=`.
import type { Project } from "$shared/projects";
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

  private loading: Promise<boolean> | undefined;

  /** Reloads the list; returns true when that made a project current (none was before). */
  load(): Promise<boolean> {
    return (this.loading = this.read());
  }

  /**
   * A project's folder by its id (or, for no id, the current project's), waiting for the list when
   * it does not have the project yet: right after a reload a run must not go out without its folder.
   */
  async dirOf(projectId: string): Promise<string | undefined> {
    const known = () => (projectId ? this.list.find((p) => p.id === projectId)?.dir : this.current?.dir);
    if (known() === undefined) await (this.loading ?? this.load()).catch(() => false);
    if (known() === undefined) await this.load().catch(() => false);
    return this.knownDir(projectId);
  }

  /** A project's folder as the list has it now, else the current project's (undefined before the list). */
  knownDir(projectId: string): string | undefined {
    return this.list.find((p) => p.id === projectId)?.dir ?? this.current?.dir;
  }

  private async read(): Promise<boolean> {
    this.list = await this.api.call("GET /api/projects");
    if (this.currentId) return false;
    this.currentId = this.list.find((p) => p.id === this.preferredId)?.id ?? this.list[0]?.id;
    return this.currentId !== undefined;
  }
}
