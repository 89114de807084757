import assert from "node:assert/strict";
import { hideEntriesInside, sandboxSettingsSchema } from "../../../src/shared/sandbox";

const messages = (value: unknown) => {
  const parsed = sandboxSettingsSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
};

describe("sandbox settings", () => {
  it("accepts the modes, the network values and absolute paths to hide", () => {
    assert.deepEqual(messages({ mode: "on", network: "off", hide: ["/srv/secrets", "C:\\keys"] }), []);
    assert.deepEqual(messages({ mode: "off", network: "on" }), []);
    assert.deepEqual(messages({ network: ["registry.npmjs.org", "10.0.0.5", "localhost"] }), []);
    assert.deepEqual(messages({}), []);
  });

  it("normalises host names: case, spaces and a trailing dot", () => {
    const parsed = sandboxSettingsSchema.parse({ network: [" Registry.NPMjs.org. "] });
    assert.deepEqual(parsed.network, ["registry.npmjs.org"]);
  });

  it("refuses a wildcard in a host list and points to on", () => {
    for (const host of ["*", "*.github.com", "git*.com"]) {
      const [message] = messages({ network: [host] });
      assert.match(message!, /wildcard/);
      assert.match(message!, /"on"/);
    }
  });

  it("refuses hosts with a scheme, a port or a path, an empty list and unknown words", () => {
    for (const network of [["https://a.com"], ["a.com:443"], ["a.com/x"], [""], [], "some", ["-a.com"]])
      assert.ok(messages({ network }).length > 0, JSON.stringify(network));
  });

  it("refuses a relative path to hide, and the root of the file system", () => {
    assert.match(messages({ hide: ["secrets"] })[0]!, /absolute/);
    assert.match(messages({ hide: ["./x"] })[0]!, /absolute/);
    assert.match(messages({ hide: ["~/.ssh"] })[0]!, /absolute/);
    assert.match(messages({ hide: ["/"] })[0]!, /root/);
    assert.match(messages({ hide: ["//"] })[0]!, /root/);
    assert.match(messages({ hide: ["C:\\"] })[0]!, /root/);
  });

  it("refuses unknown keys and other modes", () => {
    assert.ok(messages({ mode: "auto" }).length > 0);
    assert.ok(messages({ hidden: ["/x"] }).length > 0);
  });
});

describe("hidden paths inside the project", () => {
  it("finds the project itself and anything under it, however spelled", () => {
    assert.deepEqual(
      hideEntriesInside(
        ["/p/app", "/p/app/", "/p/app/.env", "/p/app/../app/x", "/p/application", "/p", "/q"],
        "/p/app",
      ),
      ["/p/app", "/p/app/", "/p/app/.env", "/p/app/../app/x"],
    );
  });
});
