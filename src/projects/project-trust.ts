// Whether the user trusts what a project's `.app.json` brings (contract 7.1): its loosening gates, its
// actions and its MCP servers wait for trust. Trust covers the entries as they were when given, so a
// pull that adds or changes one lapses it; VS Code's Restricted Mode counts as untrusted whatever was
// stored. What Parley itself writes into the project's settings for the user counts as trusted (the
// user wrote it), so it never lapses a trust and never waits for one (SettingsService calls `keepAcross`).
import {
  covers,
  trustChanges,
  trustRecord,
  trustSubject,
  withItems,
  type TrustItem,
  type TrustRecord,
} from "./trust-subject";
import type { JsonObject } from "../settings/settings-merge";
import type { TrustState } from "../shared/projects";
import type { ProjectTrustRepo } from "./project-trust-repo";

const NOTHING_TRUSTED: TrustRecord = trustRecord([]);

export class ProjectTrust {
  constructor(
    private readonly repo: ProjectTrustRepo,
    /** VS Code's Workspace Trust; absent (a plain `parley serve`) counts as trusted. */
    private readonly hostTrusted: () => boolean = () => true,
  ) {}

  /**
   * Whether the project's own entries may take effect: every one of them is covered by the user's trust
   * (a project that brings nothing that needs trust has nothing to wait for), and the host allows it.
   */
  isTrusted(projectId: string, layer: JsonObject | undefined): boolean {
    return this.hostTrusted() && this.covered(projectId, trustSubject(layer));
  }

  state(projectId: string, layer: JsonObject | undefined): TrustState {
    const items = trustSubject(layer);
    const record = this.repo.get(projectId);
    const covered = this.covered(projectId, items);
    // A stored row that is not a record (an older Parley stored a bare "true") covered no entries by name.
    const legacy = record === undefined && this.repo.has(projectId);
    const lapsed = !covered && (record !== undefined || legacy);
    const changes = !lapsed
      ? []
      : record
        ? trustChanges(record, items)
        : items.map((i) => ({ kind: i.kind, id: i.id, change: "added" as const, summary: i.summary }));
    return {
      trusted: covered && this.hostTrusted(),
      restricted: !this.hostTrusted(),
      lapsed,
      covers: items.map(({ kind, id, summary }) => ({ kind, id, summary })),
      changes,
    };
  }

  /** Trusts the entries the layer holds now. */
  trust(projectId: string, layer: JsonObject | undefined): void {
    this.repo.put(projectId, trustRecord(trustSubject(layer)));
  }

  distrust(projectId: string): void {
    this.repo.delete(projectId);
  }

  /** Whether the host (VS Code's Restricted Mode) keeps every project untrusted. */
  get restricted(): boolean {
    return !this.hostTrusted();
  }

  /**
   * Parley rewrote the layer for the user (`before` → `after`). A trust that covered `before` now covers
   * `after`; otherwise only the entries this write added or changed join the record (the user wrote
   * them), so a change from outside that lapsed the trust stays uncovered: a write never launders it.
   */
  keepAcross(projectId: string, before: JsonObject | undefined, after: JsonObject | undefined): void {
    const previous = trustSubject(before);
    const next = trustSubject(after);
    // A project that brings nothing needing trust gets no record from a write that adds nothing either:
    // a record is what later says "lapsed", and nobody trusted anything here.
    if (next.length === 0 && !this.repo.has(projectId)) return;
    if (this.covered(projectId, previous)) return this.repo.put(projectId, trustRecord(next));
    const unchanged = new Set(previous.map(keyOf));
    const written = next.filter((item) => !unchanged.has(keyOf(item)));
    if (written.length === 0) return;
    this.repo.put(projectId, withItems(this.repo.get(projectId) ?? NOTHING_TRUSTED, written));
  }

  private covered(projectId: string, items: TrustItem[]): boolean {
    const record = this.repo.get(projectId);
    if (record) return covers(record, items);
    // Nothing stored: only a project that brings nothing needing trust is covered (an older Parley's bare row included).
    return items.length === 0;
  }
}

/** An entry and its content: a changed entry is a different key here. */
const keyOf = (item: TrustItem) => `${item.kind}:${item.id}:${item.hash}`;
