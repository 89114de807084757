// Errors in words (issue 37, item 5): each kind of failed turn gets a sentence and its way out, and
// the error as it came stays as the details line.
import assert from "node:assert/strict";
import { ApiError } from "../../../webview/src/lib/api/client";
import { directFailure } from "../../../webview/src/lib/direct-runs";
import { explainError } from "../../../webview/src/lib/error-words";

describe("errors in words", () => {
  it("names the model the gateway does not know and points to the model picker, keeping its words", () => {
    const words = explainError({ status: 400, message: "vendor/nope is not a valid model ID" });
    assert.equal(words.title, "The gateway does not know the model vendor/nope.");
    assert.match(words.hint, /Pick another model in the model picker/);
    assert.equal(words.details, "400: vendor/nope is not a valid model ID");
    assert.deepEqual([words.model, words.settings], [true, false]);
    const selfHosted = explainError({ status: 404, message: "The model `no-such-model` does not exist." });
    assert.equal(selfHosted.title, "The gateway does not know the model no-such-model.");
    assert.equal(selfHosted.details, "404: The model `no-such-model` does not exist.");
    assert.equal(
      explainError({ status: 400, message: "model_not_found" }).title,
      "The gateway does not know the model you picked.",
    );
  });

  it("says the gateway refused the key for a 401 and a 403, with Settings, Providers as the way out", () => {
    const refused = explainError({ status: 403, message: "Key limit exceeded for this model" });
    assert.equal(refused.title, "The gateway refused the request with this key.");
    assert.match(refused.hint, /Settings, Providers/);
    assert.equal(refused.details, "403: Key limit exceeded for this model");
    assert.equal(refused.settings, true);
    const unauthorized = explainError({ status: 401, message: "Unauthorized" });
    assert.deepEqual(
      [unauthorized.title, unauthorized.settings, unauthorized.model],
      ["The gateway refused the key.", true, false],
    );
    assert.equal(explainError({ status: 400, message: "Incorrect API key provided: sk-…" }).settings, true);
  });

  it("tells a missing key, an unreachable gateway and a key saved for another server apart", () => {
    const noKey = explainError({
      status: 400,
      message: 'no key for provider "gateway": paste an API key or sign in under Settings, Providers',
    });
    assert.equal(noKey.title, "No API key is set for the gateway.");
    assert.match(noKey.details!, /no key for provider/, "Parley's own words stay too");
    const unreachable = explainError({ message: "cannot reach the gateway (ECONNREFUSED)" });
    assert.equal(unreachable.title, "Parley could not reach the gateway.");
    assert.match(unreachable.hint, /address under Settings, Providers/);
    assert.equal(explainError({ status: 502, message: "cannot reach the gateway (ENOTFOUND)" }).settings, true);
    const origin = explainError({
      status: 400,
      code: "credential_origin_mismatch",
      message: 'the key for provider "gateway" was saved for https://a.example, but this request would go to …',
    });
    assert.match(origin.title, /another server/);
    assert.equal(
      explainError({ status: 400, message: 'the key for provider "gateway" was saved for https://a.example, but …' })
        .settings,
      true,
      "the same without the code (a stored error keeps none)",
    );
  });

  it("explains credits, rate limits, a long conversation, timeouts and the gateway's own failures", () => {
    assert.equal(
      explainError({ status: 402, message: "Insufficient credits" }).title,
      "The account has run out of credits.",
    );
    assert.match(explainError({ status: 429, message: "slow down" }).hint, /Wait a moment/);
    assert.equal(
      explainError({ status: 400, message: "This endpoint's maximum context length is 8192 tokens." }).title,
      "The conversation is too long for this model.",
    );
    assert.equal(
      explainError({ status: 504, message: "upstream timeout" }).title,
      "The gateway took too long to answer.",
    );
    assert.equal(explainError({ status: 503, message: "overloaded" }).title, "The gateway had a problem (503).");
    assert.equal(explainError({ status: 418, message: "teapot" }).title, "The gateway refused the request (418).");
  });

  it("keeps Parley's own sentences as they are, with no details line to repeat them", () => {
    const limit = explainError({ message: "the turn reached its limit of 50 steps (Settings, chat.maxSteps)" });
    assert.equal(limit.title, "The turn reached its limit of 50 steps (Settings, chat.maxSteps).");
    assert.equal(limit.details, undefined);
  });

  it("words a refused direct run by what it was, keeping the server's message", () => {
    const off = directFailure(
      "@shell ls",
      { kind: "tool", tool: "shell", arguments: { cmd: "ls" } },
      new ApiError(403, "forbidden", 'the tool "shell" is off in this project'),
    );
    assert.equal(off.title, 'The tool "shell" is switched off in this project.');
    assert.equal(off.message, 'the tool "shell" is off in this project');
    const mcp = directFailure(
      "@mcp__calc__sum a=1",
      { kind: "tool", tool: "mcp__calc__sum", arguments: { a: 1 } },
      new ApiError(400, "invalid_request", "the arguments do not fit"),
    );
    assert.equal(mcp.title, 'The tool "calc › sum" cannot take these arguments.');
    assert.equal(
      directFailure("@x", undefined, new ApiError(409, "conflict", "busy")).title,
      "This chat is busy with another answer.",
    );
  });
});
