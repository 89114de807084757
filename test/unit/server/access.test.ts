import assert from "node:assert/strict";
import { hostName, isLoopbackHost, isPublicApiRoute } from "../../../src/server/middleware/access";

describe("access rules", () => {
  it("extracts the host name from Host headers with ports and IPv6 brackets", () => {
    assert.equal(hostName("127.0.0.1:4317"), "127.0.0.1");
    assert.equal(hostName("LOCALHOST"), "localhost");
    assert.equal(hostName("[::1]:80"), "::1");
    assert.equal(hostName("example.com"), "example.com");
  });

  it("accepts loopback names only", () => {
    for (const ok of ["localhost", "127.0.0.1", "127.1.2.3", "::1", "app.localhost"]) assert.ok(isLoopbackHost(ok), ok);
    for (const bad of ["127.0.0.1.evil.com", "localhost.evil.com", "10.0.0.1", "0.0.0.0", "evil.com", ""]) {
      assert.ok(!isLoopbackHost(bad), bad);
    }
  });

  it("leaves only health, login and the OAuth callback open", () => {
    assert.ok(isPublicApiRoute("GET", "/api/health"));
    assert.ok(isPublicApiRoute("POST", "/api/access/login"));
    assert.ok(isPublicApiRoute("GET", "/api/providers/gateway/oauth/callback"));
    assert.ok(!isPublicApiRoute("POST", "/api/health"));
    assert.ok(!isPublicApiRoute("GET", "/api/access/loginx"));
    assert.ok(!isPublicApiRoute("GET", "/api/settings/app"));
  });
});
