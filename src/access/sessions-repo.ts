// Table sessions: browser sessions opened by the token link, a password or a passkey. Only SHA-256 of
// the cookie is stored, so a copied database file does not hand out live sessions. A session expires
// after an idle time: every use moves its expiry.
import { createHash } from "node:crypto";
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import { nowIso } from "../platform/clock";

export type SessionRow = {
  idHash: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string;
};

export function hashSessionId(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

export class SessionsRepo {
  constructor(private readonly db: Db) {}

  create(id: string, userAgent: string, idleMs: number): void {
    const now = new Date();
    statement(
      this.db,
      "INSERT INTO sessions (id_hash, created_at, last_seen_at, expires_at, user_agent) VALUES (?, ?, ?, ?, ?)",
    ).run(
      hashSessionId(id),
      now.toISOString(),
      now.toISOString(),
      new Date(now.getTime() + idleMs).toISOString(),
      userAgent,
    );
  }

  /**
   * True when the session exists and has not expired; records that it was seen and, given an idle
   * time, moves its expiry that far ahead.
   */
  touch(id: string, idleMs?: number): boolean {
    const now = new Date();
    const result =
      idleMs === undefined
        ? statement(this.db, "UPDATE sessions SET last_seen_at = ? WHERE id_hash = ? AND expires_at > ?").run(
            now.toISOString(),
            hashSessionId(id),
            now.toISOString(),
          )
        : statement(
            this.db,
            "UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE id_hash = ? AND expires_at > ?",
          ).run(
            now.toISOString(),
            new Date(now.getTime() + idleMs).toISOString(),
            hashSessionId(id),
            now.toISOString(),
          );
    return result.changes > 0;
  }

  revokeAll(): void {
    statement(this.db, "DELETE FROM sessions").run();
  }

  /** Revokes every session but `keepIdHash`; returns how many ended. */
  revokeAllBut(keepIdHash: string | undefined): number {
    return statement(this.db, "DELETE FROM sessions WHERE id_hash <> ?").run(keepIdHash ?? "").changes;
  }

  list(): SessionRow[] {
    return statement(
      this.db,
      `SELECT id_hash AS idHash, created_at AS createdAt, last_seen_at AS lastSeenAt, expires_at AS expiresAt,
         user_agent AS userAgent FROM sessions WHERE expires_at > ? ORDER BY created_at`,
    ).all(nowIso()) as SessionRow[];
  }

  revoke(idHash: string): boolean {
    return statement(this.db, "DELETE FROM sessions WHERE id_hash = ?").run(idHash).changes > 0;
  }

  deleteExpired(): void {
    statement(this.db, "DELETE FROM sessions WHERE expires_at <= ?").run(nowIso());
  }
}
