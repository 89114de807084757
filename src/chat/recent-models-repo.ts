// Table recent_models: models the user picked lately, newest first, for the model picker.
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import { nowIso } from "../platform/clock";

export type RecentModel = { providerId: string; modelId: string; usedAt: string };

export class RecentModelsRepo {
  constructor(private readonly db: Db) {}

  touch(providerId: string, modelId: string): void {
    // REPLACE deletes and re-inserts, so the rowid also orders two picks made within the same millisecond.
    statement(this.db, "REPLACE INTO recent_models (provider_id, model_id, used_at) VALUES (?, ?, ?)").run(
      providerId,
      modelId,
      nowIso(),
    );
  }

  list(limit = 10): RecentModel[] {
    return statement(
      this.db,
      `SELECT provider_id AS providerId, model_id AS modelId, used_at AS usedAt FROM recent_models
         ORDER BY used_at DESC, rowid DESC LIMIT ?`,
    ).all(limit) as RecentModel[];
  }
}
