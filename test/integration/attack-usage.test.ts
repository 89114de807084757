// GET /api/usage with hostile query parameters: SQL in dates, repeated and bracketed keys, unknown
// groupings, relative or missing project folders. Each is a contract 400 (or an empty answer), never a 500.
import assert from "node:assert/strict";
import { apiErrorBodySchema } from "../../src/shared/api-error";
import { usageRowSchema } from "../../src/shared/usage";
import { startTestServer, type TestServer } from "../helpers/test-server";

describe("GET /api/usage under attack", () => {
  let s: TestServer;
  before(async () => (s = await startTestServer()));
  after(() => s.stop());

  it("refuses hostile parameters with a contract 400", async () => {
    const bad = [
      "groupBy=model'--",
      "groupBy=key",
      "groupBy=model&groupBy=day",
      "from=2024-01-01' OR 1=1 --",
      "from=1); DROP TABLE transcriptions; --",
      "to=2024-13-45",
      "from=2024-01-01T00:00:00+02:00",
      "from=2024-01-01&from=2024-01-02",
      `to=${"9".repeat(10_000)}`,
      "projectDir=relative",
      "projectDir=",
      "projectDir=%00",
      `projectDir=${encodeURIComponent("/definitely/not/here")}`,
    ];
    for (const query of bad) {
      const res = await s.api("GET", `/api/usage?${query}`);
      const text = await res.text();
      assert.ok(res.status >= 400 && res.status < 500, `${query}: ${res.status} ${text.slice(0, 200)}`);
      assert.ok(apiErrorBodySchema.safeParse(JSON.parse(text)).success, `${query}: ${text.slice(0, 200)}`);
    }
    // The ledger is still there and still answers.
    const res = await s.api("GET", "/api/usage?groupBy=day&from=2000-01-01&to=2999-12-31T23:59:59Z");
    assert.equal(res.status, 200);
    assert.deepEqual(usageRowSchema.array().parse(await res.json()), []);
  });

  it("ignores unknown parameters rather than failing on them", async () => {
    for (const query of ["__proto__=x&constructor=y&toString=z", "groupBy[]=day", "hasOwnProperty=1&groupBy=day"]) {
      const res = await s.api("GET", `/api/usage?${query}`);
      assert.equal(res.status, 200, query);
      assert.deepEqual(await res.json(), [], query);
    }
  });
});
