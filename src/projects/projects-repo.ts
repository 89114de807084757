// Table projects: every project directory Parley has seen, by its canonical absolute path.
import { randomBytes } from "node:crypto";
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import { nowIso } from "../platform/clock";

export type ProjectRow = { id: string; dir: string; createdAt: string };

const COLUMNS = "id, dir, created_at AS createdAt";

export class ProjectsRepo {
  constructor(private readonly db: Db) {}

  list(): ProjectRow[] {
    return statement(this.db, `SELECT ${COLUMNS} FROM projects ORDER BY created_at, id`).all() as ProjectRow[];
  }

  byId(id: string): ProjectRow | undefined {
    return statement(this.db, `SELECT ${COLUMNS} FROM projects WHERE id = ?`).get(id) as ProjectRow | undefined;
  }

  byDir(dir: string): ProjectRow | undefined {
    return statement(this.db, `SELECT ${COLUMNS} FROM projects WHERE dir = ?`).get(dir) as ProjectRow | undefined;
  }

  /** Returns the project for `dir`, creating it on first use; `created` says which happened. */
  ensure(dir: string): { project: ProjectRow; created: boolean } {
    const id = `p_${randomBytes(8).toString("base64url")}`;
    const result = statement(
      this.db,
      "INSERT INTO projects (id, dir, created_at) VALUES (?, ?, ?) ON CONFLICT(dir) DO NOTHING",
    ).run(id, dir, nowIso());
    return { project: this.byDir(dir)!, created: result.changes > 0 };
  }
}
