// Keeps a command's output within a cap, as head and tail: the start (what ran) and the end (how it
// ended) are what a reader needs; the middle of a 50 MB log is not. Pure and streaming: memory stays
// at the cap whatever a command prints.

export const DEFAULT_OUTPUT_CAP_BYTES = 64 * 1024;

export class HeadTailBuffer {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly capBytes = DEFAULT_OUTPUT_CAP_BYTES) {}

  get truncated(): boolean {
    return this.total > this.capBytes;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    // The head takes the smaller half and the tail the rest, so output of exactly the cap is kept whole.
    const half = Math.floor(this.capBytes / 2);
    const tailCap = this.capBytes - half;
    if (this.headBytes < half) {
      const take = chunk.subarray(0, half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    // Drop whole chunks, then trim the oldest, so the tail never holds more than its half.
    while (this.tailBytes - (this.tail[0]?.length ?? 0) >= tailCap && this.tail.length > 1)
      this.tailBytes -= this.tail.shift()!.length;
    if (this.tailBytes > tailCap) {
      this.tail[0] = this.tail[0]!.subarray(this.tailBytes - tailCap);
      this.tailBytes = tailCap;
    }
  }

  /** The text kept, with a marker where bytes were left out. */
  text(): string {
    // Whole output is decoded as one: a character that spans the head and the tail stays whole.
    if (!this.truncated) return Buffer.concat([...this.head, ...this.tail]).toString("utf8");
    const omitted = this.total - this.headBytes - this.tailBytes;
    return `${Buffer.concat(this.head).toString("utf8")}\n… [${omitted} bytes left out] …\n${Buffer.concat(this.tail).toString("utf8")}`;
  }
}
