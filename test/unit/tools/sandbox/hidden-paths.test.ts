import assert from "node:assert/strict";
import { hiddenPaths } from "../../../../src/tools/sandbox/hidden-paths";

describe("the paths a sandboxed command never sees", () => {
  const base = { userHome: "/home/ana", appHome: "/home/ana/.app", platform: "linux" as const };

  it("hides Parley's home first, then the credential folders the contract names, and browser profiles", () => {
    const paths = hiddenPaths(base);
    assert.equal(paths[0], "/home/ana/.app");
    for (const name of [".ssh", ".gnupg", ".aws", ".config/gcloud", ".kube", ".docker", ".netrc", ".npmrc"])
      assert.ok(paths.includes(`/home/ana/${name}`), name);
    for (const name of [".mozilla", ".config/google-chrome", ".config/chromium"])
      assert.ok(paths.includes(`/home/ana/${name}`), name);
    // What git pushes with.
    assert.ok(paths.includes("/home/ana/.git-credentials"));
    assert.ok(paths.includes("/home/ana/.config/gh"));
  });

  it("adds other Parley homes and the settings' paths, once each, normalised", () => {
    const paths = hiddenPaths({
      ...base,
      otherAppHomes: ["/srv/parley", "/home/ana/.app"],
      extra: ["/srv/secrets/", "/srv/../srv/secrets", "/home/ana/.ssh"],
    });
    assert.equal(paths.filter((p) => p === "/home/ana/.app").length, 1);
    assert.equal(paths.filter((p) => p === "/srv/secrets").length, 1);
    assert.equal(paths.filter((p) => p === "/home/ana/.ssh").length, 1);
    assert.ok(paths.includes("/srv/parley"));
  });

  it("uses the macOS places of browser profiles and the keychain there", () => {
    const paths = hiddenPaths({ ...base, userHome: "/Users/ana", appHome: "/Users/ana/.app", platform: "darwin" });
    assert.ok(paths.includes("/Users/ana/Library/Application Support/Google/Chrome"));
    assert.ok(paths.includes("/Users/ana/Library/Keychains"));
    assert.ok(!paths.includes("/Users/ana/.mozilla"));
    assert.ok(paths.includes("/Users/ana/.ssh"));
  });
});
