// Compiled statements, cached per database: better-sqlite3 compiles SQL on every prepare(), which
// is a noticeable share of a chat turn's set-up time.
import type { Statement } from "better-sqlite3";
import type { Db } from "./db";

const caches = new WeakMap<Db, Map<string, Statement>>();

export function statement(db: Db, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let compiled = cache.get(sql);
  if (!compiled) cache.set(sql, (compiled = db.prepare(sql)));
  return compiled;
}
