// The one place that constructs better-sqlite3. Its Node-API prebuild loads in Node and in
// VS Code's Electron alike; PARLEY_SQLITE_BINDING points at another build where one is needed.
import Database from "better-sqlite3";

export type SqliteDatabase = Database.Database;

export function openSqlite(file: string): SqliteDatabase {
  const nativeBinding = process.env.PARLEY_SQLITE_BINDING;
  return nativeBinding ? new Database(file, { nativeBinding }) : new Database(file);
}
