import assert from "node:assert/strict";
import { isContextOverflow } from "../../../../src/chat/context/overflow";

describe("context overflow answers", () => {
  it("recognises each dialect's context-length refusal", () => {
    for (const message of [
      "This endpoint's maximum context length is 16000 tokens. However, you requested about 17000 tokens",
      "This model's maximum context length is 4096 tokens. However, your messages resulted in 5000 tokens.",
      "prompt is too long: 210000 tokens > 200000 maximum",
      "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
      "litellm.ContextWindowExceededError: context_length_exceeded",
      "the request exceeds the available context size, try increasing it",
      "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length",
      "Request too large: too many tokens",
    ])
      assert.ok(isContextOverflow({ status: 400, message }), message);
    assert.ok(isContextOverflow({ status: 413, message: "context length exceeded" }));
  });

  it("leaves every other failure alone", () => {
    assert.equal(isContextOverflow({ status: 429, message: "maximum context length, rate limited" }), false);
    assert.equal(isContextOverflow({ status: 400, message: "fake/nope is not a valid model ID" }), false);
    assert.equal(isContextOverflow({ message: "context length" }), false);
    assert.equal(isContextOverflow(undefined), false);
  });
});
