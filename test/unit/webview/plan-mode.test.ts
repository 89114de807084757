// Plan mode's rules in the chat view: which agent is the built-in Plan, and which answer offers
// "Implement this plan" (the chat's last message, a finished answer with text).
import assert from "node:assert/strict";
import { isPlanAgent, planAnswerId } from "../../../webview/src/lib/plan-mode";
import { messageFactory } from "../../helpers/stored-messages";

describe("plan mode in the chat view", () => {
  it("knows Plan by the built-in flag, not by its name alone", () => {
    assert.equal(isPlanAgent({ name: "Plan", description: "", builtIn: true }), true);
    assert.equal(isPlanAgent({ name: "Plan", description: "a project's own" }), false);
    assert.equal(isPlanAgent({ name: "reviewer", description: "", builtIn: true }), false);
    assert.equal(isPlanAgent(undefined), false);
  });

  it("offers the chat's last message when it is a finished answer with text", () => {
    const message = messageFactory();
    const transcript = [message("user", "plan it"), message("assistant", "1. Read. 2. Change.")];
    assert.equal(planAnswerId(transcript), "m2");
  });

  it("offers nothing while the answer is unfinished, failed, empty, or no longer the last", () => {
    const message = messageFactory();
    const user = message("user", "plan it");
    for (const status of ["streaming", "cancelled", "truncated", "error", "interrupted"] as const)
      assert.equal(planAnswerId([user, message("assistant", "1. Half", null, status)]), undefined, status);
    assert.equal(planAnswerId([user, message("assistant", "  ")]), undefined, "no text");
    assert.equal(planAnswerId([user, message("assistant", "1. Read."), message("user", "and?")]), undefined);
    assert.equal(planAnswerId([user, message("assistant", ""), message("tool", "output")]), undefined);
    assert.equal(planAnswerId([]), undefined);
  });
});
