import assert from "node:assert/strict";
import fc from "fast-check";
import {
  FIRST_ESTIMATE_PX,
  HeightCache,
  offsetOf,
  visibleRange,
  withIndex,
} from "../../../webview/src/lib/virtual-window";

const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);

describe("virtual window", () => {
  it("renders only what is in view and its margin, the spacers standing for the rest", () => {
    const heights = new HeightCache();
    const all = keys(10_000);
    for (const key of all) heights.set(key, 100);
    const range = visibleRange(all, heights, 500_000, 800, 400);
    assert.equal(range.start, 4_996);
    assert.equal(range.end, 5_012);
    assert.equal(range.before, 499_600);
    assert.equal(range.before + (range.end - range.start) * 100 + range.after, range.total);
    assert.equal(range.total, 1_000_000);
  });

  it("counts an unmeasured item as the average measured so far", () => {
    const heights = new HeightCache();
    assert.equal(heights.height("x"), FIRST_ESTIMATE_PX);
    heights.set("a", 50);
    heights.set("b", 150);
    assert.equal(heights.height("x"), 100);
    assert.equal(heights.set("a", 50), false, "the same height is no change");
    assert.equal(heights.set("a", 250), true);
    assert.equal(heights.height("x"), 200);
  });

  it("shows the last items when scrolled past the end, and nothing for an empty list", () => {
    const heights = new HeightCache();
    const range = visibleRange(keys(5), heights, 99_999, 500, 0);
    assert.equal(range.start, 4);
    assert.equal(range.end, 5);
    assert.deepEqual(visibleRange([], heights, 0, 500, 100), { start: 0, end: 0, before: 0, after: 0, total: 0 });
  });

  it("always covers the viewport, and the parts add up to the total (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 2_000 }), { minLength: 1, maxLength: 300 }),
        fc.nat(400_000),
        fc.integer({ min: 1, max: 2_000 }),
        fc.nat(1_000),
        fc.nat(24),
        (sizes, scroll, viewport, margin, gap) => {
          const all = keys(sizes.length);
          const heights = new HeightCache();
          sizes.forEach((size, i) => heights.set(all[i]!, size));
          const range = visibleRange(all, heights, scroll, viewport, margin, gap);
          assert.ok(range.start < range.end);
          let rendered = 0;
          for (let i = range.start; i < range.end; i++) rendered += sizes[i]! + gap;
          assert.equal(range.before + rendered + range.after, range.total);
          assert.equal(range.before, offsetOf(all, heights, range.start, gap));
          const top = Math.min(scroll, Math.max(0, range.total - viewport));
          if (scroll < range.total) {
            assert.ok(range.before <= Math.max(0, scroll - margin) || range.start === 0 || scroll >= range.total);
            assert.ok(range.before + rendered >= Math.min(range.total, top + viewport));
          }
        },
      ),
    );
  });

  it("keeps the focused item in the window when it is near, and lets a far one go", () => {
    const heights = new HeightCache();
    const all = keys(1_000);
    for (const key of all) heights.set(key, 100);
    const range = visibleRange(all, heights, 50_000, 800, 0);
    const near = withIndex(range, range.start - 3, all, heights);
    assert.equal(near.start, range.start - 3);
    assert.equal(near.before, (range.start - 3) * 100);
    assert.equal(near.before + (near.end - near.start) * 100 + near.after, near.total);
    assert.deepEqual(withIndex(range, 5, all, heights), range, "too far: the window does not stretch to it");
    assert.deepEqual(withIndex(range, range.start + 1, all, heights), range);
  });
});
