// Settings, Access and passkeys: whether a password is set, the passkeys and the browser sessions,
// and the changes to them. The server sends no event for these, so each change reads them again.
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import type { AccessSession, AccessStatus, Passkey } from "$shared/api-routes";
import type { ApiClient } from "../api/client";

export class AccessState {
  status = $state.raw<AccessStatus | undefined>();
  sessions = $state.raw<AccessSession[]>([]);
  passkeys = $state.raw<Passkey[]>([]);
  loadError = $state<string | undefined>();
  /** The page's own session, if it has one (a browser tab; VS Code uses the token). */
  current = $derived(this.sessions.find((s) => s.current));
  others = $derived(this.sessions.filter((s) => !s.current));

  constructor(private readonly api: ApiClient) {}

  async load(): Promise<void> {
    try {
      const [status, sessions, passkeys] = await Promise.all([
        this.api.call("GET /api/access/status"),
        this.api.call("GET /api/access/sessions"),
        this.api.call("GET /api/access/passkeys"),
      ]);
      this.status = status;
      // This tab's own session first, then the most recently seen.
      this.sessions = [...sessions].sort(
        (a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt),
      );
      this.passkeys = passkeys;
      this.loadError = undefined;
    } catch (error) {
      this.loadError = (error as Error).message;
    }
  }

  /** No app event concerns access; the page reloads after its own changes. */
  onAppEvent(): void {}

  private async then<T>(change: Promise<T>): Promise<T> {
    const result = await change;
    await this.load();
    return result;
  }

  /** Sets or changes it; every other session ends (the server gives this one a fresh cookie). */
  setPassword(current: string | undefined, next: string): Promise<void> {
    return this.then(
      this.api.call("POST /api/access/password", { body: current === undefined ? { next } : { current, next } }),
    );
  }

  clearPassword(current: string): Promise<void> {
    return this.then(this.api.call("DELETE /api/access/password", { body: { current } }));
  }

  /** Registers a passkey for this page's host: the server's options, the browser's ceremony, the server's check. */
  async addPasskey(name: string): Promise<Passkey> {
    const options = await this.api.call("POST /api/access/passkeys/register/options", { body: {} });
    // The table checks the fields the UI relies on; the rest is the library's own JSON shape.
    const response = await startRegistration({
      optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
    });
    return this.then(
      this.api.call("POST /api/access/passkeys/register/verify", {
        body: { name, response: { ...response, response: { ...response.response } } },
      }),
    );
  }

  renamePasskey(id: string, name: string): Promise<void> {
    return this.then(this.api.call("PATCH /api/access/passkeys/:id", { params: { id }, body: { name } }));
  }

  deletePasskey(id: string): Promise<void> {
    return this.then(this.api.call("DELETE /api/access/passkeys/:id", { params: { id } }));
  }

  revoke(id: string): Promise<void> {
    return this.then(this.api.call("DELETE /api/access/sessions/:id", { params: { id } }));
  }

  async revokeOthers(): Promise<number> {
    return (await this.then(this.api.call("DELETE /api/access/sessions"))).revoked;
  }

  /** Ends this tab's session; the caller sends the tab to the sign-in page. */
  logout(): Promise<void> {
    return this.api.call("POST /api/access/logout");
  }
}
