// The URLs web_fetch requests and the redirects it follows: http(s) only, no credentials, at most five
// redirects, each target a URL checked again, and a loop named as one.
import assert from "node:assert/strict";
import { ToolError } from "../../../../src/tools/tool-error";
import { checkUrl, isRedirect, MAX_REDIRECTS, redirectTarget } from "../../../../src/tools/web-fetch/urls";

const refused = (run: () => unknown, pattern: RegExp) =>
  assert.throws(run, (error: unknown) => error instanceof ToolError && pattern.test(error.message));

describe("web_fetch URLs and redirects", () => {
  it("takes http and https URLs", () => {
    assert.equal(checkUrl("https://example.com/a?b#c").href, "https://example.com/a?b#c");
    assert.equal(checkUrl("HTTP://Example.COM:8080").href, "http://example.com:8080/");
  });

  it("refuses every other scheme, credentials and text that is no URL, in words", () => {
    for (const url of [
      "file:///etc/passwd",
      "data:text/plain,hi",
      "ftp://example.com/",
      "gopher://example.com/",
      "javascript:alert(1)",
      "ws://example.com/",
      "blob:https://example.com/x",
      "chrome://settings",
    ])
      refused(() => checkUrl(url), /reads http and https URLs only, not [a-z-]+:/);
    refused(() => checkUrl("https://user:pass@example.com/"), /does not send credentials/);
    refused(() => checkUrl("https://user@example.com/"), /does not send credentials/);
    for (const text of ["", "example.com", "/relative", "http://", "http://exa mple.com/"])
      refused(() => checkUrl(text), /is not a valid URL/);
  });

  it("follows 301, 302, 303, 307 and 308 only", () => {
    assert.deepEqual([300, 301, 302, 303, 304, 305, 307, 308, 200].filter(isRedirect), [301, 302, 303, 307, 308]);
  });

  it("resolves a relative Location against the URL that sent it", () => {
    const from = new URL("https://example.com/a/b?c");
    assert.equal(redirectTarget(from, "../d", [from]).href, "https://example.com/d");
    assert.equal(redirectTarget(from, "//other.example/x", [from]).href, "https://other.example/x");
    assert.equal(redirectTarget(from, "http://example.com/", [from]).href, "http://example.com/");
  });

  it("refuses a redirect without a Location, or to anything but http(s)", () => {
    const from = new URL("https://example.com/");
    refused(() => redirectTarget(from, null, [from]), /a redirect but no Location/);
    refused(() => redirectTarget(from, "", [from]), /a redirect but no Location/);
    refused(() => redirectTarget(from, "file:///etc/passwd", [from]), /not file:/);
    refused(() => redirectTarget(from, "http://u:p@example.com/", [from]), /credentials/);
    refused(() => redirectTarget(from, "http://[::1", [from]), /not a valid URL/);
  });

  it("names a loop as one, fragments aside", () => {
    const a = new URL("https://example.com/a");
    const b = new URL("https://example.com/b");
    refused(
      () => redirectTarget(b, "/a#top", [a, b]),
      /^redirect loop: https:\/\/example\.com\/b leads back to https:\/\/example\.com\/a#top$/,
    );
    refused(() => redirectTarget(a, "/a", [a]), /redirect loop/);
  });

  it("follows five redirects and refuses the sixth", () => {
    const visited = [new URL("https://example.com/0")];
    for (let hop = 1; hop <= MAX_REDIRECTS; hop++) visited.push(redirectTarget(visited.at(-1)!, `/${hop}`, visited));
    assert.equal(visited.length, MAX_REDIRECTS + 1);
    refused(
      () => redirectTarget(visited.at(-1)!, "/6", visited),
      /^too many redirects: more than 5, the last to https:\/\/example\.com\/6$/,
    );
  });
});
