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

/** What the host took between two readings, over all CPUs, in ms. */
export function stolenBetween(before: number[], after: number[]): number {
  let total = 0;
  for (let cpu = 0; cpu < after.length; cpu++) total += Math.max(0, (after[cpu] ?? 0) - (before[cpu] ?? 0));
  return total;
}

/**
 * Whether the host, not the process, explains a missed stall target: the longest gap between the
 * process's beats (which holds its longest stall), less what the host took meanwhile, is within one
 * beat plus the target. A miss the process would have had anyway is never explained away.
 */
export function hostExplainsMiss(m: { longestStallMs: number; targetMs: number; beatMs: number; longestGapMs: number; stolenInGapMs: number }): boolean {
  return m.longestStallMs >= m.targetMs && m.longestGapMs - m.stolenInGapMs < m.beatMs + m.targetMs;
}
