// Table app_kv, keys `trust.<projectId>`: the record of what the user trusted in a project (a
// fingerprint and each entry's hash). Kept in the app database, never in the project: a repository
// cannot trust itself.
import { parseTrustRecord, type TrustRecord } from "./trust-subject";
import type { AppKvRepo } from "../platform/app-kv-repo";

const PREFIX = "trust.";

export class ProjectTrustRepo {
  constructor(private readonly kv: AppKvRepo) {}

  /** The stored record; undefined when there is none or it is not one (an older Parley's bare `"true"`). */
  get(projectId: string): TrustRecord | undefined {
    return parseTrustRecord(this.kv.get(PREFIX + projectId)?.value);
  }

  /** Whether a row exists at all, record or not (an older Parley's trust lapses, it does not vanish). */
  has(projectId: string): boolean {
    return this.kv.get(PREFIX + projectId) !== undefined;
  }

  put(projectId: string, record: TrustRecord): void {
    this.kv.set(PREFIX + projectId, JSON.stringify(record));
  }

  delete(projectId: string): void {
    this.kv.delete(PREFIX + projectId);
  }
}
