// Time the hypervisor took from this virtual machine's CPUs ("steal"), for benches that measure
// latency on a shared VM. While the host runs something else on a virtual CPU, nothing in the guest
// runs there, not even the timer interrupt that would wake a sleeping thread, so the guest sees a
// thread stopped for that long whatever its priority. Linux counts it per CPU in /proc/stat.

import fs from "node:fs";

/**
 * /proc/stat counts in USER_HZ, which the kernel's ABI fixes at 100 on every architecture Node
 * runs Linux on (whatever the kernel's own tick rate), so a count is 10 ms.
 */
export const STEAL_TICK_MS = 10;

/** The steal column (the eighth number) of each `cpuN` line of a /proc/stat text, in ms, by CPU. */
export function parseStealMs(procStat: string): number[] {
  const perCpu: number[] = [];
  for (const line of procStat.split("\n")) {
    const match = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const steal = Number(match[2]!.trim().split(/\s+/)[7]);
    perCpu[Number(match[1])] = Number.isFinite(steal) ? steal * STEAL_TICK_MS : 0;
  }
  return perCpu;
}

/** The steal so far, in ms, by CPU; empty where it cannot be read (not Linux). Reading it takes about 10 µs. */
export function stealMsNow(): number[] {
  try {
    return parseStealMs(fs.readFileSync("/proc/stat", "utf8"));
  } catch {
    return [];
  }
}

/**
 * The most one CPU lost to the host between two readings, as counted (ms). A CPU missing from either
 * reading counts nothing, never its whole count since boot.
 */
export function stolenBetween(before: number[], after: number[]): number {
  let most = 0;
  for (let cpu = 0; cpu < after.length; cpu++) {
    if (before[cpu] === undefined || after[cpu] === undefined) continue;
    most = Math.max(most, after[cpu]! - before[cpu]!);
  }
  return most;
}

/**
 * What the host surely took from the main thread in a gap of `gapMs` between two readings: the
 * counts are rounded down to whole 10 ms, so a rise of one count may be almost nothing and only
 * what is above one count is sure; the CPU that lost the most stands for the main thread's (the two
 * losing time at once is one loss, not two), and no more than the gap itself.
 */
export function surelyStolen(before: number[], after: number[], gapMs: number): number {
  return Math.min(gapMs, Math.max(0, stolenBetween(before, after) - STEAL_TICK_MS));
}

/** A gap between the process's beats, and what the host surely took in it (see surelyStolen). */
export type BeatGap = { ms: number; stolenMs: number };

/**
 * Whether the host, not the process, explains a missed stall target. `longGaps` are all the gaps
 * between beats of at least the target, so the one holding the longest stall is among them. The
 * stall lies within its gap, so for every such gap, the stall (or the gap, if shorter) less what the
 * host surely took in it must be under the target: one long gap without steal, and the miss stands.
 */
export function hostExplainsMiss(m: { longestStallMs: number; targetMs: number; longGaps: BeatGap[] }): boolean {
  if (m.longestStallMs < m.targetMs || m.longGaps.length === 0) return false;
  return m.longGaps.every((gap) => Math.min(m.longestStallMs, gap.ms) - gap.stolenMs < m.targetMs);
}
