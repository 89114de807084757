// Table prompts: app-scope custom prompts, each stored as its JSON document (fields it does not
// know, or a hand-set role, are kept as written).
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";

export type PromptRow = { id: string; json: string };

export class PromptsRepo {
  constructor(private readonly db: Db) {}

  list(): PromptRow[] {
    return statement(this.db, "SELECT id, json FROM prompts ORDER BY created_at, id").all() as PromptRow[];
  }

  get(id: string): PromptRow | undefined {
    return statement(this.db, "SELECT id, json FROM prompts WHERE id = ?").get(id) as PromptRow | undefined;
  }

  /** False when the id is taken. */
  insert(id: string, json: string, createdAt: string): boolean {
    return (
      statement(
        this.db,
        "INSERT INTO prompts (id, json, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO NOTHING",
      ).run(id, json, createdAt, createdAt).changes > 0
    );
  }

  update(id: string, json: string, updatedAt: string): boolean {
    return (
      statement(this.db, "UPDATE prompts SET json = ?, updated_at = ? WHERE id = ?").run(json, updatedAt, id).changes >
      0
    );
  }

  delete(id: string): boolean {
    return statement(this.db, "DELETE FROM prompts WHERE id = ?").run(id).changes > 0;
  }
}
