// Table messages: each chat's messages as a tree (contract 7.4), with usage on assistant messages.
// Every row names its parent, the row before it on its branch; editing or regenerating adds a row
// beside another (same parent), never deletes one. A chat shows one path, from a root to its leaf
// (`chats.leaf_id`), and every read of "the transcript" (the UI's pages, the next request, the
// meter, compaction) reads that path. `seq` still numbers a chat's rows in the order they were
// stored, so a row's ancestors always have smaller ones and a path sorts by it.
import { randomBytes } from "node:crypto";
import type { Message, MessageStatus } from "../shared/chats";
import type { Usage, UsageTotals } from "../shared/usage";
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import { nowIso } from "../platform/clock";

type MessageRow = {
  id: string;
  chat_id: string;
  seq: number;
  role: Message["role"];
  content: string;
  status: MessageStatus;
  model_id: string | null;
  usage_json: string | null;
  meta_json: string | null;
  parent_id: string | null;
  created_at: string;
};

function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    chatId: row.chat_id,
    seq: row.seq,
    role: row.role,
    content: row.content,
    status: row.status,
    modelId: row.model_id,
    usage: row.usage_json ? (JSON.parse(row.usage_json) as Usage) : null,
    meta: row.meta_json ? (JSON.parse(row.meta_json) as Record<string, unknown>) : null,
    parentId: row.parent_id,
    createdAt: row.created_at,
  };
}

export type NewMessage = Pick<Message, "role" | "content" | "status"> &
  Partial<Pick<Message, "modelId" | "usage" | "meta">>;
export type MessageChanges = Partial<Pick<Message, "content" | "status" | "usage" | "meta">>;

export function newMessageId(): string {
  return `m_${randomBytes(9).toString("base64url")}`;
}

/** Walks up from a row to its root, at most `limit` rows: the path ending at that row, oldest first. */
const PATH_UP = `
  WITH RECURSIVE path(id, depth) AS (
    SELECT ?, 1
    UNION ALL
    SELECT m.parent_id, path.depth + 1 FROM path JOIN messages m ON m.id = path.id
      WHERE m.parent_id IS NOT NULL AND path.depth < ?
  )
  SELECT messages.* FROM path JOIN messages ON messages.id = path.id ORDER BY messages.seq`;

/** How far a read without a limit walks: far beyond any real chat, and still a bound. */
const WHOLE_PATH = 10_000_000;

export class MessagesRepo {
  constructor(private readonly db: Db) {}

  /**
   * Stores a row under `parentId`, by default the chat's leaf, and makes it the leaf. `id` is given
   * when the message had to be named before it was stored (a turn's `turn.start`).
   */
  append(chatId: string, message: NewMessage, id = newMessageId(), parentId = this.leafId(chatId)): Message {
    return this.db.transaction(() => this.insert(chatId, message, id, parentId))();
  }

  /**
   * Stores a row and moves the leaf to it. The message is made from what was written, not read back:
   * a turn stores its rows between sending its request and reading the answer's first token.
   */
  private insert(chatId: string, message: NewMessage, id: string, parentId: string | null): Message {
    const usageJson = message.usage ? JSON.stringify(message.usage) : null;
    const metaJson = message.meta ? JSON.stringify(message.meta) : null;
    const createdAt = nowIso();
    const { seq } = statement(
      this.db,
      `INSERT INTO messages (id, chat_id, seq, role, content, status, model_id, usage_json, meta_json, parent_id, created_at)
         VALUES (?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE chat_id = ?), ?, ?, ?, ?, ?, ?, ?, ?)
         RETURNING seq`,
    ).get(
      id,
      chatId,
      chatId,
      message.role,
      message.content,
      message.status,
      message.modelId ?? null,
      usageJson,
      metaJson,
      parentId,
      createdAt,
    ) as { seq: number };
    this.setLeaf(chatId, id);
    return toMessage({
      id,
      chat_id: chatId,
      seq,
      role: message.role,
      content: message.content,
      status: message.status,
      model_id: message.modelId ?? null,
      usage_json: usageJson,
      meta_json: metaJson,
      parent_id: parentId,
      created_at: createdAt,
    });
  }

  byId(id: string): Message | undefined {
    const row = statement(this.db, "SELECT * FROM messages WHERE id = ?").get(id) as MessageRow | undefined;
    return row ? toMessage(row) : undefined;
  }

