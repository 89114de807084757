// Table app_kv: small named JSON documents of the app (the app settings live at key `settings`).
import type { Db } from "./db";
import { statement } from "./statements";
import { nowIso } from "./clock";

export type KvRow = { key: string; value: string; createdAt: string; updatedAt: string };

export class AppKvRepo {
  constructor(private readonly db: Db) {}

  get(key: string): KvRow | undefined {
    return statement(
      this.db,
      "SELECT key, value, created_at AS createdAt, updated_at AS updatedAt FROM app_kv WHERE key = ?",
    ).get(key) as KvRow | undefined;
  }

  set(key: string, value: string): void {
    const now = nowIso();
    statement(
      this.db,
      `INSERT INTO app_kv (key, value, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ).run(key, value, now, now);
  }

  delete(key: string): void {
    statement(this.db, "DELETE FROM app_kv WHERE key = ?").run(key);
  }

  listByPrefix(prefix: string): KvRow[] {
    // Prefix match without LIKE, so `_` and `%` in keys are not wildcards.
    return statement(
      this.db,
      `SELECT key, value, created_at AS createdAt, updated_at AS updatedAt FROM app_kv
         WHERE substr(key, 1, length(?)) = ? ORDER BY created_at, key`,
    ).all(prefix, prefix) as KvRow[];
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }
}
