// Hydrates a model with its provider connection: base URL, key, and headers for one request.
// A stored credential only goes to the origin it was saved for: a project layer that points the
// gateway somewhere else gets `credential_origin_mismatch`, never the user's key. A base URL the user set
// may go without a key (keyless self-hosted servers); then no `Authorization` header is sent.
import type { ResolvedSettings } from "../shared/settings";
import { AppError, invalid } from "../platform/app-error";
import { modelEntry, modelProviderId, originOf, providerEntry } from "../settings/credential-binding";
import { upstreamHeaders } from "./gateway-headers";
import { DEFAULT_GATEWAY_BASE_URL, DEFAULT_REFERER_URL } from "../settings/settings-defaults";
import { apiKeySlot, headerSlot, SECRET_PLACEHOLDER } from "../settings/settings-secrets";
import { isPlainObject, type JsonObject } from "../settings/settings-merge";
import type { GatewayConnection } from "./http";
import type { Credentials } from "../settings/credentials";

/** Supplies the key of the active gateway sign-in (OAuth PKCE) and the origin it is bound to. */
export interface OAuthCredentialSource {
  activeCredential(providerId: string): Promise<{ key: string; origin: string | undefined } | undefined>;
}

export type ResolvedConnection = {
  providerId: string;
  modelId: string;
  connection: GatewayConnection;
};

/** A key that exists, but for other origins than the one a request would go to. */
type Mismatch = { providerId: string; requestOrigin: string; savedOrigins: string[] };

type KeyResult = { key: string } | { mismatch: Mismatch } | undefined;

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isPlainObject(value)) return undefined;
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}

export function originMismatchError({ providerId, requestOrigin, savedOrigins }: Mismatch): AppError {
  return new AppError(
    "credential_origin_mismatch",
    `the key for provider "${providerId}" was saved for ${savedOrigins.join(", ")}, but this request would go to ${requestOrigin} ` +
      `(a project setting changed the base URL); Parley will not send the key there. Save a key for ${requestOrigin} to use it.`,
    [{ providerId, requestOrigin, savedOrigins }],
  );
}

const noKey = (providerId: string) =>
  invalid(`no key for provider "${providerId}": paste an API key or sign in under Settings, Providers`);

/** The hosted gateway's origin: it always needs a key, whoever pointed a provider at it. */
const HOSTED_GATEWAY_ORIGIN = originOf(DEFAULT_GATEWAY_BASE_URL);

export class ConnectionResolver {
  constructor(
    private readonly credentials: Credentials,
    private readonly oauth?: OAuthCredentialSource,
    /** The user's own settings layer (the app layer): where the base URLs the user set live. */
    private readonly userLayer: () => JsonObject = () => ({}),
  ) {}

  /**
   * Whether a request may go without a key: only to a base URL the user set in the app settings for
   * this provider (a self-hosted server such as Ollama, vLLM or `transformers serve` that checks
   * none), never to the hosted gateway, and never to a base URL that only a project's settings name
   * (a repository must not be able to send the user's chats to a server of its choosing).
   */
  private keyless(provider: JsonObject, providerId: string): boolean {
    const origin = originOf(provider.baseUrl);
    if (!origin || origin === HOSTED_GATEWAY_ORIGIN) return false;
    return originOf(providerEntry(this.userLayer(), providerId)?.baseUrl) === origin;
  }

  /** The connection for a chat turn with `modelId`; refuses with a clear 400 when no key may be sent. */
  async forModel(settings: ResolvedSettings, modelId: string): Promise<ResolvedConnection> {
    const model = modelEntry(settings, modelId);
    const providerId = modelProviderId(settings, modelId);
    const provider = this.provider(settings, providerId);
    const origin = originOf(provider.baseUrl)!;
    // Both lookups at once: the model's own key wins over the provider's.
    const [modelKey, providerKey] = await Promise.all([
      this.storedKey(apiKeySlot("models", modelId), origin, providerId),
      this.providerKey(provider, providerId, origin),
    ]);
    const inlineModelKey = typeof model?.apiKey === "string" && model.apiKey ? { key: model.apiKey } : undefined;
    const found = [modelKey, inlineModelKey, providerKey].find((result) => result && "key" in result);
    const key = found && "key" in found ? found.key : undefined;
    if (key === undefined && !this.keyless(provider, providerId)) {
      const mismatch = [modelKey, providerKey].find((result) => result && "mismatch" in result);
      if (mismatch && "mismatch" in mismatch) throw originMismatchError(mismatch.mismatch);
      throw noKey(providerId);
    }
    return {
      providerId,
      modelId,
      connection: await this.connection(settings, provider, key, [
        { kind: "providers", id: providerId, headers: provider.headers },
        { kind: "models", id: modelId, headers: model?.headers },
      ]),
    };
  }

