// The user's hand on a compaction entry (contract 7.3): edit its summary, or undo it, after which the
// chat sends what it sent before. Neither while the chat answers or compacts (409): a turn in flight
// has already built its request from the entry.
import { AppError, conflict, notFound } from "../../platform/app-error";
import type { Message } from "../../shared/chats";
import { MAX_SUMMARY_CHARS } from "../../shared/compaction";
import type { MessagesRepo } from "../messages-repo";
import type { ActiveTurns } from "../turn-broadcast";
import type { Compactor } from "./compactor";

export class CompactionEntries {
  constructor(
    private readonly messages: MessagesRepo,
    private readonly turns: ActiveTurns,
    private readonly compactor: Compactor,
  ) {}

  edit(chatId: string, id: string, summary: string): Message {
    const entry = this.entry(chatId, id);
    if (summary.length > MAX_SUMMARY_CHARS)
      throw new AppError("payload_too_large", `a summary can be at most ${MAX_SUMMARY_CHARS} characters`);
    if (!entry.meta?.through) throw conflict("this compaction only pruned tool outputs: it has no summary to edit");
    this.messages.update(entry.id, { content: summary, meta: { ...entry.meta, edited: true } });
    return this.messages.byId(entry.id)!;
  }

  /** The entry goes; what its summary request cost stays counted (GET /api/usage, the chat's totals). */
  undo(chatId: string, id: string): void {
    this.messages.delete(this.entry(chatId, id).id, { keepUsage: true });
  }

  private entry(chatId: string, id: string): Message {
    const entry = this.messages.byId(id);
    if (!entry || entry.chatId !== chatId || entry.role !== "compaction")
      throw notFound(`no compaction ${id} in this chat`);
    if (this.turns.isActive(chatId)) throw conflict("this chat is answering; change its compaction when it is done");
    if (this.compactor.isBusy(chatId)) throw conflict("this chat is being compacted; try again in a moment");
    return entry;
  }
}
