import assert from "node:assert/strict";
import {
  errorBodyMessage,
  errorStatus,
  MAX_UPSTREAM_MESSAGE,
  missingVersionHint,
  upstreamMessage,
  withoutSecret,
} from "../../../src/gateway/upstream-error";
import { isRetryableFailure } from "../../../src/chat/retry-policy";

describe("upstream error messages", () => {
  it("reads every error body shape OpenAI-style servers send", () => {
    assert.equal(
      upstreamMessage(400, JSON.stringify({ error: { code: 400, message: "x is not a valid model ID" } })),
      "x is not a valid model ID",
    );
    assert.equal(
      upstreamMessage(404, JSON.stringify({ error: 'model "llama9" not found, try pulling it first' })),
      'model "llama9" not found, try pulling it first',
    );
    assert.equal(
      upstreamMessage(404, JSON.stringify({ object: "error", message: "The model `q` does not exist.", code: 404 })),
      "The model `q` does not exist.",
    );
    assert.equal(
      upstreamMessage(401, JSON.stringify({ detail: "Authentication Error, Invalid proxy server token passed." })),
      "Authentication Error, Invalid proxy server token passed.",
    );
    assert.equal(
      upstreamMessage(500, JSON.stringify({ error: { message: "", detail: "from the detail" } })),
      "from the detail",
    );
  });

  it("prefers a message to a bare error title", () => {
    assert.equal(
      upstreamMessage(404, JSON.stringify({ error: "Not Found", message: "Cannot GET /v1/credits", status: 404 })),
      "Cannot GET /v1/credits",
    );
  });

  it("joins FastAPI validation details with where they apply", () => {
    const body = {
      detail: [{ loc: ["body", "model"], msg: "field required", type: "missing" }, { msg: "bad temperature" }, 5],
    };
    assert.equal(upstreamMessage(422, JSON.stringify(body)), "body.model: field required; bad temperature");
  });

  it("shows a plain-text body as it is, and an HTML page by its title or text", () => {
    assert.equal(upstreamMessage(500, "Model foo/bar does not exist\n"), "Model foo/bar does not exist");
    assert.equal(
      upstreamMessage(502, "<html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>"),
      "502 Bad Gateway",
    );
    assert.equal(upstreamMessage(503, "<p>Service &amp; more<script>x()</script> down</p>"), "Service & more down");
  });

  it("falls back to the status only when the server said nothing usable", () => {
    for (const body of [
      "",
      "   ",
      "{}",
      "[]",
      "null",
      "42",
      JSON.stringify({ error: { code: 500 } }),
      JSON.stringify({ detail: [] }),
    ]) {
      assert.equal(upstreamMessage(500, body), "the gateway answered 500", body);
    }
  });

  it("clips a long message and never returns the whole body", () => {
    const message = upstreamMessage(500, JSON.stringify({ error: "x".repeat(5000) }));
    assert.equal(message.length, MAX_UPSTREAM_MESSAGE);
    assert.ok(message.endsWith("…"));
  });

  it("reads a message from a chunk-like object and ignores odd shapes", () => {
    assert.equal(errorBodyMessage({ error: "  spaced\n out " }), "spaced out");
    for (const odd of [null, undefined, 3, [], {}, { error: 5 }, { message: 7 }, { detail: { x: 1 } }])
      assert.equal(errorBodyMessage(odd), undefined);
  });
});

describe("upstream error status", () => {
  it("takes a numeric or three-digit string code or status", () => {
    assert.equal(errorStatus({ code: 502 }), 502);
    assert.equal(errorStatus({ code: "429" }), 429);
    assert.equal(errorStatus({ status: 404 }), 404);
    assert.equal(errorStatus({ code: 200 }), undefined, "not an error status");
    assert.equal(errorStatus({ code: "12345" }), undefined);
  });

  it("knows what OpenAI, Anthropic and LiteLLM error names stand for", () => {
    assert.equal(errorStatus({ code: "invalid_api_key" }), 401);
    assert.equal(errorStatus({ type: "authentication_error" }), 401);
    assert.equal(errorStatus({ code: "model_not_found", type: "invalid_request_error" }), 404);
    assert.equal(errorStatus({ type: "invalid_request_error" }), 400);
    assert.equal(errorStatus({ type: "RateLimitError" }), 429);
    assert.equal(errorStatus({ type: "server_error" }), 500);
    assert.equal(errorStatus({ code: "something_new" }), undefined);
  });
});

