// Which of a composer's keystroke searches are still worth running. Each keystroke is a request of
// its own, on a connection of its own, so they can reach the mention worker out of order: the
// client's `seq` (rising per client) says which one is newer, and without one, arrival order does.
// Only a client's newest search is worth ranking; the others are answered as superseded.

type Latest = { id: number; seq?: number };

export class KeystrokeOrder {
  /** The newest search per client key, least recently used first (trimmed to `maxClients`). */
  private readonly newest = new Map<string, Latest>();
  private readonly running = new Set<number>();
  private readonly cancelled = new Set<number>();

  /** Searches answered as superseded or cancelled without being ranked (for stats). */
  skipped = 0;

  constructor(private readonly maxClients = 256) {}

  /** Searches arrived and not yet answered (for stats). */
  get inFlight(): number {
    return this.running.size;
  }

  /**
   * Search `id` arrived. False when a newer one of the same client came first: its answer is moot
   * already. A newer one's `seq` is remembered after it finishes, so a late older one is still moot.
   */
  arrive(id: number, key: string | undefined, seq: number | undefined): boolean {
    this.running.add(id);
    if (key === undefined) return true;
    const latest = this.newest.get(key);
    if (latest?.seq !== undefined && seq !== undefined && seq < latest.seq) {
      this.skipped++;
      return false;
    }
    this.newest.delete(key);
    this.newest.set(key, { id, seq });
    for (const old of this.newest.keys()) {
      if (this.newest.size <= this.maxClients) break;
      this.newest.delete(old);
    }
    return true;
  }

  /** The client gave up on search `id`, or a newer search of the same client arrived since. */
  moot(id: number, key: string | undefined): boolean {
    const moot = this.cancelled.has(id) || (key !== undefined && this.newest.get(key)?.id !== id);
    if (moot) this.skipped++;
    return moot;
  }

  /** The client went away. A cancel for a search already answered is dropped, so none piles up. */
  cancel(id: number): void {
    if (this.running.has(id)) this.cancelled.add(id);
  }

  finish(id: number): void {
    this.running.delete(id);
    this.cancelled.delete(id);
  }
}
