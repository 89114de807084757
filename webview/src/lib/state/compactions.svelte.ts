// A chat's compactions (contract 7.3): "Compact now", and the edit and undo of an entry's summary.
// Each success reads the chat again (its transcript and its context meter); a refusal is said in words.
import type { ApiClient } from "../api/client";
import { compactedMessage, compactionFailure, compactionFromMessage } from "../compaction";

/** What a compaction card may do with its entry; each rejects with the reason in words. */
export type CompactionActions = {
  edit(id: string, summary: string): Promise<void>;
  undo(id: string): Promise<void>;
};

export class ChatCompactions implements CompactionActions {
  /** "Compact now" is under way. */
  compacting = $state(false);
  /** What the last "Compact now" said: how far it compacted, or why it could not. */
  message = $state("");
  failed = $state(false);

  constructor(
    private readonly api: ApiClient,
    private readonly chatId: string,
    /** Reads the chat and its context meter again. */
    private readonly reload: () => Promise<void>,
  ) {}

  async compactNow(): Promise<void> {
    if (this.compacting) return;
    this.compacting = true;
    this.message = "";
    this.failed = false;
    try {
      const entry = await this.api.call("POST /api/chats/:id/compact", { params: { id: this.chatId } });
      this.message = compactedMessage(compactionFromMessage(entry));
      await this.reload();
    } catch (error) {
      this.message = compactionFailure(error);
      this.failed = true;
    } finally {
      this.compacting = false;
    }
  }

  /** Forgets what the last "Compact now" said (the chat moved on: a turn, an edit, an undo). */
  settle(): void {
    if (this.compacting) return;
    this.message = "";
    this.failed = false;
  }

  async edit(id: string, summary: string): Promise<void> {
    await this.change(() =>
      this.api.call("PATCH /api/chats/:id/compactions/:cid", {
        params: { id: this.chatId, cid: id },
        body: { summary },
      }),
    );
  }

  async undo(id: string): Promise<void> {
    await this.change(() =>
      this.api.call("DELETE /api/chats/:id/compactions/:cid", { params: { id: this.chatId, cid: id } }),
    );
  }

  private async change(request: () => Promise<unknown>): Promise<void> {
    try {
      await request();
    } catch (error) {
      throw new Error(compactionFailure(error));
    }
    this.settle();
    await this.reload();
  }
}
