// The sandbox's settings over real HTTP (contract 7.5, 7.1): what a PATCH refuses, what an untrusted
// repository may and may not change, the catalog's `sandboxed` flag, and `shell`'s gate on a machine
// without a sandbox (an `allow` asks).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { projectQuery } from "../helpers/test-server";
import { readEvents } from "../helpers/sse";

type CatalogRow = { name: string; gate: string; sandboxed?: boolean; sandboxReason?: string };

describe("sandbox settings", function () {
  this.timeout(30_000);
  let f: ChatFixture;
  const shellRow = async (): Promise<CatalogRow> => {
    const rows: CatalogRow[] = await (
      await f.s.api("GET", `/api/tools/catalog?${projectQuery(f.s.projectDir)}`)
    ).json();
    return rows.find((row) => row.name === "shell")!;
  };
  const patchProject = (body: unknown) =>
    f.s.api("PATCH", `/api/settings/project?${projectQuery(f.s.projectDir)}`, body);

  describe("on a machine with a sandbox", () => {
    beforeEach(async () => {
      f = await startChatFixture({
        sandboxProbe: async () => ({ available: true, kind: "bwrap", executable: "/usr/bin/bwrap" }),
      });
    });
    afterEach(() => f.stop());

    it("saves mode, network and hide on both layers and marks shell sandboxed in the catalog", async () => {
      const app = await f.s.api("PATCH", "/api/settings/app", {
        sandbox: { mode: "on", network: ["Registry.npmjs.org"], hide: ["/srv/keys"] },
      });
      assert.equal(app.status, 200);
      assert.deepEqual((await app.json()).sandbox, {
        mode: "on",
        network: ["registry.npmjs.org"],
        hide: ["/srv/keys"],
      });
      assert.equal((await patchProject({ sandbox: { network: "off" } })).status, 200);
      const resolved = await (await f.s.api("GET", `/api/settings/resolved?${projectQuery(f.s.projectDir)}`)).json();
      assert.equal(resolved.settings.sandbox.network, "off");
      const row = await shellRow();
      assert.deepEqual([row.sandboxed, row.sandboxReason], [true, undefined]);
      // `null` resets one key to the inherited value.
      assert.equal((await patchProject({ sandbox: { network: null } })).status, 200);
    });

    it("answers 400 for a relative path, /, a path inside the project, and a wildcard host", async () => {
      const refused = async (body: unknown, pattern: RegExp, project = true) => {
        const res = project ? await patchProject(body) : await f.s.api("PATCH", "/api/settings/app", body);
        assert.equal(res.status, 400, JSON.stringify(body));
        const error = await res.json();
        assert.equal(error.error.code, "invalid_request");
        assert.match(JSON.stringify(error), pattern);
      };
      await refused({ sandbox: { hide: ["secrets"] } }, /absolute/);
      await refused({ sandbox: { hide: ["secrets"] } }, /absolute/, false);
      await refused({ sandbox: { hide: ["/"] } }, /root of the file system/);
      await refused({ sandbox: { hide: [path.join(f.s.projectDir, ".env")] } }, /inside it/);
      await refused({ sandbox: { hide: [f.s.projectDir] } }, /inside it/);
      await refused({ sandbox: { network: ["*"] } }, /wildcard.*\\"on\\"/);
      await refused({ sandbox: { network: ["*.github.com"] } }, /wildcard/, false);
      await refused({ sandbox: { mode: "sometimes" } }, /mode/);
      await refused({ sandbox: { hidden: ["/x"] } }, /hidden/);
      const settings = await (await f.s.api("GET", `/api/settings/project?${projectQuery(f.s.projectDir)}`)).json();
      assert.equal(settings.project.sandbox, undefined, "nothing was saved");
    });

    it("lets an untrusted repository tighten the sandbox but not switch it off, until the user trusts it", async () => {
      fs.writeFileSync(
        path.join(f.s.projectDir, ".app.json"),
        JSON.stringify({ sandbox: { mode: "off", network: "on" } }),
      );
      assert.equal((await shellRow()).sandboxed, true, "mode off from an untrusted repository counts as on");
      const state = await (await f.s.api("GET", `/api/projects/${f.projectId}/trust`)).json();
      assert.equal(state.trusted, false);
      assert.deepEqual(
        state.covers.map((item: { kind: string; summary: string }) => [item.kind, item.summary]),
        [
          ["sandbox", "sandbox.mode: off"],
          ["sandbox", "sandbox.network: on"],
        ],
      );
      assert.equal((await f.s.api("POST", `/api/projects/${f.projectId}/trust`, { trusted: true })).status, 200);
      const trusted = await shellRow();
      assert.equal(trusted.sandboxed, false);
      assert.match(trusted.sandboxReason!, /sandbox\.mode/);
    });
  });

  describe("on a machine without a sandbox", () => {
    beforeEach(async () => {
      f = await startChatFixture({
        sandboxProbe: async () => ({ available: false, reason: "bubblewrap is not installed" }),
      });
    });
    afterEach(() => f.stop());

    it("marks shell not sandboxed with the reason, and makes its allow gate ask", async () => {
      assert.equal((await patchProject({ toolGates: { shell: "allow", task: "allow" } })).status, 200);
      const row = await shellRow();
      assert.deepEqual([row.sandboxed, row.sandboxReason, row.gate], [false, "bubblewrap is not installed", "ask"]);

      const marker = path.join(f.s.projectDir, "ran.txt");
      const chat = await newChat(f, { modelId: "fake/tools" });
      const events = await readEvents(await send(f, chat.id, { content: "shell: touch ran.txt" }), (e) => {
        if (e.event === "tool.approval")
          void f.s.api("POST", `/api/chats/${chat.id}/approvals/${e.data.callId}`, { decision: "allow" });
      });
      assert.ok(
        events.some((e) => e.event === "tool.approval"),
        "the call asked",
      );
      assert.ok(fs.existsSync(marker), "and ran once allowed");
    });
  });
});
