// Failed sign-ins per client: 5 failures within 10 minutes lock that client out for 10 minutes
// (contract 6.7). In memory: a restart clears it, and the per-start token still works regardless.

export const MAX_FAILURES = 5;
export const WINDOW_MS = 10 * 60_000;
export const LOCK_MS = 10 * 60_000;
/** Bounds the table, so a flood of clients cannot grow it without limit. */
const MAX_CLIENTS = 10_000;

export class LoginThrottle {
  private readonly failures = new Map<string, { times: number[]; lockedUntil: number }>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Milliseconds until the client may try again, or 0. */
  lockedFor(client: string): number {
    const entry = this.failures.get(client);
    return entry ? Math.max(0, entry.lockedUntil - this.clock()) : 0;
  }

  fail(client: string): void {
    const now = this.clock();
    if (!this.failures.has(client) && this.failures.size >= MAX_CLIENTS) this.failures.delete(this.failures.keys().next().value!);
    const entry = this.failures.get(client) ?? { times: [], lockedUntil: 0 };
    entry.times = [...entry.times.filter((t) => now - t < WINDOW_MS), now];
    if (entry.times.length >= MAX_FAILURES) entry.lockedUntil = now + LOCK_MS;
    this.failures.set(client, entry);
  }

  succeed(client: string): void {
    this.failures.delete(client);
  }
}
