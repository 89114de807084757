// The Access page's pure helpers: where passkeys can work (not on an IP address; the same page on
// localhost instead), VS Code's Open in Browser link, the password checks shown at their fields, and
// the short name of a session's browser.
import assert from "node:assert/strict";
import { browserLink, describeUserAgent, isIpHost, onLocalhost, passwordErrors } from "../../../webview/src/lib/access";

describe("Access page helpers", () => {
  it("tells IP addresses, which browsers refuse as a passkey's relying party, from host names", () => {
    for (const host of ["127.0.0.1", "192.168.1.20", "[::1]", "[fe80::1]"]) assert.equal(isIpHost(host), true, host);
    for (const host of ["localhost", "parley.example", "my-box.local", "1host.example"])
      assert.equal(isIpHost(host), false, host);
  });

  it("offers the same page on localhost for a loopback address, keeping port, path and hash", () => {
    assert.equal(onLocalhost("http://127.0.0.1:4317/#/settings/access"), "http://localhost:4317/#/settings/access");
    assert.equal(
      onLocalhost("http://[::1]:4317/proxy/x/?a=1#/settings/access"),
      "http://localhost:4317/proxy/x/?a=1#/settings/access",
    );
    assert.equal(
      onLocalhost("http://192.168.1.20:4317/"),
      "http://192.168.1.20:4317/",
      "localhost does not reach another machine",
    );
  });

  it("opens the page in a browser through the token link on localhost, the hash kept for after the redirect", () => {
    assert.equal(
      browserLink("http://127.0.0.1:4317", "a+b/c", "#/settings/access"),
      "http://localhost:4317/?token=a%2Bb%2Fc#/settings/access",
    );
    assert.equal(
      browserLink("https://code.example/proxy/4317/", "t", "#/settings/access"),
      "https://code.example/proxy/4317/?token=t#/settings/access",
    );
    assert.equal(browserLink("http://127.0.0.1:4317", undefined, "#/"), "http://localhost:4317/#/");
  });

  it("checks the password form field by field: length first, then the confirmation, and the current one once set", () => {
    assert.deepEqual(passwordErrors({ current: "", next: "short", confirm: "short" }, false), {
      next: "Use at least 12 characters (5 so far).",
    });
    assert.deepEqual(passwordErrors({ current: "", next: "long enough pw", confirm: "long enough pW" }, false), {
      confirm: "The two passwords differ.",
    });
    assert.deepEqual(passwordErrors({ current: "", next: "long enough pw", confirm: "long enough pw" }, false), {});
    assert.deepEqual(passwordErrors({ current: "", next: "long enough pw", confirm: "long enough pw" }, true), {
      current: "Enter the current password.",
    });
  });

  it("names a session's browser and system, and falls back to the string itself", () => {
    const chrome =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
    assert.equal(describeUserAgent(chrome), "Chrome 140 on Linux");
    assert.equal(
      describeUserAgent(`${chrome} Edg/140.0.0.0`.replace("X11; Linux x86_64", "Windows NT 10.0; Win64; x64")),
      "Edge 140 on Windows",
    );
    assert.equal(
      describeUserAgent("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0"),
      "Firefox 128 on macOS",
    );
    assert.equal(
      describeUserAgent(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      ),
      "Safari 17 on iOS",
    );
    assert.equal(describeUserAgent("curl/8.5.0"), "curl/8.5.0");
    assert.equal(describeUserAgent(""), "Unknown browser");
  });
});
