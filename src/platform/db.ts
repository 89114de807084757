// Opens the app database: WAL journal, foreign keys, and numbered migrations keyed by user_version.
import fs from "node:fs";
import path from "node:path";
import { MIGRATIONS } from "./migrations";
import { openSqlite, type SqliteDatabase } from "./sqlite-binding";

export type Db = SqliteDatabase;

export function openDatabase(file: string, migrations: readonly string[] = MIGRATIONS): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = openSqlite(file);
  // WAL lets a second VS Code window read while this one writes; NORMAL sync is crash-safe in WAL.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  migrate(db, migrations);
  return db;
}

export function schemaVersion(db: Db): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/** Applies pending migrations, each in its own transaction, so a crash leaves a whole version. */
export function migrate(db: Db, migrations: readonly string[]): void {
  const current = schemaVersion(db);
  if (current > migrations.length) {
    throw new Error(
      `the app database is at schema ${current}, newer than this Parley (${migrations.length}); update Parley`,
    );
  }
  for (let version = current; version < migrations.length; version++) {
    db.transaction(() => {
      // Re-read inside the write lock: another process may have migrated meanwhile.
      if (schemaVersion(db) !== version) return;
      db.exec(migrations[version]!);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}
