// Failed sign-ins (contract 6.7 and 7.2): 5 from one client within 10 minutes lock that client out for
// 10 minutes, and more than 20 from all clients together lock password and passkey sign-in for everyone
// for 10 minutes. In memory: a restart clears it, and the per-start token keeps working regardless.
import { AppError } from "../platform/app-error";

export const MAX_FAILURES = 5;
/** More than this many failures from all clients together lock sign-in for everyone. */
export const MAX_GLOBAL_FAILURES = 20;
export const WINDOW_MS = 10 * 60_000;
export const LOCK_MS = 10 * 60_000;
/** Bounds the table, so a flood of clients cannot grow it without limit (the global limit still holds). */
const MAX_CLIENTS = 10_000;

type Tally = { times: number[]; lockedUntil: number };

/** One attempt let in: it already counts as a failure; a success takes it back. */
export type LoginAttempt = { succeeded(): void };

export class LoginThrottle {
  private readonly clients = new Map<string, Tally>();
  /** Every client's failures together: changing address (127.0.0.2, .3, …) does not escape it. */
  private readonly everyone: Tally = { times: [], lockedUntil: 0 };

  constructor(private readonly clock: () => number = Date.now) {}

  /** Milliseconds until the client may try again (its own lock or everyone's), or 0. */
  lockedFor(client: string): number {
    const now = this.clock();
    return Math.max(0, (this.clients.get(client)?.lockedUntil ?? 0) - now, this.everyone.lockedUntil - now);
  }

  /** Throws 429 `rate_limited` while the client, or everyone, is locked out. */
  ensureOpen(client: string): void {
    const locked = this.lockedFor(client);
    if (locked > 0)
      throw new AppError(
        "rate_limited",
        `too many failed sign-ins; try again in ${Math.ceil(locked / 60_000)} minute(s)`,
      );
  }

  /**
   * Lets one attempt in and counts it as a failure at once, before the slow check runs: guesses sent
   * together are counted together, so no burst gets more checks than the limits allow. Throws 429
   * when locked, and for the attempt that takes everyone past the global limit (it is counted, not checked).
   */
  begin(client: string): LoginAttempt {
    this.ensureOpen(client);
    const now = this.clock();
    const own = this.tallyOf(client, now);
    prune(this.everyone, now);
    own.times.push(now);
    this.everyone.times.push(now);
    if (own.times.length >= MAX_FAILURES) own.lockedUntil = now + LOCK_MS;
    if (this.everyone.times.length > MAX_GLOBAL_FAILURES) {
      this.everyone.lockedUntil = now + LOCK_MS;
      this.ensureOpen(client);
    }
    let settled = false;
    return {
      succeeded: () => {
        if (settled) return;
        settled = true;
        // The right secret clears this client's record; everyone's tally loses only this attempt.
        this.clients.delete(client);
        const at = this.everyone.times.indexOf(now);
        if (at >= 0) this.everyone.times.splice(at, 1);
      },
    };
  }

  private tallyOf(client: string, now: number): Tally {
    let tally = this.clients.get(client);
    if (!tally) {
      for (const [key, old] of this.clients) if (prune(old, now)) this.clients.delete(key);
      if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
      tally = { times: [], lockedUntil: 0 };
      this.clients.set(client, tally);
    }
    prune(tally, now);
    return tally;
  }
}

/** Drops failures older than the window; true when nothing is left to remember. */
function prune(tally: Tally, now: number): boolean {
  tally.times = tally.times.filter((t) => now - t < WINDOW_MS);
  return tally.times.length === 0 && tally.lockedUntil <= now;
}
