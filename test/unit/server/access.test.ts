import assert from "node:assert/strict";
import { isPublicApiRoute } from "../../../src/server/middleware/access";
import {
  canonicalPath,
  isApiPath,
  isLoopbackHost,
  parseHostHeader,
  resolvedPath,
} from "../../../src/platform/http/request-path";

describe("access rules", () => {
  it("extracts the host name from Host headers with ports and IPv6 brackets", () => {
    assert.equal(parseHostHeader("127.0.0.1:4317"), "127.0.0.1");
    assert.equal(parseHostHeader("LOCALHOST"), "localhost");
    assert.equal(parseHostHeader("[::1]:80"), "::1");
    assert.equal(parseHostHeader("example.com"), "example.com");
  });

  it("refuses Host values that are anything but a host and an optional port", () => {
    for (const bad of [
      "127.0.0.1:4317@evil.com",
      "[::1]evil.com",
      "127.0.0.1:4317/evil",
      "user@127.0.0.1",
      "127.0.0.1:99999",
      "127.0.0.1:",
      "127.0.0.1 evil.com",
      "evil.com#127.0.0.1",
      "[::1",
      "",
      "..",
      "-a.com",
    ]) {
      assert.equal(parseHostHeader(bad), undefined, bad);
    }
  });

  it("sees /api in every spelling a lenient router could match", () => {
    for (const path of [
      "/api/projects",
      "/API/projects",
      "/Api/settings/app",
      "//api/projects",
      "/api//projects",
      "/%61pi/projects",
      "/%2561pi/x",
      "/api/",
      "/API",
      "\\api\\x",
      "/aPi/health/",
    ]) {
      assert.ok(isApiPath(path), path);
    }
    for (const path of ["/", "/index.html", "/assets/api.js", "/apis", "/%zz", "/ap%69x"])
      assert.ok(!isApiPath(path), path);
    assert.equal(canonicalPath("//API//Projects/"), "/api/projects");
    // A file server resolves dot segments; what resolves to /api counts as /api too.
    for (const path of ["/./api/projects", "/x/../api/projects", "/%2e/api/x", "/x/%2e%2e/API/x"])
      assert.ok(isApiPath(path), path);
  });

  it("resolves every spelling of a page to the path a file server would serve, never above the root", () => {
    for (const path of [
      "/index.html",
      "//index.html",
      "/%69ndex.html",
      "/./index.html",
      "/x/../index.html",
      "/%2e/index.html",
      "/%2f/index.html",
      "/index.html/",
      "/../../index.html",
      "/\\index.html",
    ]) {
      assert.equal(resolvedPath(path), "/index.html", path);
    }
    for (const path of ["/", "//", "///", "/.", "/./", "/%2e/", "/x/..", "/.."])
      assert.equal(resolvedPath(path), "/", path);
    assert.equal(resolvedPath("//assets//App-X1.js"), "/assets/App-X1.js", "letter case kept");
  });

  it("accepts loopback names only", () => {
    for (const ok of ["localhost", "127.0.0.1", "127.1.2.3", "::1"]) assert.ok(isLoopbackHost(ok), ok);
    // A subdomain of localhost is only as good as the user's allow-list says.
    for (const bad of [
      "app.localhost",
      "evil.localhost",
      "127.0.0.256",
      "127.0.0.1.evil.com",
      "localhost.evil.com",
      "10.0.0.1",
      "0.0.0.0",
      "evil.com",
      "",
    ]) {
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
