import assert from "node:assert/strict";
import {
  connectionSecrets,
  endpoint,
  gatewayRequest,
  readJson,
  upstreamFailure,
  UpstreamError,
} from "../../../src/gateway/http";
import { connection, KEY, openGatewayDouble, type GatewayDouble } from "./gateway-double";

describe("gateway client: HTTP and its errors", () => {
  it("joins a base URL and a path with one slash, whatever the base ends with", () => {
    assert.equal(
      endpoint({ baseUrl: "https://gw.example/api/v1", headers: {} }, "/models"),
      "https://gw.example/api/v1/models",
    );
    assert.equal(
      endpoint({ baseUrl: "https://gw.example/api/v1///", headers: {} }, "/models"),
      "https://gw.example/api/v1/models",
    );
  });

  it("counts every credential a connection sends as a secret: the Bearer key (whole and bare) and credential headers", () => {
    const secrets = connectionSecrets({
      baseUrl: "http://x",
      headers: {
        Authorization: `Bearer ${KEY}`,
        "x-api-key": "sk-other-0123",
        "X-Title": "Parley",
        "HTTP-Referer": "http://127.0.0.1/parley",
      },
    });
    assert.deepEqual(secrets.sort(), [`Bearer ${KEY}`, KEY, "sk-other-0123"].sort());
  });

  it("words a failure in the server's own message, with every secret of the connection scrubbed", () => {
    const error = upstreamFailure(
      connection,
      "/chat/completions",
      401,
      JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}.` } }),
      "30",
    );
    assert.ok(error instanceof UpstreamError);
    assert.equal(error.status, 401);
    assert.equal(error.retryAfter, "30");
    assert.equal(error.message, "Incorrect API key provided: [redacted].");
  });

  it("says where /v1 probably is when a base URL without a version answers 404", () => {
    const bare = { baseUrl: "http://127.0.0.1:8000", headers: {} };
    assert.equal(
      upstreamFailure(bare, "/models?x=1", 404, "Not Found").message,
      "the server answered 404 for /models; did you mean http://127.0.0.1:8000/v1? (the server said: Not Found)",
    );
    assert.equal(
      upstreamFailure(connection, "/models", 404, "Not Found").message,
      "Not Found",
      "a base URL with a version gets no hint",
    );
    assert.equal(upstreamFailure(bare, "/models", 500, "Boom").message, "Boom", "nor does another status");
  });

  describe("over HTTP", () => {
    let gateway: GatewayDouble;
    beforeEach(() => (gateway = openGatewayDouble()));
    afterEach(() => gateway.close());

    it("sends the connection's headers with a request's own, the request's winning", async () => {
      gateway.pool.intercept({ path: "/api/v1/anything", method: "POST" }).reply(204, "");
      const response = await gatewayRequest(connection, "/anything", {
        method: "POST",
        headers: { "x-title": "Other", "content-type": "text/plain" },
        body: "hi",
      });
      await response.body.dump();
      assert.equal(response.statusCode, 204);
      const [seen] = gateway.seen;
      assert.deepEqual([seen!.method, seen!.path, seen!.body], ["POST", "/api/v1/anything", "hi"]);
      assert.deepEqual(
        [seen!.headers.authorization, seen!.headers["x-title"], seen!.headers["content-type"]],
        [`Bearer ${KEY}`, "Other", "text/plain"],
      );
    });

    it("reads a JSON answer", async () => {
      gateway.pool.intercept({ path: "/api/v1/key", method: "GET" }).reply(200, { data: { usage: 1 } });
      assert.deepEqual(await readJson(connection, "/key"), { data: { usage: 1 } });
    });

    it("fails with 502 on a 200 that is not JSON, and with the upstream status on a refusal", async () => {
      gateway.pool.intercept({ path: "/api/v1/key", method: "GET" }).reply(200, "<html>login</html>");
      await assert.rejects(
        readJson(connection, "/key"),
        (error: unknown) => error instanceof UpstreamError && error.status === 502 && /not JSON/.test(error.message),
      );
      gateway.pool
        .intercept({ path: "/api/v1/key", method: "GET" })
        .reply(429, { error: { message: "Rate limit exceeded" } });
      await assert.rejects(
        readJson(connection, "/key"),
        (error: unknown) =>
          error instanceof UpstreamError && error.status === 429 && error.message === "Rate limit exceeded",
      );
    });
  });
});
