import assert from "node:assert/strict";
import { ActiveTurns } from "../../../src/chat/turn-broadcast";

describe("turn broadcast", () => {
  it("is done when turn.end reaches its followers, so a stream closing on it does not cancel the finished turn", () => {
    const turns = new ActiveTurns();
    const { broadcast, controller } = turns.start("c_1", 1);
    const seen: string[] = [];
    // What the stream route does: close on turn.end, and cancel a turn that is not done when it closes.
    broadcast.follow(0, (event) => {
      seen.push(event.event);
      if (event.event === "turn.end" && !broadcast.done) turns.cancel("c_1");
    });
    broadcast.emit({ event: "turn.start", data: { turnId: "t_1", messageId: "m_1", model: "fake/echo" } });
    broadcast.emit({ event: "turn.end", data: { turnId: "t_1", finishReason: "stop" } });
    assert.deepEqual(seen, ["turn.start", "turn.end"]);
    assert.equal(controller.signal.aborted, false);
    assert.equal(broadcast.done, true);
  });

  it("replays a finished turn to a late follower and keeps no listener", () => {
    const { broadcast } = new ActiveTurns().start("c_1", 5);
    broadcast.emit({ event: "turn.start", data: { turnId: "t_1", messageId: "m_1", model: "fake/echo" } });
    broadcast.emit({ event: "turn.end", data: { turnId: "t_1", finishReason: "stop" } });
    const late: number[] = [];
    broadcast.follow(5, (event) => late.push(event.id));
    assert.deepEqual(late, [6]);
  });
});
