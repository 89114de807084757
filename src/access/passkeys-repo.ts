// Table passkeys: the WebAuthn credentials registered for the browser UI (public keys only).
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import { nowIso } from "../platform/clock";

export type PasskeyRow = {
  id: string;
  name: string;
  publicKey: Buffer;
  counter: number;
  transports: string[];
  rpId: string;
  createdAt: string;
  lastUsedAt: string | null;
};

type Raw = Omit<PasskeyRow, "transports"> & { transports: string };

const COLUMNS =
  "id, name, public_key AS publicKey, counter, transports, rp_id AS rpId, created_at AS createdAt, last_used_at AS lastUsedAt";
const parse = (row: Raw): PasskeyRow => ({ ...row, transports: JSON.parse(row.transports) as string[] });

export class PasskeysRepo {
  constructor(private readonly db: Db) {}

  add(row: Omit<PasskeyRow, "createdAt" | "lastUsedAt">): void {
    statement(
      this.db,
      "INSERT INTO passkeys (id, name, public_key, counter, transports, rp_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run(row.id, row.name, row.publicKey, row.counter, JSON.stringify(row.transports), row.rpId, nowIso());
  }

  list(): PasskeyRow[] {
    return (statement(this.db, `SELECT ${COLUMNS} FROM passkeys ORDER BY created_at`).all() as Raw[]).map(parse);
  }

  byId(id: string): PasskeyRow | undefined {
    const row = statement(this.db, `SELECT ${COLUMNS} FROM passkeys WHERE id = ?`).get(id) as Raw | undefined;
    return row ? parse(row) : undefined;
  }

  count(): number {
    return (statement(this.db, "SELECT count(*) AS n FROM passkeys").get() as { n: number }).n;
  }

  used(id: string, counter: number): void {
    statement(this.db, "UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ?").run(counter, nowIso(), id);
  }

  rename(id: string, name: string): boolean {
    return statement(this.db, "UPDATE passkeys SET name = ? WHERE id = ?").run(name, id).changes > 0;
  }

  delete(id: string): boolean {
    return statement(this.db, "DELETE FROM passkeys WHERE id = ?").run(id).changes > 0;
  }
}
