import assert from "node:assert/strict";
import { hostExplainsMiss, parseStealMs, stealMsNow, stolenBetween } from "../../../bench/host-steal";

// A /proc/stat of a two-CPU guest (kernel 6.18): user nice system idle iowait irq softirq steal guest guest_nice.
const PROC_STAT = `cpu  695 0 447 16778 39 0 7 4 0 0
cpu0 263 0 188 8530 2 0 2 1 0 0
cpu1 431 0 259 8248 37 0 4 3 0 0
intr 123456 0 9 0
ctxt 987654
btime 1763880000
procs_running 2
`;

describe("the host's steal time (bench)", () => {
  it("reads the eighth column of each cpuN line, in ms, and not the all-CPU line", () => {
    assert.deepEqual(parseStealMs(PROC_STAT), [10, 30]);
  });

  it("reads nothing from a text without CPU lines", () => {
    assert.deepEqual(parseStealMs("intr 1 2 3\nctxt 4\n"), []);
  });

  it("counts a short line (an old kernel without the column) as no steal, not NaN", () => {
    assert.deepEqual(parseStealMs("cpu0 1 2 3 4\n"), [0]);
  });

  it("adds what each CPU gained, never a CPU's count going back", () => {
    assert.equal(stolenBetween([10, 30], [40, 30]), 30);
    assert.equal(stolenBetween([10, 30], [20, 50]), 30);
    assert.equal(stolenBetween([50, 30], [40, 30]), 0);
    assert.equal(stolenBetween([], []), 0);
  });

  it("reads this machine's counters, one per CPU, where /proc/stat exists", function () {
    if (process.platform !== "linux") this.skip();
    const now = stealMsNow();
    assert.ok(now.length >= 1, "a CPU line");
    for (const ms of now) assert.ok(Number.isInteger(ms) && ms >= 0 && ms % 10 === 0, `whole ticks: ${ms}`);
  });

  describe("whether the host explains a missed stall target", () => {
    const at = (longestStallMs: number, longestGapMs: number, stolenInGapMs: number) =>
      hostExplainsMiss({ longestStallMs, targetMs: 20, beatMs: 5, longestGapMs, stolenInGapMs });

    it("explains nothing when the target was met, steal or not", () => {
      assert.equal(at(19.9, 24, 0), false);
      assert.equal(at(12, 17, 30), false);
    });

    it("explains a miss whose gap, less what the host took, is within a beat plus the target", () => {
      assert.equal(at(25.2, 30.4, 10), true);
      assert.equal(at(44, 49, 30), true);
    });

    it("never explains a miss the process would have had anyway", () => {
      assert.equal(at(25.2, 30.4, 0), false);
      assert.equal(at(48, 53, 20), false); // 33 ms of its own
      assert.equal(at(24, 29, 4), false); // exactly a beat plus the target left
    });
  });
});
