// Optional protection of the browser UI (contract 6.7): a password, passkeys (WebAuthn) and the
// sessions they open. The per-start token keeps working for VS Code and the CLI; with neither a
// password nor a passkey set, nothing changes for users. Nothing here is ever logged.
import { randomBytes } from "node:crypto";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { AppError, conflict, invalid, notFound } from "../platform/app-error";
import type { AppKvRepo } from "../platform/app-kv-repo";
import type { PasskeysRepo } from "./passkeys-repo";
import { hashSessionId, type SessionsRepo } from "./sessions-repo";
import { lazyModule } from "../platform/lazy-module";
import { LoginThrottle } from "./login-throttle";
import { hashPassword, MIN_PASSWORD_LENGTH, passwordHashSchema, verifyPassword } from "./password-hash";

/**
 * The WebAuthn library, loaded after start-up (see lazy-module.ts): loading it (and its certificate
 * parsers) takes about 40 ms, a seventh of the server's start-up, for a feature most users never open.
 */
export const loadWebAuthn = lazyModule(() => import("@simplewebauthn/server"));

const PASSWORD_KEY = "access.password";
export const DEFAULT_SESSION_IDLE_DAYS = 7;
const CHALLENGE_TTL_MS = 5 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export type SessionView = { id: string; createdAt: string; lastSeenAt: string; userAgent: string; current: boolean };
export type PasskeyView = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

/** Where a WebAuthn ceremony happens: the relying party id (a host name) and the page's origin. */
export type RelyingParty = { rpId: string; origin: string };

type Challenge = { challenge: string; rpId: string; expiresAt: number; owner: string };

export class AccessService {
  private readonly challenges = new Map<string, Challenge>();

  constructor(
    private readonly kv: AppKvRepo,
    private readonly sessions: SessionsRepo,
    private readonly passkeys: PasskeysRepo,
    private readonly idleDays: () => number,
    /** Replaceable so tests can drive its clock through the 10-minute windows. */
    readonly throttle: LoginThrottle = new LoginThrottle(),
  ) {}

  get idleMs(): number {
    return Math.max(1, this.idleDays()) * DAY_MS;
  }

  passwordSet(): boolean {
    return this.kv.get(PASSWORD_KEY) !== undefined;
  }

  /** Whether the browser UI asks to sign in: a password or a passkey exists. */
  protectedUi(): boolean {
    return this.passwordSet() || this.passkeys.count() > 0;
  }

  status(authenticated: boolean) {
    return { passwordSet: this.passwordSet(), passkeys: this.passkeys.count(), authenticated };
  }

  // ---- password

  async setPassword(current: string | undefined, next: string): Promise<void> {
    if (next.length < MIN_PASSWORD_LENGTH)
      throw invalid(`the password needs at least ${MIN_PASSWORD_LENGTH} characters`);
    if (this.passwordSet() && !(await this.checkPassword(current ?? "")))
      throw new AppError("forbidden", "the current password is not right");
    this.kv.set(PASSWORD_KEY, JSON.stringify(await hashPassword(next)));
    // A new password ends every session it might have let in.
    this.sessions.revokeAll();
  }

  async clearPassword(current: string): Promise<void> {
    if (!this.passwordSet()) throw notFound("no password is set");
    if (!(await this.checkPassword(current))) throw new AppError("forbidden", "the current password is not right");
    this.kv.delete(PASSWORD_KEY);
    this.sessions.revokeAll();
  }

  /** Constant-time check against the stored hash; false when none is set. */
  async checkPassword(password: string): Promise<boolean> {
    const row = this.kv.get(PASSWORD_KEY);
    if (!row) return false;
    const stored = passwordHashSchema.safeParse(JSON.parse(row.value));
    return stored.success && (await verifyPassword(password, stored.data));
  }

  /** 429 while `client`, or everyone, is locked out of signing in (password and passkeys alike). */
  ensureLoginOpen(client: string): void {
    this.throttle.ensureOpen(client);
  }

  /** A sign-in with the password, throttled (see login-throttle.ts). */
  async login(client: string, password: string): Promise<void> {
    this.throttle.ensureOpen(client);
    if (!this.passwordSet()) throw invalid("no password is set; use the link Parley printed, or a passkey");
    // Counted before the slow hash runs, so guesses sent together cannot all be checked.
    const attempt = this.throttle.begin(client);
    if (!(await this.checkPassword(password))) throw new AppError("unauthorized", "that password is not right");
    attempt.succeeded();
  }

  // ---- sessions

  /** Opens a session; the caller sets the cookie. */
  openSession(userAgent: string): string {
    const id = randomBytes(32).toString("base64url");
    this.sessions.deleteExpired();
    this.sessions.create(id, userAgent.slice(0, 200), this.idleMs);
    return id;
  }

  listSessions(currentCookie: string | undefined): SessionView[] {
    const current = currentCookie ? hashSessionId(currentCookie) : undefined;
    return this.sessions.list().map((row) => ({
      id: row.idHash,
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt,
      userAgent: row.userAgent,
      current: row.idHash === current,
    }));
  }

