// Sign in with the gateway (PKCE): start an attempt, send the browser to the authorization page,
// and on the callback exchange the code for a key. Attempts are single-use and expire.
import { originOf, providerEntry } from "../settings/credential-binding";
import { invalid } from "../platform/app-error";
import { upstreamHeaders } from "./gateway-headers";
import { authorizeUrl, codeChallengeS256, createCodeVerifier, createState } from "./pkce";
import { DEFAULT_REFERER_URL } from "../settings/settings-defaults";
import { isPlainObject } from "../settings/settings-merge";
import { gatewayRequest, upstreamMessage } from "./http";
import type { GatewayAccounts } from "./gateway-accounts";
import type { Logger } from "../platform/logger";
import type { SettingsService } from "../settings/settings-service";

/** How a sign-in ended, for the page the gateway's redirect lands on. */
export type OAuthResult = { ok: true; accountId: string; label: string } | { ok: false; message: string };

export const ATTEMPT_TTL_MS = 10 * 60 * 1000;

type Attempt = { verifier: string; createdAt: number; returnTo: string; callbackUrl: string };

/** Only same-origin paths: a sign-in must never become an open redirect. */
export function safeReturnTo(value: unknown): string {
  return typeof value === "string" && value.startsWith("/") && !value.startsWith("//") && !value.includes("\\")
    ? value
    : "/";
}

export class GatewayOAuth {
  /** Replaceable clock, so expiry can be tested without waiting ten minutes. */
  clock: () => number = Date.now;
  private readonly attempts = new Map<string, Attempt>();

  constructor(
    private readonly deps: { accounts: GatewayAccounts; settings: SettingsService; authUrl: string; log: Logger },
  ) {}

  start(callbackUrl: string, returnTo?: unknown): { authorizeUrl: string; state: string } {
    this.dropExpired();
    const verifier = createCodeVerifier();
    const state = createState();
    this.attempts.set(state, { verifier, createdAt: this.clock(), returnTo: safeReturnTo(returnTo), callbackUrl });
    return {
      authorizeUrl: authorizeUrl(this.deps.authUrl, { callbackUrl, challenge: codeChallengeS256(verifier), state }),
      state,
    };
  }

  /** Where the result page sends the user back to, for this state (the app root when unknown). */
  returnToFor(state: unknown): string {
    return typeof state === "string" ? (this.attempts.get(state)?.returnTo ?? "/") : "/";
  }

  /** Never throws: every outcome is a result the callback page can show. Nothing is stored on failure. */
  async complete(code: unknown, state: unknown): Promise<OAuthResult> {
    if (typeof state !== "string" || !state)
      return { ok: false, message: "The sign-in came back without its state, so Parley cannot trust it." };
    const attempt = this.attempts.get(state);
    // Single use: whatever happens next, this state cannot be used again.
    this.attempts.delete(state);
    if (!attempt) return { ok: false, message: "This sign-in link is not valid or was already used." };
    if (this.clock() - attempt.createdAt > ATTEMPT_TTL_MS)
      return { ok: false, message: "This sign-in took longer than 10 minutes and has expired." };
    if (typeof code !== "string" || !code)
      return { ok: false, message: "The gateway did not send an authorization code." };
    try {
      const { key, origin } = await this.exchange(code, attempt.verifier);
      const account = await this.deps.accounts.add(key, origin);
      await this.deps.settings.patchApp({ providers: [{ id: "gateway", authMode: "oauth" }] });
      return { ok: true, accountId: account.id, label: account.label };
    } catch (error) {
      this.deps.log.warn(`gateway sign-in failed: ${(error as Error).message}`);
      return { ok: false, message: (error as Error).message };
    }
  }

  /** The issued key, and the origin that issued it (the key is bound to it). */
  private async exchange(code: string, verifier: string): Promise<{ key: string; origin: string }> {
    const settings = await this.deps.settings.resolvedUnredacted();
    const baseUrl = providerEntry(settings, "gateway")?.baseUrl;
    const origin = originOf(baseUrl);
    if (typeof baseUrl !== "string" || !origin) throw invalid("the gateway provider has no base URL");
    const headers = upstreamHeaders({ refererUrl: settings.refererUrl ?? DEFAULT_REFERER_URL });
    let response;
    try {
      response = await gatewayRequest({ baseUrl, headers }, "/auth/keys", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code, code_verifier: verifier, code_challenge_method: "S256" }),
      });
    } catch (error) {
      throw new Error(
        `The gateway could not be reached to finish the sign-in (${(error as NodeJS.ErrnoException).code ?? "network error"}).`,
      );
    }
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new Error(
        `The gateway refused the sign-in (${response.statusCode}: ${upstreamMessage(response.statusCode, text)}).`,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error("The gateway answered the sign-in with something that is not JSON.");
    }
    const key = isPlainObject(body) ? body.key : undefined;
    if (typeof key !== "string" || key.length < 16) throw new Error("The gateway's answer to the sign-in had no key.");
    return { key, origin };
  }

  private dropExpired(): void {
    const now = this.clock();
    for (const [state, attempt] of this.attempts)
      if (now - attempt.createdAt > ATTEMPT_TTL_MS) this.attempts.delete(state);
  }
}
