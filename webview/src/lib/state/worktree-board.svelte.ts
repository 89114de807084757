// A project's Agents board (contract 7.6): its worktree chats with their status, changes, cost and what
// they wait for, read again on the project's chats.changed and, while a chat runs or waits, every few
// seconds; and the board's actions: answer an approval or a question, merge, squash, discard, one
// file's two sides for a diff.
import type { AppEvent } from "$shared/app-events";
import type { BoardEntry, WorktreeMergeResult } from "$shared/worktrees";
import { BOARD_POLL_MS, needsPolling } from "../worktree-board";
import type { WorktreeFileSides } from "../worktree-diff";
import type { AppState } from "./app.svelte";

export class WorktreeBoardState {
  entries = $state.raw<BoardEntry[]>([]);
  /** Every listed chat's spend; null when one is unknown. */
  cost = $state<number | null>(0);
  loaded = $state(false);
  loadError = $state<string | undefined>();
  /** Reads overlap (an event during a poll): only the newest read's answer is shown. */
  private reads = 0;
  private poll: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    private readonly app: AppState,
    readonly projectId: string,
  ) {}

  async load(): Promise<void> {
    const read = ++this.reads;
    try {
      const board = await this.app.api.call("GET /api/projects/:id/worktree-chats", {
        params: { id: this.projectId },
      });
      if (read !== this.reads) return;
      this.entries = board.entries;
      this.cost = board.cost;
      this.loadError = undefined;
    } catch (error) {
      if (read === this.reads) this.loadError = (error as Error).message;
    } finally {
      if (read === this.reads) {
        this.loaded = true;
        this.schedule();
      }
    }
  }

  onAppEvent(event: AppEvent): void {
    if (event.type === "chats.changed" && event.data.projectId === this.projectId) void this.load();
  }

  /** The next poll, only while a chat runs or waits (a finished board changes by events alone). */
  private schedule(): void {
    clearTimeout(this.poll);
    if (!this.disposed && needsPolling(this.entries)) this.poll = setTimeout(() => void this.load(), BOARD_POLL_MS);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.poll);
  }

  async approve(chatId: string, callId: string, decision: "allow" | "deny"): Promise<void> {
    await this.app.api.call("POST /api/chats/:id/approvals/:call", {
      params: { id: chatId, call: callId },
      body: { decision },
    });
    await this.load();
  }

  async answer(chatId: string, callId: string, answer: string): Promise<void> {
    await this.app.api.call("POST /api/chats/:id/answers/:call", {
      params: { id: chatId, call: callId },
      body: { answer },
    });
    await this.load();
  }

  async merge(chatId: string, mode: "merge" | "squash"): Promise<WorktreeMergeResult> {
    const result = await this.app.api.call("POST /api/chats/:id/worktree/merge", {
      params: { id: chatId },
      body: { mode },
    });
    await this.load();
    return result;
  }

  async discard(chatId: string, force: boolean): Promise<void> {
    await this.app.api.call("DELETE /api/chats/:id/worktree", { params: { id: chatId }, body: force ? { force } : {} });
    await this.load();
  }

  file(chatId: string, path: string): Promise<WorktreeFileSides> {
    return this.app.api.call("GET /api/chats/:id/worktree/file", { params: { id: chatId }, query: { path } });
  }
}
