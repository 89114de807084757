// Table checkpoints: for each file a turn's tools wrote, its bytes before the turn's first write and
// a hash of what the turn's last write left, so a revert restores it and notices later changes.
import { createHash } from "node:crypto";
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import { nowIso } from "../platform/clock";

export type Checkpoint = { turnId: string; chatId: string; path: string; before: Buffer | null; afterSha256: string };

export function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export class CheckpointsRepo {
  constructor(private readonly db: Db) {}

  /** Records a write: the first one of a turn keeps `before`; later ones only move the `after` hash. */
  record(turnId: string, chatId: string, path: string, before: Buffer | null, after: Buffer): void {
    statement(
      this.db,
      `INSERT INTO checkpoints (turn_id, chat_id, path, before, after_sha256, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(turn_id, path) DO UPDATE SET after_sha256 = excluded.after_sha256`,
    ).run(turnId, chatId, path, before, sha256(after), nowIso());
  }

  forTurn(chatId: string, turnId: string): Checkpoint[] {
    return statement(
      this.db,
      "SELECT turn_id AS turnId, chat_id AS chatId, path, before, after_sha256 AS afterSha256 FROM checkpoints WHERE chat_id = ? AND turn_id = ? ORDER BY path",
    ).all(chatId, turnId) as Checkpoint[];
  }

  deleteTurn(chatId: string, turnId: string): void {
    statement(this.db, "DELETE FROM checkpoints WHERE chat_id = ? AND turn_id = ?").run(chatId, turnId);
  }
}
