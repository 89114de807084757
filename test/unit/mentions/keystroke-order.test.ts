import assert from "node:assert/strict";
import { KeystrokeOrder } from "../../../src/mentions/keystroke-order";

describe("KeystrokeOrder: which of a client's searches are still wanted", () => {
  it("without seq, the last to arrive is the newest", () => {
    const order = new KeystrokeOrder();
    assert.equal(order.arrive(1, "c", undefined), true);
    assert.equal(order.arrive(2, "c", undefined), true);
    assert.equal(order.moot(1, "c"), true);
    assert.equal(order.moot(2, "c"), false);
  });

  it("with seq, an older keystroke arriving late is moot at once and leaves the newer one wanted", () => {
    const order = new KeystrokeOrder();
    assert.equal(order.arrive(1, "c", 5), true);
    assert.equal(order.arrive(2, "c", 4), false);
    assert.equal(order.moot(1, "c"), false);
    order.finish(2);
    // Remembered after the newer one finished, too.
    order.finish(1);
    assert.equal(order.arrive(3, "c", 3), false);
    assert.equal(order.arrive(4, "c", 6), true);
  });

  it("keeps clients apart, and a search without a client is never superseded", () => {
    const order = new KeystrokeOrder();
    order.arrive(1, "a", 9);
    assert.equal(order.arrive(2, "b", 1), true);
    assert.equal(order.moot(1, "a"), false);
    assert.equal(order.arrive(3, undefined, undefined), true);
    assert.equal(order.moot(3, undefined), false);
  });

  it("a cancelled search is moot; a cancel that comes after the answer is forgotten", () => {
    const order = new KeystrokeOrder();
    order.arrive(1, "c", 1);
    order.cancel(1);
    assert.equal(order.moot(1, "c"), true);
    order.finish(1);
    order.cancel(1);
    order.cancel(77);
    assert.equal((order as unknown as { cancelled: Set<number> }).cancelled.size, 0);
  });

  it("remembers at most maxClients clients, dropping the least recently typing", () => {
    const order = new KeystrokeOrder(2);
    order.arrive(1, "a", 10);
    order.arrive(2, "b", 10);
    order.arrive(3, "a", 11);
    order.arrive(4, "c", 10);
    // "a" typed more recently than "b", so "b" was dropped: its late old keystroke is no longer known to be old.
    assert.equal(order.arrive(5, "a", 1), false);
    assert.equal(order.arrive(6, "b", 1), true);
  });
});