  /** A row of this chat, or undefined (an id of another chat is as unknown as a made-up one). */
  inChat(chatId: string, id: string): Message | undefined {
    const message = this.byId(id);
    return message?.chatId === chatId ? message : undefined;
  }

  /** The row the chat's path ends at; null for a chat without messages. */
  leafId(chatId: string): string | null {
    const row = statement(this.db, "SELECT leaf_id FROM chats WHERE id = ?").get(chatId) as
      { leaf_id: string | null } | undefined;
    return row?.leaf_id ?? null;
  }

  setLeaf(chatId: string, id: string | null): void {
    statement(this.db, "UPDATE chats SET leaf_id = ? WHERE id = ?").run(id, chatId);
  }

  /** The chat's current path (what it shows and sends), oldest first. */
  listByChat(chatId: string): Message[] {
    return this.pathTo(this.leafId(chatId));
  }

  /** The path from a root to `id` (included); empty for null. */
  pathTo(id: string | null, limit = WHOLE_PATH): Message[] {
    if (id === null) return [];
    return (statement(this.db, PATH_UP).all(id, limit) as MessageRow[]).map(toMessage);
  }

  /**
   * The last `limit` messages of the current path before `beforeId` (or the path's end), in order,
   * and whether older ones exist: one walk of `limit + 1` rows up the tree, however long the chat.
   * Undefined when `beforeId` is not this chat's.
   */
  page(chatId: string, limit: number, beforeId?: string): { messages: Message[]; hasMore: boolean } | undefined {
    let from = this.leafId(chatId);
    if (beforeId !== undefined) {
      const before = this.inChat(chatId, beforeId);
      if (!before) return undefined;
      from = before.parentId;
    }
    const rows = this.pathTo(from, limit + 1);
    const hasMore = rows.length > limit;
    return { messages: hasMore ? rows.slice(1) : rows, hasMore };
  }

  /**
   * Each message with the ids of the rows beside it (same parent, in the order they were stored,
   * itself included) and its index among them: what "‹ 2/3 ›" shows and switches between.
   */
  withSiblings(chatId: string, messages: readonly Message[]): Message[] {
    if (messages.length === 0) return [];
    const parents = [...new Set(messages.map((m) => m.parentId).filter((p): p is string => p !== null))];
    const rows = statement(
      this.db,
      `SELECT id, parent_id FROM messages WHERE chat_id = ? AND parent_id IN (SELECT value FROM json_each(?))
       ORDER BY seq`,
    ).all(chatId, JSON.stringify(parents)) as { id: string; parent_id: string }[];
    if (messages.some((m) => m.parentId === null))
      rows.push(
        ...(statement(
          this.db,
          "SELECT id, parent_id FROM messages WHERE chat_id = ? AND parent_id IS NULL ORDER BY seq",
        ).all(chatId) as { id: string; parent_id: string }[]),
      );
    const byParent = new Map<string | null, string[]>();
    for (const row of rows) byParent.set(row.parent_id, [...(byParent.get(row.parent_id) ?? []), row.id]);
    return messages.map((message) => {
      const siblings = byParent.get(message.parentId) ?? [message.id];
      return { ...message, siblings, siblingIndex: Math.max(0, siblings.indexOf(message.id)) };
    });
  }

  /**
   * Copies a path into another (new) chat as its only branch, in one transaction: new ids, each row
   * under the one before it; a compaction's `through` follows its row. Usage stays with the original
   * (it was spent once), and so do the turns' ids, whose checkpoints belong to the original's files.
   */
  copyPath(chatId: string, path: readonly Message[]): ReadonlyMap<string, string> {
    const ids = new Map(path.map((m) => [m.id, newMessageId()]));
    this.db.transaction(() => {
      let parentId: string | null = null;
      for (const message of path) {
        const { turnId: _turn, ...meta } = message.meta ?? {};
        if (typeof meta.through === "string") meta.through = ids.get(meta.through) ?? meta.through;
        const id = ids.get(message.id)!;
        this.insert(
          chatId,
          {
            role: message.role,
            content: message.content,
            status: message.status === "streaming" ? "interrupted" : message.status,
            modelId: message.modelId,
            meta: Object.keys(meta).length > 0 ? meta : null,
          },
          id,
          parentId,
        );
        parentId = id;
      }
    })();
    return ids;
  }