describe("retrying failed sends", () => {
  it("retries 408, 429 and 5xx, never 400, 401, 403 or 404", () => {
    for (const status of [408, 429, 500, 502, 503])
      assert.equal(isRetryableFailure(status, "busy"), true, String(status));
    for (const status of [400, 401, 402, 403, 404, 422])
      assert.equal(isRetryableFailure(status, "no"), false, String(status));
  });

  it("does not retry a 5xx that says the model does not exist", () => {
    for (const message of [
      "Model foo/bar does not exist",
      "The model `x` does not exist.",
      'model "llama9" not found, try pulling it first',
      "bert-nope is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'",
      "404 Client Error. Repository Not Found for url: https://huggingface.co/api/models/x/y",
      "Unknown model: foo",
    ]) {
      assert.equal(isRetryableFailure(500, message), false, message);
    }
  });

  it("retries a failure without a status unless its words say the key or the model is wrong", () => {
    assert.equal(isRetryableFailure(undefined, "CUDA out of memory"), true);
    assert.equal(isRetryableFailure(undefined, "Invalid API key"), false);
    assert.equal(isRetryableFailure(undefined, "The model `x` does not exist."), false);
  });
});

describe("base URL hints", () => {
  it("suggests /v1 for a base URL without a version segment", () => {
    assert.equal(
      missingVersionHint("http://127.0.0.1:8000", "/models"),
      "the server answered 404 for /models; did you mean http://127.0.0.1:8000/v1?",
    );
    assert.equal(
      missingVersionHint("http://host:4000/litellm/", "/chat/completions"),
      "the server answered 404 for /chat/completions; did you mean http://host:4000/litellm/v1?",
    );
    assert.equal(
      missingVersionHint("http://h", "/models?output_modalities=transcription"),
      "the server answered 404 for /models; did you mean http://h/v1?",
    );
  });

  it("says nothing when the URL has a version or is not a URL", () => {
    for (const url of [
      "https://openrouter.ai/api/v1",
      "http://h:11434/v1/",
      "https://api.example/v2beta/x",
      "not a url",
    ]) {
      assert.equal(missingVersionHint(url, "/models"), undefined, url);
    }
  });
});

describe("keys in upstream messages", () => {
  it("replaces every copy of the key and leaves other text alone", () => {
    assert.equal(
      withoutSecret("Incorrect API key provided: sk-abc123. Check sk-abc123", "sk-abc123"),
      "Incorrect API key provided: [redacted]. Check [redacted]",
    );
    assert.equal(withoutSecret("nothing here", "sk-abc123"), "nothing here");
    assert.equal(withoutSecret("a b", undefined), "a b");
    assert.equal(withoutSecret("a b c", "a"), "a b c", "too short to be a key");
  });

  it("leaves a short key inside a word or a name alone (a local server's key `ollama`)", () => {
    const message = "registry.ollama.ai/library/gemma:2b does not support tools";
    assert.equal(withoutSecret(message, ["ollama", "Bearer ollama"]), message);
    for (const text of ["xsk-abc123y", "sk-abc123_v2", "/models/sk-abc123/x", "sk-abc123.example.com"])
      assert.equal(withoutSecret(text, "sk-abc123"), text, text);
  });

  it("still replaces a short key where it stands as a whole token", () => {
    assert.equal(withoutSecret("invalid key ollama", "ollama"), "invalid key [redacted]");
    assert.equal(withoutSecret('{"key":"ollama"}', "ollama"), '{"key":"[redacted]"}');
    assert.equal(withoutSecret("?api_key=ollama&x=1 (ollama)", "ollama"), "?api_key=[redacted]&x=1 ([redacted])");
    assert.equal(withoutSecret("key: ollama. Try again", "ollama"), "key: [redacted]. Try again");
    assert.equal(
      withoutSecret("Authorization: Bearer ollama", ["ollama", "Bearer ollama"]),
      "Authorization: [redacted]",
    );
  });

  it("replaces a key of 12 characters or more wherever it occurs, even inside a word", () => {
    const key = "sk-0123456789abcdef";
    assert.equal(withoutSecret(`x${key}y and ${key}.ai`, key), "x[redacted]y and [redacted].ai");
    assert.equal(withoutSecret("pre-abcdefghijkl-post", "abcdefghijkl"), "pre-[redacted]-post");
  });

  it("takes a key with pattern characters literally", () => {
    assert.equal(withoutSecret("key a.b*c+d? refused", "a.b*c+d?"), "key [redacted] refused");
    assert.equal(withoutSecret("key aXbbcccd refused", "a.b*c+d?"), "key aXbbcccd refused");
  });
});
