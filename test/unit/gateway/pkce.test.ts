import assert from "node:assert/strict";
import { accountLabel, credentialRefreshers, needsProactiveRefresh } from "../../../src/gateway/oauth-credential";
import { authorizeUrl, codeChallengeS256, createCodeVerifier, createState } from "../../../src/gateway/pkce";
import { safeReturnTo } from "../../../src/gateway/gateway-oauth";

describe("PKCE", () => {
  it("matches the RFC 7636 appendix B example", () => {
    assert.equal(
      codeChallengeS256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });

  it("makes fresh 43-character unreserved verifiers and distinct states", () => {
    const verifiers = new Set(Array.from({ length: 100 }, () => createCodeVerifier()));
    assert.equal(verifiers.size, 100);
    for (const v of verifiers) assert.match(v, /^[A-Za-z0-9\-._~]{43}$/);
    assert.notEqual(createState(), createState());
  });

  it("builds the authorize URL, keeping the page's own query", () => {
    const url = new URL(
      authorizeUrl("https://gw.example/auth?x=1", {
        callbackUrl: "http://127.0.0.1:4317/cb",
        challenge: "c",
        state: "s",
      }),
    );
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      x: "1",
      callback_url: "http://127.0.0.1:4317/cb",
      code_challenge: "c",
      code_challenge_method: "S256",
      state: "s",
    });
  });
});

describe("gateway credentials", () => {
  it("labels an account with the first 16 characters of its key", () => {
    assert.equal(accountLabel("gw-test-key-0123456789abcdef"), "gw-test-key-0123");
  });

  it("never refreshes a credential without expiry, and the gateway refresher changes nothing", async () => {
    assert.equal(needsProactiveRefresh({ expiresAt: null }, Date.now()), false);
    assert.equal(needsProactiveRefresh({ expiresAt: Date.now() + 10_000 }, Date.now()), true);
    const credential = { accessToken: "k", refreshToken: null, expiresAt: null, label: "k", createdAt: "t" };
    assert.equal(await credentialRefreshers.gateway!(credential), credential);
  });

  it("keeps sign-in redirects on this origin", () => {
    assert.equal(safeReturnTo("/#/settings"), "/#/settings");
    for (const bad of ["//evil.example", "https://evil.example", "/\\evil", 5, undefined])
      assert.equal(safeReturnTo(bad), "/");
  });
});
