// The Sandbox service with real bubblewrap (contract 7.5): `shell` commands under each network
// setting against a loopback HTTP server (off: nothing; on: reached; a host list: only the listed name,
// through Parley's proxy), the settings' hidden paths, and the unchanged command where the sandbox is
// off. Skipped, with the reason, where no sandbox can run.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Sandbox } from "../../src/tools/sandbox/sandbox";
import { runShell } from "../../src/tools/shell";
import type { SandboxSettings } from "../../src/shared/sandbox";
import { makeTempDir, removeDir } from "../helpers/temp";

describe("the sandbox around shell", function () {
  this.timeout(60_000);
  let root: string;
  let project: string;
  let sandbox: Sandbox;
  let server: http.Server;
  let port: number;
  let hits: number;

  before(async function () {
    root = makeTempDir();
    project = path.join(root, "project");
    fs.mkdirSync(project);
    sandbox = new Sandbox({ appHome: path.join(root, "home") });
    const availability = await sandbox.availability();
    if (!availability.available || availability.kind !== "bwrap") {
      console.log(
        `      (skipped: no bubblewrap sandbox here: ${availability.available ? availability.kind : availability.reason})`,
      );
      removeDir(root);
      this.skip();
    }
    hits = 0;
    server = http.createServer((_request, response) => {
      hits++;
      response.end("served\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(() => {
    server?.close();
    if (root && fs.existsSync(root)) removeDir(root);
  });

  async function run(cmd: string, settings: Partial<SandboxSettings>, canBridge?: boolean) {
    const full: SandboxSettings = { mode: "on", network: "off", hide: [], ...settings };
    return runShell(
      { cmd },
      {
        root: project,
        signal: new AbortController().signal,
        sandbox: (command) =>
          sandbox.command({
            ...command,
            projectRoot: project,
            settings: full,
            ...(canBridge === false ? { canBridge } : {}),
          }),
      },
    );
  }

  // This Node by its path: the one on PATH may be another (a checkout under /tmp puts node_modules/.bin
  // under the sandbox's private /tmp, and the system's Node 20 does not follow the proxy variables).
  const curl = (host: string) =>
    `'${process.execPath}' -e 'fetch("http://${host}:${port}/").then((r) => r.text()).then((t) => console.log("GOT", t.trim(), process.env.HTTP_PROXY ?? "direct"), (e) => { console.log("FAILED", e.cause?.code ?? e.message); process.exit(1) })'`;

  it("reaches no loopback server with the network off, and the host's with it on", async () => {
    const before = hits;
    const off = await run(curl("127.0.0.1"), { network: "off" });
    assert.match(off.output, /FAILED ECONNREFUSED/);
    assert.equal(hits, before);
    const on = await run(curl("127.0.0.1"), { network: "on" });
    assert.match(on.output, /GOT served direct/);
    assert.equal(hits, before + 1);
  });

  it("reaches a listed host through Parley's proxy and nothing else", async () => {
    const before = hits;
    const listed = await run(`${curl("localhost")}; ${curl("127.0.0.1")}`, { network: ["localhost"] });
    // The command's own words in the message: a failure here under load must say what happened.
    assert.match(
      listed.output,
      /GOT served http:\/\/127\.0\.0\.1:3128/,
      `the listed name, through the proxy: ${listed.output}`,
    );
    assert.match(listed.output, /FAILED/, `an address that is not listed is refused: ${listed.output}`);
    assert.equal(hits, before + 1);
    // Bypassing the proxy finds no network at all.
    const bypass = await run(`env -u HTTP_PROXY -u http_proxy NODE_USE_ENV_PROXY= ${curl("localhost")}`, {
      network: ["localhost"],
    });
    assert.match(bypass.output, /FAILED (ECONNREFUSED|ENOTFOUND|EAI_AGAIN)/);
    assert.equal(hits, before + 1);
  });

  it("runs a host list with no network at all for a caller that cannot bridge to the proxy", async () => {
    const before = hits;
    const result = await run(
      `echo "proxy=\${HTTP_PROXY:-none}"; ${curl("localhost")}`,
      { network: ["localhost"] },
      false,
    );
    assert.match(result.output, /proxy=none/);
    assert.match(result.output, /FAILED/);
    assert.equal(hits, before);
  });

  it("hides the settings' paths, but not one inside the project", async () => {
    // Outside /tmp, which the sandbox replaces anyway: the setting must hide it on its own.
    const secret = fs.realpathSync(
      fs.mkdtempSync(path.join(fs.existsSync("/var/tmp") ? "/var/tmp" : root, "parley-keys-")),
    );
    try {
      fs.writeFileSync(path.join(secret, "key"), "s3cret");
      fs.writeFileSync(path.join(project, "notes.txt"), "visible");
      const read = `cat ${path.join(secret, "key")}; cat notes.txt`;
      assert.match((await run(read, {})).output, /s3cret/, "readable without the setting");
      const result = await run(read, { hide: [secret, path.join(project, "notes.txt")] });
      assert.match(result.output, /No such file or directory/);
      assert.doesNotMatch(result.output, /s3cret/);
      assert.match(result.output, /visible/);
    } finally {
      removeDir(secret);
    }
  });

  it("runs the command unchanged, with its own exit code, where the sandbox is off", async () => {
    const command = await sandbox.command({
      command: "/bin/sh",
      args: ["-c", "exit 3"],
      cwd: project,
      env: { PATH: process.env.PATH ?? "" },
      projectRoot: project,
      settings: { mode: "off", network: "off", hide: [] },
    });
    assert.deepEqual([command.command, command.args, command.status.sandboxed], ["/bin/sh", ["-c", "exit 3"], false]);
    const sandboxed = await run("exit 3", {});
    assert.equal(sandboxed.exitCode, 3, "the sandbox passes the command's exit code through");
  });
});
