// Hydrates a model with its provider connection: base URL, key, and headers for one request.
import { AppError, invalid } from "../core/app-error";
import { upstreamHeaders } from "../core/gateway-headers";
import { DEFAULT_REFERER_URL } from "../core/settings-defaults";
import { apiKeySecretName } from "../core/settings-secrets";
import { isPlainObject, type JsonObject } from "../core/settings-merge";
import type { GatewayConnection } from "../providers/gateway/http";
import type { SecretStore } from "../store/secret-store";

/** Supplies the key of the active gateway sign-in (OAuth PKCE), when there is one. */
export interface OAuthKeySource {
  activeKey(providerId: string): Promise<string | undefined>;
}

export type ResolvedConnection = {
  providerId: string;
  modelId: string;
  connection: GatewayConnection;
};

function entries(settings: JsonObject, kind: "providers" | "models"): JsonObject[] {
  const list = settings[kind];
  return Array.isArray(list) ? list.filter(isPlainObject) : [];
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isPlainObject(value)) return undefined;
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}

export class ConnectionResolver {
  constructor(
    private readonly secrets: SecretStore,
    private readonly oauth?: OAuthKeySource,
  ) {}

  /** The connection for a chat turn with `modelId`; refuses with a clear 400 when no key is set. */
  async forModel(settings: JsonObject, modelId: string): Promise<ResolvedConnection> {
    const model = entries(settings, "models").find((m) => m.id === modelId);
    const providerId = typeof model?.provider === "string" ? model.provider : "gateway";
    const provider = this.provider(settings, providerId);
    // Both lookups at once: the model's own key wins over the provider's.
    const [modelKey, providerKey] = await Promise.all([this.secrets.get(apiKeySecretName("models", modelId)), this.providerKey(provider, providerId)]);
    const key = modelKey ?? (typeof model?.apiKey === "string" && model.apiKey ? model.apiKey : undefined) ?? providerKey;
    if (!key) {
      throw invalid(`no key for provider "${providerId}": paste an API key or sign in under Settings, Providers`);
    }
    return {
      providerId,
      modelId,
      connection: this.connection(settings, provider, key, stringRecord(model?.headers)),
    };
  }

  /** The connection for provider-level calls (catalog, credits); the key is optional for the catalog. */
  async forProvider(settings: JsonObject, providerId = "gateway", requireKey = true): Promise<GatewayConnection> {
    const provider = this.provider(settings, providerId);
    const key = await this.providerKey(provider, providerId);
    if (!key && requireKey) throw invalid(`no key for provider "${providerId}": paste an API key or sign in under Settings, Providers`);
    const connection = this.connection(settings, provider, key ?? "", undefined);
    if (!key) delete connection.headers.authorization;
    return connection;
  }

  private provider(settings: JsonObject, providerId: string): JsonObject {
    const provider = entries(settings, "providers").find((p) => p.id === providerId);
    if (!provider) throw new AppError("invalid_request", `no provider "${providerId}" is configured`);
    if (typeof provider.baseUrl !== "string") throw invalid(`provider "${providerId}" has no baseUrl`);
    return provider;
  }

  private async providerKey(provider: JsonObject, providerId: string): Promise<string | undefined> {
    if (provider.authMode === "oauth") return this.oauth?.activeKey(providerId);
    const stored = await this.secrets.get(apiKeySecretName("providers", providerId));
    return stored ?? (typeof provider.apiKey === "string" && provider.apiKey ? provider.apiKey : undefined);
  }

  private connection(settings: JsonObject, provider: JsonObject, key: string, modelHeaders?: Record<string, string>): GatewayConnection {
    return {
      baseUrl: provider.baseUrl as string,
      headers: upstreamHeaders({
        apiKey: key,
        refererUrl: typeof settings.refererUrl === "string" ? settings.refererUrl : DEFAULT_REFERER_URL,
        providerHeaders: stringRecord(provider.headers),
        modelHeaders,
      }),
    };
  }
}
