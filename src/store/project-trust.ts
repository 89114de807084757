// Which projects the user trusts to run the commands their `.app.json` brings (MCP stdio servers,
// shell actions). Kept in the app database, never in the project: a repository cannot trust itself.
import type { AppKvRepo } from "./app-kv-repo";

const PREFIX = "trust.";

export class ProjectTrust {
  constructor(private readonly kv: AppKvRepo) {}

  isTrusted(projectId: string): boolean {
    return this.kv.get(PREFIX + projectId)?.value === "true";
  }

  set(projectId: string, trusted: boolean): void {
    if (trusted) this.kv.set(PREFIX + projectId, "true");
    else this.kv.delete(PREFIX + projectId);
  }
}
