import assert from "node:assert/strict";
import { readyMessage } from "../../../src/platform/ready-message";

describe("the ready message of parley serve", () => {
  const token = "t0k+en/with=chars";

  it("gives a person at a terminal the login link, its token escaped for the query", () => {
    assert.equal(
      readyMessage("1.2.3", "http://127.0.0.1:4317", token, true),
      "Parley 1.2.3 is ready. Open http://127.0.0.1:4317/?token=t0k%2Ben%2Fwith%3Dchars",
    );
  });

  it("never holds the token where stderr is captured, and says where the link comes from", () => {
    const line = readyMessage("1.2.3", "http://127.0.0.1:4317", token, false);
    assert.ok(!line.includes(token) && !line.includes(encodeURIComponent(token)));
    assert.match(line, /ready at http:\/\/127\.0\.0\.1:4317\b/);
    assert.match(line, /ready line on stdout/);
  });
});