  /** The most recently stored row under `id` (itself when it has no children): where its branch ends. */
  latestLeafUnder(chatId: string, id: string): string {
    const row = statement(
      this.db,
      `WITH RECURSIVE sub(id) AS (
         SELECT ? UNION ALL SELECT m.id FROM messages m JOIN sub ON m.parent_id = sub.id WHERE m.chat_id = ?
       )
       SELECT messages.id FROM sub JOIN messages ON messages.id = sub.id ORDER BY messages.seq DESC LIMIT 1`,
    ).get(id, chatId) as { id: string } | undefined;
    return row?.id ?? id;
  }

  /**
   * The chat's usage totals, summed by SQLite over the usage column (the messages' text is never
   * read): a page of a 10,000-message chat comes with them at the cost of one index scan. The cost
   * is unknown (null) as soon as one turn's is, as `addToTotals` has it.
   */
  usageTotals(chatId: string): UsageTotals {
    const row = statement(
      this.db,
      `SELECT count(*) AS turns,
         coalesce(sum(json_extract(usage_json, '$.promptTokens')), 0) AS promptTokens,
         coalesce(sum(json_extract(usage_json, '$.completionTokens')), 0) AS completionTokens,
         coalesce(sum(json_extract(usage_json, '$.totalTokens')), 0) AS totalTokens,
         coalesce(sum(json_extract(usage_json, '$.cachedTokens')), 0) AS cachedTokens,
         coalesce(sum(json_extract(usage_json, '$.reasoningTokens')), 0) AS reasoningTokens,
         coalesce(sum(json_extract(usage_json, '$.cost')), 0) AS cost,
         count(*) - count(json_extract(usage_json, '$.cost')) AS unknownCostTurns
       FROM (
         SELECT usage_json FROM messages WHERE chat_id = ? AND usage_json IS NOT NULL
         UNION ALL
         SELECT usage_json FROM spent_usage WHERE chat_id = ?
       )`,
    ).get(chatId, chatId) as UsageTotals;
    return { ...row, cost: row.unknownCostTurns > 0 ? null : row.cost };
  }

  update(id: string, changes: MessageChanges): void {
    const sets: string[] = [];
    const values: unknown[] = [];
    if (changes.content !== undefined) (sets.push("content = ?"), values.push(changes.content));
    if (changes.status !== undefined) (sets.push("status = ?"), values.push(changes.status));
    if (changes.usage !== undefined)
      (sets.push("usage_json = ?"), values.push(changes.usage ? JSON.stringify(changes.usage) : null));
    if (changes.meta !== undefined)
      (sets.push("meta_json = ?"), values.push(changes.meta ? JSON.stringify(changes.meta) : null));
    if (sets.length > 0) statement(this.db, `UPDATE messages SET ${sets.join(", ")} WHERE id = ?`).run(...values, id);
  }

  /**
   * Removes one message (a compaction entry the user undid); whether it existed. Its children move up
   * to its parent, so the branches through it stay whole. `keepUsage`: what it was paid for stays the
   * chat's (see migration 11), as for an undone compaction's summary request.
   */
  delete(id: string, { keepUsage = false } = {}): boolean {
    const message = this.byId(id);
    if (!message) return false;
    this.db.transaction(() => {
      if (keepUsage && message.usage)
        statement(
          this.db,
          "INSERT INTO spent_usage (id, chat_id, model_id, usage_json, created_at) VALUES (?, ?, ?, ?, ?)",
        ).run(`u_${id}`, message.chatId, message.modelId, JSON.stringify(message.usage), message.createdAt);
      statement(this.db, "UPDATE messages SET parent_id = ? WHERE chat_id = ? AND parent_id = ?").run(
        message.parentId,
        message.chatId,
        id,
      );
      statement(this.db, "UPDATE chats SET leaf_id = ? WHERE id = ? AND leaf_id = ?").run(
        message.parentId,
        message.chatId,
        id,
      );
      statement(this.db, "DELETE FROM messages WHERE id = ?").run(id);
    })();
    return true;
  }

  /** Marks a turn's tool messages as reverted (its file changes were undone). */
  markTurnReverted(chatId: string, turnId: string): void {
    statement(
      this.db,
      `UPDATE messages SET meta_json = json_set(meta_json, '$.reverted', json('true'))
         WHERE chat_id = ? AND role = 'tool' AND json_extract(meta_json, '$.turnId') = ?`,
    ).run(chatId, turnId);
  }

  /** After a crash, answers that were still streaming are marked interrupted (their text is kept). */
  markInterrupted(): number {
    return statement(this.db, "UPDATE messages SET status = 'interrupted' WHERE status = 'streaming'").run().changes;
  }
}
