// The current project's trust (contract 7.1): whether the user trusts what its `.app.json` brings,
// what that covers and what changed since, and the switch. Read again on the project's
// `settings.changed` (the file changed, trust was given or taken) and `mcp.changed`.
import type { AppEvent } from "$shared/app-events";
import type { TrustState } from "$shared/projects";
import type { AppState } from "./app.svelte";

/** "Not now" on a project's trust question holds for this browser session (this tab, or this panel). */
const dismissed = new Set<string>();
const DISMISSED_KEY = "parley.trust.notNow";

function readDismissed(): Set<string> {
  try {
    for (const id of JSON.parse(sessionStorage.getItem(DISMISSED_KEY) ?? "[]") as string[]) dismissed.add(id);
  } catch {
    // no sessionStorage here: the in-memory set alone lasts as long as this page
  }
  return dismissed;
}

export class ProjectTrustState {
  state = $state.raw<TrustState | undefined>();
  loadError = $state<string | undefined>();
  /** The user answered the trust question with "Not now" in this session. */
  dismissed = $state(false);
  /** Reads overlap (a trust sends two events): only the latest one's answer is shown. */
  private reads = 0;
  private readonly projectId: string | undefined;

  /** The views holding this are keyed on the current project, so the project stays the one at construction. */
  constructor(private readonly app: AppState) {
    this.projectId = app.projects.currentId;
    this.dismissed = this.projectId !== undefined && readDismissed().has(this.projectId);
  }

  async load(): Promise<void> {
    const id = this.projectId;
    if (!id) return;
    const read = ++this.reads;
    try {
      const state = await this.app.api.call("GET /api/projects/:id/trust", { params: { id } });
      if (read !== this.reads) return;
      this.state = state;
      this.loadError = undefined;
    } catch (error) {
      if (read === this.reads) this.loadError = (error as Error).message;
    }
  }

  onAppEvent(event: AppEvent): void {
    if (event.type === "settings.changed" && event.data.scope === "project" && event.data.projectId === this.projectId)
      void this.load();
    if (event.type === "mcp.changed" && event.data.projectId === this.projectId) void this.load();
  }

  /** Trusts the project's entries as they are now, or stops trusting it; throws the server's refusal (409 under Restricted Mode). */
  async setTrusted(trusted: boolean): Promise<void> {
    const id = this.projectId;
    if (!id) return;
    const answer = await this.app.change(
      () => this.app.api.call("POST /api/projects/:id/trust", { params: { id }, body: { trusted } }),
      () => this.load(),
    );
    // Shown at once, not after the event's read (a read begun before the change is stale: dropped).
    this.reads++;
    if (this.state) this.state = { ...this.state, trusted: answer.trusted, lapsed: false, changes: [] };
  }

  notNow(): void {
    const id = this.projectId;
    if (!id) return;
    dismissed.add(id);
    try {
      sessionStorage.setItem(DISMISSED_KEY, JSON.stringify([...dismissed]));
    } catch {
      // kept in memory only
    }
    this.dismissed = true;
  }
}
