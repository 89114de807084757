// The login throttle's rules on a clock the test moves: attempts count before they are checked, per
// client and for everyone together, and every lock and window ends after 10 minutes.
import assert from "node:assert/strict";
import { AppError } from "../../../src/platform/app-error";
import {
  LOCK_MS,
  LoginThrottle,
  MAX_FAILURES,
  MAX_GLOBAL_FAILURES,
  WINDOW_MS,
} from "../../../src/access/login-throttle";

function rateLimited(run: () => unknown): boolean {
  try {
    run();
    return false;
  } catch (error) {
    if (error instanceof AppError && error.code === "rate_limited") return true;
    throw error;
  }
}

describe("login throttle", () => {
  let now: number;
  let throttle: LoginThrottle;
  beforeEach(() => {
    now = 1_000_000;
    throttle = new LoginThrottle(() => now);
  });

  it("lets in only 5 attempts from one client that are all still being checked, then 429 for 10 minutes", () => {
    const admitted = Array.from({ length: 10 }, () => !rateLimited(() => throttle.begin("a")));
    assert.equal(admitted.filter(Boolean).length, MAX_FAILURES);
    assert.ok(throttle.lockedFor("a") > 0);
    assert.equal(throttle.lockedFor("b"), 0, "another client is not locked by it");
    now += LOCK_MS - 1;
    assert.ok(
      rateLimited(() => throttle.ensureOpen("a")),
      "still locked a moment before 10 minutes",
    );
    now += 1;
    assert.ok(!rateLimited(() => throttle.begin("a")), "open again after 10 minutes, the old failures forgotten");
  });

  it("forgets failures older than the window", () => {
    for (let i = 0; i < MAX_FAILURES - 1; i++) throttle.begin("a");
    now += WINDOW_MS;
    for (let i = 0; i < MAX_FAILURES - 1; i++) throttle.begin("a");
    assert.equal(throttle.lockedFor("a"), 0);
  });

  it("takes a successful attempt back and clears that client's failures", () => {
    for (let i = 0; i < MAX_FAILURES - 1; i++) throttle.begin("a");
    const right = throttle.begin("a");
    assert.ok(throttle.lockedFor("a") > 0, "the fifth attempt locks while it is checked");
    right.succeeded();
    assert.equal(throttle.lockedFor("a"), 0, "the right password clears the client");
    for (let i = 0; i < MAX_FAILURES - 1; i++) throttle.begin("a");
    assert.equal(throttle.lockedFor("a"), 0, "counting starts again from nothing");
  });

  it("locks everyone once more than 20 failures come from all clients together, for 10 minutes", () => {
    let admitted = 0;
    for (let i = 0; i < 100; i++) if (!rateLimited(() => throttle.begin(`client ${i % 50}`))) admitted++;
    assert.equal(admitted, MAX_GLOBAL_FAILURES, "the 21st attempt is counted, not checked");
    assert.ok(
      rateLimited(() => throttle.ensureOpen("a client never seen")),
      "everyone is locked out",
    );
    now += LOCK_MS - 1;
    assert.ok(rateLimited(() => throttle.begin("a client never seen")));
    now += 1;
    assert.ok(!rateLimited(() => throttle.begin("a client never seen")), "open again after 10 minutes");
  });

  it("does not count successes towards everyone's limit", () => {
    for (let i = 0; i < 100; i++) throttle.begin(`client ${i}`).succeeded();
    assert.equal(throttle.lockedFor("anyone"), 0);
    for (let i = 0; i < MAX_GLOBAL_FAILURES; i++) throttle.begin(`guess ${i}`);
    assert.equal(throttle.lockedFor("anyone"), 0, "20 failures are not yet more than 20");
    assert.ok(rateLimited(() => throttle.begin("guess 21")));
  });
});
