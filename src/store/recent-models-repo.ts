// Table recent_models: models the user picked lately, newest first, for the model picker.
import type { Db } from "./db";
import { nowIso } from "./clock";

export type RecentModel = { providerId: string; modelId: string; usedAt: string };

export class RecentModelsRepo {
  constructor(private readonly db: Db) {}

  touch(providerId: string, modelId: string): void {
    // Delete and re-insert so the rowid also orders two picks made within the same millisecond.
    this.db.transaction(() => {
      this.db.prepare("DELETE FROM recent_models WHERE provider_id = ? AND model_id = ?").run(providerId, modelId);
      this.db.prepare("INSERT INTO recent_models (provider_id, model_id, used_at) VALUES (?, ?, ?)").run(providerId, modelId, nowIso());
    })();
  }

  list(limit = 10): RecentModel[] {
    return this.db
      .prepare(
        `SELECT provider_id AS providerId, model_id AS modelId, used_at AS usedAt FROM recent_models
         ORDER BY used_at DESC, rowid DESC LIMIT ?`,
      )
      .all(limit) as RecentModel[];
  }
}
