// Gateway sign-ins: one credential per sign-in in the secret store's `gateway` namespace; the app
// database keeps only which account is active. The active key is used like a pasted key.
import { randomBytes } from "node:crypto";
import { notFound } from "../platform/app-error";
import {
  accountLabel,
  credentialRefreshers,
  needsProactiveRefresh,
  oauthCredentialSchema,
  type OAuthCredential,
} from "./oauth-credential";
import type { AppKvRepo } from "../platform/app-kv-repo";
import type { SecretStore } from "../settings/secret-store";
import type { OAuthCredentialSource } from "./connection-resolver";
import type { EventBus } from "../platform/event-bus";

export const GATEWAY_OAUTH_NAMESPACE = "oauth/gateway/";
const ACTIVE_KEY = "gateway.activeAccount";

export type Account = { id: string; label: string; createdAt: string; active: boolean };

export class GatewayAccounts implements OAuthCredentialSource {
  constructor(
    private readonly secrets: SecretStore,
    private readonly kv: AppKvRepo,
    private readonly events: EventBus,
  ) {}

  /** Stores a new sign-in, bound to the `origin` that issued it, and makes it the active account. */
  async add(key: string, origin: string): Promise<Account> {
    const id = `a_${randomBytes(8).toString("base64url")}`;
    const credential: OAuthCredential = {
      accessToken: key,
      refreshToken: null,
      expiresAt: null,
      label: accountLabel(key),
      createdAt: new Date().toISOString(),
      origin,
    };
    await this.secrets.set(GATEWAY_OAUTH_NAMESPACE + id, JSON.stringify(credential));
    this.kv.set(ACTIVE_KEY, id);
    this.events.publish({ type: "accounts.changed", data: {} });
    return { id, label: credential.label, createdAt: credential.createdAt, active: true };
  }

  async list(): Promise<Account[]> {
    const active = this.kv.get(ACTIVE_KEY)?.value;
    const accounts: Account[] = [];
    for (const name of await this.secrets.list(GATEWAY_OAUTH_NAMESPACE)) {
      const credential = await this.credential(name);
      if (!credential) continue;
      const id = name.slice(GATEWAY_OAUTH_NAMESPACE.length);
      accounts.push({ id, label: credential.label, createdAt: credential.createdAt, active: id === active });
    }
    return accounts.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async activate(id: string): Promise<void> {
    await this.require(id);
    this.kv.set(ACTIVE_KEY, id);
    this.events.publish({ type: "accounts.changed", data: {} });
  }

  /** Signs an account out; if it was active, the newest remaining one takes over. */
  async remove(id: string): Promise<void> {
    await this.require(id);
    await this.secrets.delete(GATEWAY_OAUTH_NAMESPACE + id);
    if (this.kv.get(ACTIVE_KEY)?.value === id) {
      const next = (await this.list()).at(-1);
      if (next) this.kv.set(ACTIVE_KEY, next.id);
      else this.kv.delete(ACTIVE_KEY);
    }
    this.events.publish({ type: "accounts.changed", data: {} });
  }

  /** The active sign-in's key and the origin it is bound to. */
  async activeCredential(providerId: string): Promise<{ key: string; origin: string | undefined } | undefined> {
    if (providerId !== "gateway") return undefined;
    const active = this.kv.get(ACTIVE_KEY)?.value;
    let credential = active ? await this.credential(GATEWAY_OAUTH_NAMESPACE + active) : undefined;
    // The usual refresh hook; gateway keys carry no expiry, so it never fires and the refresher is a no-op.
    if (credential && needsProactiveRefresh(credential, Date.now()))
      credential = await credentialRefreshers.gateway!(credential);
    return credential ? { key: credential.accessToken, origin: credential.origin } : undefined;
  }

  /** Binds sign-ins stored before binding existed to `origin` (the gateway origin in force at the upgrade). */
  async bindLegacy(origin: string): Promise<void> {
    for (const name of await this.secrets.list(GATEWAY_OAUTH_NAMESPACE)) {
      const credential = await this.credential(name);
      if (credential && !credential.origin) await this.secrets.set(name, JSON.stringify({ ...credential, origin }));
    }
  }

  private async require(id: string): Promise<void> {
    if (!(await this.credential(GATEWAY_OAUTH_NAMESPACE + id))) throw notFound(`no gateway account ${id}`);
  }

  private async credential(name: string): Promise<OAuthCredential | undefined> {
    const text = await this.secrets.get(name);
    if (!text) return undefined;
    try {
      return oauthCredentialSchema.parse(JSON.parse(text));
    } catch {
      return undefined;
    }
  }
}