  /** The connection for provider-level calls (catalog, credits); the key is optional for the catalog. */
  async forProvider(settings: ResolvedSettings, providerId = "gateway", requireKey = true): Promise<GatewayConnection> {
    const provider = this.provider(settings, providerId);
    const origin = originOf(provider.baseUrl)!;
    const result = await this.providerKey(provider, providerId, origin);
    const key = result && "key" in result ? result.key : undefined;
    if (requireKey && key === undefined && !this.keyless(provider, providerId)) {
      if (result && "mismatch" in result) throw originMismatchError(result.mismatch);
      throw noKey(providerId);
    }
    // Without a key for this origin the call goes out without one (the model list is public); an
    // Authorization the provider's own headers set stays.
    return this.connection(settings, provider, key, [{ kind: "providers", id: providerId, headers: provider.headers }]);
  }

  private provider(settings: ResolvedSettings, providerId: string): JsonObject {
    const provider = providerEntry(settings, providerId);
    if (!provider) throw new AppError("invalid_request", `no provider "${providerId}" is configured`);
    if (!originOf(provider.baseUrl)) throw invalid(`provider "${providerId}" has no valid baseUrl`);
    return provider;
  }

  private async providerKey(provider: JsonObject, providerId: string, origin: string): Promise<KeyResult> {
    if (provider.authMode === "oauth") {
      const credential = await this.oauth?.activeCredential(providerId);
      if (!credential) return undefined;
      if (credential.origin === origin) return { key: credential.key };
      return {
        mismatch: { providerId, requestOrigin: origin, savedOrigins: [credential.origin ?? "an unknown origin"] },
      };
    }
    const stored = await this.storedKey(apiKeySlot("providers", providerId), origin, providerId);
    if (stored) return stored;
    // A key written into the layer itself (say, a project's own `.app.json`) belongs to that layer's server.
    return typeof provider.apiKey === "string" && provider.apiKey ? { key: provider.apiKey } : undefined;
  }

  private async storedKey(slot: string, origin: string, providerId: string): Promise<KeyResult> {
    const { value, otherOrigins } = await this.credentials.lookup(slot, origin);
    if (value !== undefined) return { key: value };
    return otherOrigins.length > 0
      ? { mismatch: { providerId, requestOrigin: origin, savedOrigins: otherOrigins } }
      : undefined;
  }

  /** Attribution and override headers; a `"<secret>"` header takes its stored value for this origin. */
  private async connection(
    settings: ResolvedSettings,
    provider: JsonObject,
    key: string | undefined,
    sources: { kind: string; id: string; headers: unknown }[],
  ): Promise<GatewayConnection> {
    const baseUrl = provider.baseUrl as string;
    const origin = originOf(baseUrl)!;
    const [providerHeaders, modelHeaders] = await Promise.all(
      sources.map((source) => this.headers(source, origin, String(provider.id))),
    );
    return {
      baseUrl,
      headers: upstreamHeaders({
        apiKey: key,
        refererUrl: settings.refererUrl ?? DEFAULT_REFERER_URL,
        providerHeaders,
        modelHeaders,
      }),
    };
  }

  private async headers(
    source: { kind: string; id: string; headers: unknown },
    origin: string,
    providerId: string,
  ): Promise<Record<string, string> | undefined> {
    const headers = stringRecord(source.headers);
    if (!headers) return undefined;
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value !== SECRET_PLACEHOLDER) {
        out[name] = value;
        continue;
      }
      const stored = await this.storedKey(headerSlot(source.kind, source.id, name), origin, providerId);
      if (stored && "mismatch" in stored) throw originMismatchError(stored.mismatch);
      // A placeholder whose secret was deleted (in any spelling of the header) sends nothing.
      if (stored) out[name] = stored.key;
    }
    return out;
  }
}
