// Signed-in gateway accounts (Settings, Providers): the rows, Use and Sign out.
import type { GatewayAccount } from "$shared/api-routes";
import type { AppEvent } from "$shared/app-events";
import type { AppState } from "./app.svelte";

export class AccountsState {
  list = $state.raw<GatewayAccount[]>([]);

  constructor(private readonly app: AppState) {}

  async load(): Promise<void> {
    this.list = await this.app.api.call("GET /api/providers/gateway/accounts").catch(() => []);
  }

  onAppEvent(event: AppEvent): void {
    if (event.type === "accounts.changed") void this.load();
  }

  /** Where to send the user to sign in; the new account comes back as `accounts.changed`. */
  async signInUrl(returnTo: string): Promise<string> {
    return (await this.app.api.call("POST /api/providers/gateway/oauth/start", { body: { returnTo } })).authorizeUrl;
  }

  activate(id: string): Promise<void> {
    return this.app.change(
      () => this.app.api.call("POST /api/providers/gateway/accounts/:id/activate", { params: { id } }),
      () => this.load(),
    );
  }

  remove(id: string): Promise<void> {
    return this.app.change(
      () => this.app.api.call("DELETE /api/providers/gateway/accounts/:id", { params: { id } }),
      () => this.load(),
    );
  }
}
