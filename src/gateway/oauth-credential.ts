// The OAuth credential a gateway sign-in yields, and the refresh rules that apply to it.
import { z } from "zod";

export const ACCOUNT_LABEL_LENGTH = 16;

export const oauthCredentialSchema = z.object({
  /** The issued key; used as a plain Bearer credential. */
  accessToken: z.string().min(1),
  /** The gateway has no refresh-token grant. */
  refreshToken: z.null(),
  /** Keys do not expire unless revoked. */
  expiresAt: z.null(),
  label: z.string(),
  createdAt: z.string(),
  /** The origin that issued the key; it is never sent anywhere else. Absent only before the upgrade binds it. */
  origin: z.string().optional(),
});
export type OAuthCredential = z.infer<typeof oauthCredentialSchema>;

/** The account picker's label: the first 16 characters of the key, enough to tell sign-ins apart. */
export function accountLabel(key: string): string {
  return key.slice(0, ACCOUNT_LABEL_LENGTH);
}

type Expiring = { expiresAt: number | string | null };

/** Proactive refresh runs only for credentials that expire; gateway keys never do. */
export function needsProactiveRefresh(credential: Expiring, now: number, marginMs = 60_000): boolean {
  if (credential.expiresAt === null) return false;
  return new Date(credential.expiresAt).getTime() - marginMs <= now;
}

/** A provider's refresher. The gateway's returns the credential as it is: there is nothing to refresh. */
export type Refresher<C> = (credential: C) => Promise<C>;
export const credentialRefreshers: Record<string, Refresher<OAuthCredential>> = {
  gateway: async (credential) => credential,
};