  revokeSession(id: string): void {
    if (!this.sessions.revoke(id)) throw notFound("no such session");
  }

  revokeOthers(currentCookie: string | undefined): number {
    return this.sessions.revokeAllBut(currentCookie ? hashSessionId(currentCookie) : undefined);
  }

  endSession(cookie: string): void {
    this.sessions.revoke(hashSessionId(cookie));
  }

  // ---- passkeys

  listPasskeys(): PasskeyView[] {
    return this.passkeys.list().map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt }));
  }

  renamePasskey(id: string, name: string): void {
    if (!this.passkeys.rename(id, name)) throw notFound("no such passkey");
  }

  deletePasskey(id: string): void {
    if (!this.passkeys.delete(id)) throw notFound("no such passkey");
  }

  /** Registration options for the signed-in `owner` (its session), user verification required. */
  async registrationOptions(owner: string, rp: RelyingParty) {
    const { generateRegistrationOptions } = await loadWebAuthn();
    const options = await generateRegistrationOptions({
      rpName: "Parley",
      rpID: rp.rpId,
      userName: "parley",
      userDisplayName: "Parley user",
      attestationType: "none",
      excludeCredentials: this.passkeys.list().map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
    });
    this.remember(`register:${owner}`, options.challenge, rp.rpId, owner);
    return options;
  }

  async verifyRegistration(
    owner: string,
    rp: RelyingParty,
    name: string,
    response: RegistrationResponseJSON,
  ): Promise<PasskeyView> {
    const challenge = this.take(`register:${owner}`, owner, rp);
    const { verifyRegistrationResponse } = await loadWebAuthn();
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpId,
        requireUserVerification: true,
      });
    } catch (error) {
      throw invalid(`the passkey could not be verified: ${(error as Error).message}`);
    }
    if (!verified.verified) throw invalid("the passkey could not be verified");
    const { credential } = verified.registrationInfo;
    if (this.passkeys.byId(credential.id)) throw conflict("this passkey is registered already");
    this.passkeys.add({
      id: credential.id,
      name,
      publicKey: Buffer.from(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      rpId: rp.rpId,
    });
    return this.listPasskeys().find((p) => p.id === credential.id)!;
  }

  /** Sign-in options for an anonymous browser; `attempt` (a cookie of its own) binds the challenge to it. */
  async authenticationOptions(client: string, attempt: string, rp: RelyingParty) {
    this.throttle.ensureOpen(client);
    const keys = this.passkeys.list().filter((p) => p.rpId === rp.rpId);
    if (keys.length === 0) throw invalid(`no passkey is registered for ${rp.rpId}`);
    const { generateAuthenticationOptions } = await loadWebAuthn();
    const options = await generateAuthenticationOptions({
      rpID: rp.rpId,
      userVerification: "required",
      allowCredentials: keys.map((p) => ({ id: p.id, transports: p.transports as never })),
    });
    this.remember(`login:${attempt}`, options.challenge, rp.rpId, attempt);
    return options;
  }

  async verifyAuthentication(
    client: string,
    attempt: string,
    rp: RelyingParty,
    response: AuthenticationResponseJSON,
  ): Promise<void> {
    this.throttle.ensureOpen(client);
    const challenge = this.take(`login:${attempt}`, attempt, rp);
    // Counted before the signature is checked, as a password guess is before its hash.
    const tried = this.throttle.begin(client);
    const key = this.passkeys.byId(response.id);
    if (!key || key.rpId !== rp.rpId) throw new AppError("unauthorized", "this passkey is not registered here");
    const { verifyAuthenticationResponse } = await loadWebAuthn();
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpId,
        credential: {
          id: key.id,
          publicKey: new Uint8Array(key.publicKey),
          counter: key.counter,
          transports: key.transports as never,
        },
        requireUserVerification: true,
      });
    } catch {
      verified = { verified: false as const };
    }
    if (!verified.verified) throw new AppError("unauthorized", "the passkey sign-in could not be verified");
    tried.succeeded();
    this.passkeys.used(key.id, verified.authenticationInfo.newCounter);
  }

  /** Challenges are single-use, expire, and belong to the session or attempt that asked for them. */
  private remember(key: string, challenge: string, rpId: string, owner: string): void {
    const now = Date.now();
    for (const [k, c] of this.challenges) if (c.expiresAt < now) this.challenges.delete(k);
    this.challenges.set(key, { challenge, rpId, owner, expiresAt: now + CHALLENGE_TTL_MS });
  }

  private take(key: string, owner: string, rp: RelyingParty): string {
    const stored = this.challenges.get(key);
    this.challenges.delete(key);
    if (!stored || stored.owner !== owner || stored.rpId !== rp.rpId || stored.expiresAt < Date.now()) {
      throw invalid("this passkey request expired or belongs to another session; start again");
    }
    return stored.challenge;
  }
}
