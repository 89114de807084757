import assert from "node:assert/strict";
import { fetchCredits } from "../../../src/gateway/credits";
import { UpstreamError } from "../../../src/gateway/http";
import type { Credits } from "../../../src/shared/gateway";
import { connection, openGatewayDouble, type GatewayDouble } from "./gateway-double";

describe("gateway client: credits", () => {
  let gateway: GatewayDouble;
  beforeEach(() => (gateway = openGatewayDouble()));
  afterEach(() => gateway.close());

  const answer = (path: "/credits" | "/key", status: number, body: unknown) =>
    gateway.pool.intercept({ path: `/api/v1${path}`, method: "GET" }).reply(status, body as object);
  const paths = () => gateway.seen.map((r) => r.path);

  it("reads the account balance from /credits: total less usage", async () => {
    answer("/credits", 200, { data: { total_credits: 25, total_usage: 7.5 } });
    assert.deepEqual(await fetchCredits(connection), {
      source: "credits",
      totalCredits: 25,
      totalUsage: 7.5,
      balance: 17.5,
    });
    assert.deepEqual(paths(), ["/api/v1/credits"]);
  });

  it("gives no balance when one of the two numbers is missing", async () => {
    answer("/credits", 200, { data: { total_credits: 25, total_usage: "7.5" } });
    assert.deepEqual(await fetchCredits(connection), {
      source: "credits",
      totalCredits: 25,
      totalUsage: null,
      balance: null,
    });
  });

  it("falls back to the key's own limit and usage when the key may not read /credits", async () => {
    answer("/credits", 403, { error: { message: "Only management keys can fetch credits" } });
    answer("/key", 200, { data: { limit: 10, usage: 2.25, limit_remaining: 7.75 } });
    const { note, ...numbers } = (await fetchCredits(connection)) as Credits;
    assert.deepEqual(paths(), ["/api/v1/credits", "/api/v1/key"]);
    assert.deepEqual(numbers, { source: "key", totalCredits: 10, totalUsage: 2.25, balance: 7.75 });
    assert.match(note!, /its own spending limit and usage are shown/);
  });

  it("says a key without a limit has only its usage to show", async () => {
    answer("/credits", 401, { error: { message: "nope" } });
    answer("/key", 200, { data: { limit: null, usage: 3 } });
    const credits = (await fetchCredits(connection)) as Credits;
    assert.deepEqual([credits.totalUsage, credits.balance], [3, null]);
    assert.match(credits.note!, /no spending limit of its own/);
  });

  it("takes a 200 from /credits without its numbers for some other server's page, and asks /key", async () => {
    answer("/credits", 200, { ok: true });
    answer("/key", 200, { data: { usage: 1 } });
    assert.equal(((await fetchCredits(connection)) as Credits).source, "key");
  });

  it("answers {supported:false} for a server with neither route (a self-hosted one)", async () => {
    answer("/credits", 404, "Cannot GET /api/v1/credits");
    answer("/key", 405, "Method Not Allowed");
    assert.deepEqual(await fetchCredits(connection), { supported: false });
  });

  it("answers {supported:false} when /key says nothing either", async () => {
    answer("/credits", 501, "");
    answer("/key", 200, { data: {} });
    assert.deepEqual(await fetchCredits(connection), { supported: false });
  });

  it("passes on a real failure of /credits without asking /key", async () => {
    answer("/credits", 500, { error: { message: "database is down" } });
    await assert.rejects(
      fetchCredits(connection),
      (error: unknown) =>
        error instanceof UpstreamError && error.status === 500 && /database is down/.test(error.message),
    );
    assert.deepEqual(paths(), ["/api/v1/credits"]);
  });

  it("passes on a refused /key after a refused /credits", async () => {
    answer("/credits", 403, "");
    answer("/key", 401, { error: { message: "invalid key" } });
    await assert.rejects(
      fetchCredits(connection),
      (error: unknown) => error instanceof UpstreamError && error.status === 401,
    );
  });
});
