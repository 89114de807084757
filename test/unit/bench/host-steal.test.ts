import assert from "node:assert/strict";
import os from "node:os";
import { hostExplainsMiss, parseStealMs, stealMsNow, stolenBetween, surelyStolen } from "../../../bench/host-steal";

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

  describe("what the host took between two readings", () => {
    it("is the most one CPU lost: both CPUs stopped at once are one loss, not two", () => {
      assert.equal(stolenBetween([10, 30], [40, 60]), 30);
      assert.equal(stolenBetween([10, 30], [20, 50]), 20);
    });

    it("counts nothing for a CPU missing from a reading (a failed read), never its count since boot", () => {
      assert.equal(stolenBetween([], [5_000, 7_000]), 0);
      assert.equal(stolenBetween([10], [20, 9_000]), 10);
      assert.equal(stolenBetween([10, 30], []), 0);
    });

    it("is sure only above one count (counts are rounded down to 10 ms), and never more than the gap", () => {
      assert.equal(surelyStolen([10, 30], [20, 30], 25), 0, "one count may be almost nothing");
      assert.equal(surelyStolen([10, 30], [40, 30], 25), 20);
      assert.equal(surelyStolen([10, 30], [70, 30], 25), 25);
    });
  });

  describe("whether the host explains a missed stall target", () => {
    const at = (longestStallMs: number, ...longGaps: [number, number][]) =>
      hostExplainsMiss({
        longestStallMs,
        targetMs: 20,
        longGaps: longGaps.map(([ms, stolenMs]) => ({ ms, stolenMs })),
      });

    it("explains nothing when the target was met, steal or not", () => {
      assert.equal(at(19.9, [24, 20]), false);
    });

    it("explains a miss when, in every gap as long as the target, the host surely took all but less than the target", () => {
      assert.equal(at(23.3, [25.6, 20]), true); // the run read beat by beat on this machine
      assert.equal(at(44, [49, 30]), true);
      assert.equal(at(30, [31, 20], [22, 10]), true);
    });

    it("never explains a miss the process would have had anyway", () => {
      assert.equal(at(25.2, [30.4, 0]), false, "no sure steal");
      assert.equal(at(48, [53, 20]), false, "28 ms of its own");
      assert.equal(at(30, [31, 20], [30, 0]), false, "another long gap without steal may hold the stall");
      assert.equal(at(25, [26, 5]), false, "exactly the target left");
      assert.equal(at(25), false, "no gap as long as the target seen: nothing to explain it with");
    });
  });

  it("reads this machine's counters, one per CPU, where /proc/stat exists", function () {
    if (process.platform !== "linux") this.skip();
    const now = stealMsNow();
    assert.equal(now.length, os.cpus().length);
    for (const ms of now) assert.ok(Number.isFinite(ms) && ms >= 0, `a count: ${ms}`);
  });
});
