// PKCE (RFC 7636): a high-entropy verifier, its S256 challenge, and an unguessable state.
import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes as base64url: 43 characters from the unreserved set, as RFC 7636 asks. */
export function createCodeVerifier(bytes = 32): string {
  const verifier = randomBytes(bytes).toString("base64url");
  if (verifier.length < 43 || verifier.length > 128) throw new Error("a PKCE verifier has 43 to 128 characters");
  return verifier;
}

export function codeChallengeS256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

export function createState(): string {
  return randomBytes(24).toString("base64url");
}

export function authorizeUrl(
  authUrl: string,
  params: { callbackUrl: string; challenge: string; state: string },
): string {
  const url = new URL(authUrl);
  url.searchParams.set("callback_url", params.callbackUrl);
  url.searchParams.set("code_challenge", params.challenge);
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", params.state);
  return url.toString();
}
