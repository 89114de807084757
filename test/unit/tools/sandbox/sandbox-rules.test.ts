import assert from "node:assert/strict";
import {
  sandboxedGates,
  sandboxSettings,
  sandboxStatus,
  stricterNetwork,
  type SandboxAvailability,
} from "../../../../src/tools/sandbox/sandbox-rules";

const AVAILABLE: SandboxAvailability = { available: true, kind: "bwrap", executable: "/usr/bin/bwrap" };
const MISSING: SandboxAvailability = { available: false, reason: "bubblewrap is not installed" };

describe("the sandbox settings in force", () => {
  it("defaults to on, no network, nothing extra hidden", () => {
    assert.deepEqual(sandboxSettings(undefined, undefined, true), { mode: "on", network: "off", hide: [] });
    assert.deepEqual(sandboxSettings(undefined, undefined, false), { mode: "on", network: "off", hide: [] });
  });

  it("takes a trusted project's values over the user's, key by key", () => {
    assert.deepEqual(sandboxSettings({ mode: "on", network: ["a.com"] }, { mode: "off", network: "on" }, true), {
      mode: "off",
      network: "on",
      hide: [],
    });
    assert.deepEqual(sandboxSettings({ mode: "off", network: "on" }, { mode: "on" }, true), {
      mode: "on",
      network: "on",
      hide: [],
    });
  });

  it("lets an untrusted project tighten, never loosen: off and network on count as the user's values", () => {
    assert.deepEqual(sandboxSettings(undefined, { mode: "off", network: "on" }, false), {
      mode: "on",
      network: "off",
      hide: [],
    });
    assert.deepEqual(sandboxSettings({ mode: "off", network: "on" }, { mode: "on", network: "off" }, false), {
      mode: "on",
      network: "off",
      hide: [],
    });
    assert.deepEqual(sandboxSettings({ network: "on" }, { network: ["registry.npmjs.org"] }, false).network, [
      "registry.npmjs.org",
    ]);
    assert.equal(sandboxSettings({ network: ["a.com"] }, { network: "on" }, false).network.toString(), "a.com");
  });

  it("adds up hidden paths from both layers, trusted or not: a project never un-hides the user's", () => {
    for (const trusted of [true, false])
      assert.deepEqual(sandboxSettings({ hide: ["/srv/a", "/srv/b"] }, { hide: ["/srv/b", "/srv/c"] }, trusted).hide, [
        "/srv/a",
        "/srv/b",
        "/srv/c",
      ]);
  });

  it("orders networks off < host list < on; two lists keep the hosts both allow", () => {
    assert.equal(stricterNetwork("on", undefined), "on");
    assert.equal(stricterNetwork("on", "off"), "off");
    assert.equal(stricterNetwork("off", "on"), "off");
    assert.equal(stricterNetwork("off", ["a.com"]), "off");
    assert.deepEqual(stricterNetwork("on", ["a.com"]), ["a.com"]);
    assert.deepEqual(stricterNetwork(["a.com"], "on"), ["a.com"]);
    assert.deepEqual(stricterNetwork(["a.com", "b.com"], ["b.com", "c.com"]), ["b.com"]);
    assert.equal(stricterNetwork(["a.com"], ["c.com"]), "off");
  });
});

describe("whether shell runs sandboxed", () => {
  it("is sandboxed when the machine can and the settings say on; otherwise says why", () => {
    assert.deepEqual(sandboxStatus({ mode: "on", network: "off", hide: [] }, AVAILABLE), { sandboxed: true });
    assert.deepEqual(sandboxStatus({ mode: "on", network: "off", hide: [] }, MISSING), {
      sandboxed: false,
      reason: "bubblewrap is not installed",
    });
    assert.match(sandboxStatus({ mode: "off", network: "off", hide: [] }, AVAILABLE).reason!, /sandbox\.mode/);
  });

  it("makes an allow gate of shell ask where no sandbox is available, and changes nothing else", () => {
    assert.deepEqual(sandboxedGates({ shell: "allow", file: "allow" }, MISSING), { shell: "ask", file: "allow" });
    assert.deepEqual(sandboxedGates({ shell: "off" }, MISSING), { shell: "off" });
    assert.deepEqual(sandboxedGates({}, MISSING), {});
    const gates = { shell: "allow" as const };
    assert.equal(sandboxedGates(gates, AVAILABLE), gates);
  });
});
