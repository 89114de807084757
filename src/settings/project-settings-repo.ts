// Table project_settings: the settings of db-backed projects ("Store settings in app DB").
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import { nowIso } from "../platform/clock";

export class ProjectSettingsRepo {
  constructor(private readonly db: Db) {}

  get(projectId: string): string | undefined {
    const row = statement(this.db, "SELECT json FROM project_settings WHERE project_id = ?").get(projectId) as
      { json: string } | undefined;
    return row?.json;
  }

  has(projectId: string): boolean {
    return this.get(projectId) !== undefined;
  }

  put(projectId: string, json: string): void {
    statement(
      this.db,
      `INSERT INTO project_settings (project_id, json, updated_at) VALUES (?, ?, ?)
         ON CONFLICT(project_id) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at`,
    ).run(projectId, json, nowIso());
  }

  delete(projectId: string): void {
    statement(this.db, "DELETE FROM project_settings WHERE project_id = ?").run(projectId);
  }

  dbBackedProjectIds(): Set<string> {
    const rows = statement(this.db, "SELECT project_id AS id FROM project_settings").all() as { id: string }[];
    return new Set(rows.map((row) => row.id));
  }
}
