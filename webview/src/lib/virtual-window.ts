// Which items of a long list to keep in the DOM (issue 36): those in view and a margin around them,
// with spacers standing in for the rest. Heights are measured once and cached by key; an item not
// measured yet counts as the average of those that were. Pure: the component measures and scrolls.
//
// Written here rather than taken from a library: the transcript stays one `<ol>` whose items are in
// normal flow between two spacers, so its list semantics, its label, its CSS and Chromium's scroll
// anchoring (which keeps the view still while heights above it are corrected) all keep working;
// virtua's and TanStack's Svelte lists position items absolutely in a container of their own.

export type VisibleRange = {
  /** Items [start, end) are rendered. */
  start: number;
  end: number;
  /** Pixels the spacers stand for, above and below them. */
  before: number;
  after: number;
  total: number;
};

/** An item's height before it was ever measured, when nothing has been measured yet. */
export const FIRST_ESTIMATE_PX = 120;

export class HeightCache {
  private readonly heights = new Map<string, number>();
  private measuredSum = 0;

  /** The measured height, else the average measured so far. */
  height(key: string): number {
    return this.heights.get(key) ?? this.estimate();
  }

  has(key: string): boolean {
    return this.heights.has(key);
  }

  estimate(): number {
    return this.heights.size === 0 ? FIRST_ESTIMATE_PX : this.measuredSum / this.heights.size;
  }

  /** Whether the height changed (a new item, or one that grew or shrank). */
  set(key: string, height: number): boolean {
    const known = this.heights.get(key);
    if (known === height) return false;
    this.measuredSum += height - (known ?? 0);
    this.heights.set(key, height);
    return true;
  }
}

/**
 * The items to render for a scroll position: those overlapping [scrollTop − margin, scrollTop +
 * viewport + margin], at least one. `gap` is the space between items.
 */
export function visibleRange(
  keys: readonly string[],
  heights: HeightCache,
  scrollTop: number,
  viewport: number,
  margin: number,
  gap = 0,
): VisibleRange {
  const count = keys.length;
  if (count === 0) return { start: 0, end: 0, before: 0, after: 0, total: 0 };
  const top = Math.max(0, scrollTop - margin);
  const bottom = scrollTop + viewport + margin;
  let offset = 0;
  let start = -1;
  let end = count;
  let before = 0;
  for (let i = 0; i < count; i++) {
    const height = heights.height(keys[i]!) + gap;
    if (start < 0 && offset + height > top) {
      start = i;
      before = offset;
    }
    offset += height;
    if (start >= 0 && offset >= bottom) {
      end = i + 1;
      break;
    }
  }
  if (start < 0) {
    // Scrolled past the end (the list shrank): show the last items.
    start = count - 1;
    before = offset - (heights.height(keys[start]!) + gap);
  }
  let total = offset;
  for (let i = end; i < count; i++) total += heights.height(keys[i]!) + gap;
  let rendered = 0;
  for (let i = start; i < end; i++) rendered += heights.height(keys[i]!) + gap;
  return { start, end, before, after: Math.max(0, total - before - rendered), total };
}

/** Where an item starts, for jumping to it. */
export function offsetOf(keys: readonly string[], heights: HeightCache, index: number, gap = 0): number {
  let offset = 0;
  for (let i = 0; i < index && i < keys.length; i++) offset += heights.height(keys[i]!) + gap;
  return offset;
}

/**
 * The range widened to hold `index` too (the item that has the focus, so the window never takes it
 * out of the DOM and drops the focus), when it is at most `reach` items away; else as it was.
 */
export function withIndex(
  range: VisibleRange,
  index: number,
  keys: readonly string[],
  heights: HeightCache,
  gap = 0,
  reach = 50,
): VisibleRange {
  if (index < 0 || index >= keys.length || (index >= range.start && index < range.end)) return range;
  if (index < range.start - reach || index >= range.end + reach) return range;
  const start = Math.min(range.start, index);
  const end = Math.max(range.end, index + 1);
  const before = offsetOf(keys, heights, start, gap);
  let rendered = 0;
  for (let i = start; i < end; i++) rendered += heights.height(keys[i]!) + gap;
  return { start, end, before, after: Math.max(0, range.total - before - rendered), total: range.total };
}
