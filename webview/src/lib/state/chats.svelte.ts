// The current project's chat list, newest first; reloaded when a chat of that project changes.
import type { AppEvent } from "$shared/app-events";
import type { Chat } from "$shared/chats";
import type { ApiClient } from "../api/client";
import type { ProjectsState } from "./projects.svelte";

export class ChatsState {
  list = $state.raw<Chat[]>([]);

  constructor(
    private readonly api: ApiClient,
    private readonly projects: ProjectsState,
  ) {}

  async load(): Promise<void> {
    const id = this.projects.currentId;
    if (!id) return;
    const listed = await this.api.call("GET /api/projects/:id/chats", { params: { id } });
    // Without `limit` the answer is every chat; a page is `{chats, hasMore}`.
    this.list = Array.isArray(listed) ? listed : listed.chats;
  }

  /** Whether an app event changes what this list shows. */
  affectedBy(event: AppEvent): boolean {
    return event.type === "chats.changed" && event.data.projectId === this.projects.currentId;
  }

  async create(modelId: string | undefined, options: { worktree?: boolean } = {}): Promise<Chat | undefined> {
    const id = this.projects.currentId;
    if (!id) return undefined;
    return this.api.call("POST /api/projects/:id/chats", {
      params: { id },
      body: { ...(modelId ? { modelId } : {}), ...(options.worktree ? { worktree: true } : {}) },
    });
  }

  async rename(id: string, title: string): Promise<void> {
    const chat = await this.api.call("PATCH /api/chats/:id", { params: { id }, body: { title } });
    this.list = this.list.map((c) => (c.id === id ? chat : c));
  }

  async remove(id: string): Promise<void> {
    await this.api.call("DELETE /api/chats/:id", { params: { id } });
    this.list = this.list.filter((c) => c.id !== id);
  }
}
