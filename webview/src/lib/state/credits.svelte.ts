// The gateway balance (Settings, Providers), read again when the account or the connection changes.
import type { AppEvent } from "$shared/app-events";
import type { CreditsAnswer } from "$shared/gateway";
import { ApiError } from "../api/client";
import type { AppState } from "./app.svelte";

export class CreditsState {
  credits = $state.raw<CreditsAnswer | undefined>();
  /** Set when the server failed (502), which the user should know; a missing key is not a failure. */
  failure = $state<string | undefined>();

  constructor(private readonly app: AppState) {}

  async load(): Promise<void> {
    try {
      this.credits = await this.app.api.call("GET /api/providers/gateway/credits");
      this.failure = undefined;
    } catch (error) {
      this.credits = undefined;
      // 400: no key yet, nothing to show; 502: the server failed.
      this.failure = error instanceof ApiError && error.status === 502 ? error.message : undefined;
    }
  }

  onAppEvent(event: AppEvent): void {
    if (event.type === "accounts.changed") void this.load();
  }
}
