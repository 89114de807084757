// One project card's data: the project's chats (newest first) and the prompts available in it (for
// the one-tap buttons and the icons of chats they started). Each card reads and follows its own
// project, so several cards never share a list.
import type { AppEvent } from "$shared/app-events";
import type { Chat } from "$shared/chats";
import type { Project } from "$shared/projects";
import type { Prompt } from "$shared/prompts";
import type { AppState } from "./app.svelte";

export class ProjectCardState {
  chats = $state.raw<Chat[]>([]);
  prompts = $state.raw<Prompt[]>([]);
  loadError = $state<string | undefined>();
  /** Whether the chats were read once: until then the card says nothing about them. */
  loaded = $state(false);

  constructor(
    private readonly app: AppState,
    readonly project: Project,
  ) {
    // The current project's chats are in hand already: shown at once, then read again.
    if (project.id === app.projects.currentId && app.chats.list.length > 0) {
      this.chats = app.chats.list;
      this.loaded = true;
    }
  }

  async load(): Promise<void> {
    try {
      await Promise.all([this.loadChats(), this.loadPrompts()]);
      this.loadError = undefined;
    } catch (error) {
      this.loadError = (error as Error).message;
    }
  }

  onAppEvent(event: AppEvent): void {
    if (event.type === "chats.changed" && event.data.projectId === this.project.id)
      void this.loadChats().catch(() => undefined);
    if (event.type === "prompts.changed" && (event.data.scope === "app" || event.data.projectId === this.project.id))
      void this.loadPrompts().catch(() => undefined);
  }

  /** Reads overlap (two events in a row): only the newest read's answer is shown. */
  private chatReads = 0;
  private promptReads = 0;

  private async loadChats(): Promise<void> {
    const read = ++this.chatReads;
    const chats = await this.app.api.call("GET /api/projects/:id/chats", { params: { id: this.project.id } });
    if (read !== this.chatReads) return;
    this.chats = Array.isArray(chats) ? chats : chats.chats;
    this.loaded = true;
  }

  private async loadPrompts(): Promise<void> {
    const read = ++this.promptReads;
    const prompts = await this.app.api.call("GET /api/prompts", { query: { projectDir: this.project.dir } });
    if (read === this.promptReads) this.prompts = prompts;
  }

  /**
   * A new chat in this project, with `promptId` when a card prompt started it, or in a git worktree of
   * its own (contract 7.6); opened at once.
   */
  async newChat(promptId?: string, options: { worktree?: boolean } = {}): Promise<void> {
    const chat = await this.app.change(
      () =>
        this.app.api.call("POST /api/projects/:id/chats", {
          params: { id: this.project.id },
          body: { ...(promptId ? { promptId } : {}), ...(options.worktree ? { worktree: true } : {}) },
        }),
      () => this.loadChats(),
    );
    this.app.openChat(this.project.id, chat.id);
  }

  async rename(id: string, title: string): Promise<void> {
    const chat = await this.app.api.call("PATCH /api/chats/:id", { params: { id }, body: { title } });
    this.chats = this.chats.map((c) => (c.id === id ? chat : c));
  }

  async remove(id: string): Promise<void> {
    await this.app.api.call("DELETE /api/chats/:id", { params: { id } });
    this.chats = this.chats.filter((c) => c.id !== id);
  }
}
