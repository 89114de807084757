import assert from "node:assert/strict";
import type { McpServerEntry } from "../../../../src/shared/settings";
import type { SandboxSettings } from "../../../../src/shared/sandbox";
import type { McpServerConfig } from "../../../../src/tools/mcp/server-config";
import {
  networkNote,
  serverSandboxSettings,
  serverSandboxStatus,
  serverWritableFolder,
  startFailureHint,
  withSandbox,
} from "../../../../src/tools/mcp/server-sandbox";
import type { SandboxAvailability } from "../../../../src/tools/sandbox/sandbox-rules";

const USER: SandboxSettings = { mode: "on", network: "off", hide: ["/srv/keys"] };
const PROJECT: SandboxSettings = { mode: "on", network: "on", hide: ["/srv/keys", "/srv/other"] };
const BWRAP: SandboxAvailability = { available: true, kind: "bwrap", executable: "/usr/bin/bwrap" };
const NONE: SandboxAvailability = { available: false, reason: "bubblewrap is not installed" };

function config(entry: Partial<McpServerEntry> = {}, scope: "app" | "project" = "app"): McpServerConfig {
  return {
    entry: { id: "srv", transport: "stdio", command: "node", ...entry } as McpServerEntry,
    scope,
    fingerprint: "f0",
  };
}

describe("where a stdio MCP server runs", () => {
  it("gives an app server the user's settings and a project server the project's, the entry's own on top", () => {
    assert.deepEqual(serverSandboxSettings(config(), USER, PROJECT), USER);
    assert.deepEqual(serverSandboxSettings(config({}, "project"), USER, PROJECT), PROJECT);
    assert.deepEqual(serverSandboxSettings(config({ sandbox: { network: "on" } }), USER, PROJECT), {
      ...USER,
      network: "on",
    });
    assert.deepEqual(serverSandboxSettings(config({ sandbox: { mode: "off" } }, "project"), USER, PROJECT), {
      ...PROJECT,
      mode: "off",
    });
  });

  it("has nothing to say of a remote server: no process runs here", () => {
    const remote = withSandbox(config({ transport: "http", url: "http://x/mcp", command: undefined }), USER, PROJECT);
    assert.equal(remote.sandbox, undefined);
    assert.equal(remote.fingerprint, "f0");
    assert.equal(serverSandboxStatus(remote, BWRAP), undefined);
  });

  it("changes a stdio server's fingerprint with its sandbox settings, so a change restarts it", () => {
    const a = withSandbox(config(), USER, PROJECT);
    assert.notEqual(a.fingerprint, "f0");
    assert.equal(withSandbox(config(), USER, PROJECT).fingerprint, a.fingerprint, "stable");
    assert.notEqual(withSandbox(config(), { ...USER, network: "on" }, PROJECT).fingerprint, a.fingerprint);
    assert.notEqual(withSandbox(config(), { ...USER, hide: [] }, PROJECT).fingerprint, a.fingerprint);
    // An app server does not depend on the project it was started for.
    assert.equal(withSandbox(config(), USER, { ...PROJECT, network: "off" }).fingerprint, a.fingerprint);
  });

  it("says sandboxed, or why not: no sandbox here, off in the settings, off for this server", () => {
    const status = (entry: Partial<McpServerEntry>, user: SandboxSettings, availability?: SandboxAvailability) =>
      serverSandboxStatus(withSandbox(config(entry), user, PROJECT), availability);
    assert.deepEqual(status({}, USER, BWRAP), { sandboxed: true });
    assert.deepEqual(status({}, USER, NONE), { sandboxed: false, reason: "bubblewrap is not installed" });
    assert.match(status({}, { ...USER, mode: "off" }, BWRAP)!.reason!, /sandbox\.mode/);
    assert.match(status({ sandbox: { mode: "off" } }, USER, BWRAP)!.reason!, /off for this server/);
    assert.equal(status({}, USER, undefined)!.sandboxed, false);
  });

  it("lets a project server write its project, an app server only the folder it names (not / nor one holding the home)", () => {
    const facts = { projectDir: "/home/ana/code/app", cwd: "/home/ana/notes", userHome: "/home/ana" };
    assert.deepEqual(serverWritableFolder(config({}, "project"), facts), { folder: "/home/ana/code/app" });
    assert.deepEqual(serverWritableFolder(config(), facts), {}, "no cwd of its own: nothing");
    assert.deepEqual(serverWritableFolder(config({ cwd: "~/notes" }), facts), { folder: "/home/ana/notes" });
    for (const cwd of ["/", "/home", "/home/ana"]) {
      const writable = serverWritableFolder(config({ cwd }), { ...facts, cwd });
      assert.equal(writable.folder, undefined, cwd);
      assert.match(writable.note!, /holds your home folder/);
    }
  });

  it("warns that a host list means no network for a stdio server on Linux only", () => {
    assert.match(networkNote({ ...USER, network: ["registry.npmjs.org"] }, "bwrap")!, /no network on Linux/);
    assert.equal(networkNote({ ...USER, network: ["registry.npmjs.org"] }, "seatbelt"), undefined);
    assert.equal(networkNote(USER, "bwrap"), undefined);
  });

  it("hints at the network after a failed start only for a sandboxed server without it", () => {
    const off = withSandbox(config(), USER, PROJECT);
    assert.match(startFailureHint(off, { sandboxed: true }), /with no network.*sandbox network "on"/);
    assert.match(
      startFailureHint(withSandbox(config(), { ...USER, network: ["a.example"] }, PROJECT), { sandboxed: true }),
      /only the listed hosts/,
    );
    assert.equal(
      startFailureHint(withSandbox(config({ sandbox: { network: "on" } }), USER, PROJECT), { sandboxed: true }),
      "",
    );
    assert.equal(startFailureHint(off, { sandboxed: false, reason: "x" }), "");
  });
});
