import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "../../src/platform/db";
import { CLI, runCli, startCli } from "../helpers/cli-process";
import { makeTempDir, removeDir } from "../helpers/temp";
import { until, within } from "../helpers/poll";
import { watcherProcesses } from "../helpers/processes";

/**
 * How long a test waits for `parley serve` to end after SIGTERM before it fails: a guard, not the
 * claim (it stops within 5 s: `npm run bench -- extension`, extension.sigterm_to_exit*).
 */
const EXIT_GUARD_MS = 15_000;

describe("parley serve (process)", function () {
  this.timeout(30_000);
  let root: string;
  beforeEach(() => (root = makeTempDir()));
  afterEach(() => removeDir(root));

  it("prints exactly one JSON ready line, logs where it listens but never the token (stderr is not a terminal here), and stops on SIGTERM with 0", async () => {
    const project = path.join(root, "proj");
    fs.mkdirSync(project);
    const cli = await startCli(["serve", "--project", project, "--home", path.join(root, "home"), "--port", "0"]);
    assert.deepEqual(Object.keys(cli.ready), ["url", "token", "home", "projects"]);
    assert.match(cli.ready.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(cli.ready.home, path.join(root, "home"));
    assert.deepEqual(
      cli.ready.projects.map((p) => p.dir),
      [project],
    );
    assert.ok(cli.stderr().includes(`is ready at ${cli.ready.url}`));
    assert.ok(!cli.stderr().includes(cli.ready.token), "no token in a captured log");
    const projects = await (
      await fetch(`${cli.ready.url}/api/projects`, { headers: { authorization: `Bearer ${cli.ready.token}` } })
    ).json();
    assert.equal(projects[0].id, cli.ready.projects[0]!.id);

    cli.child.kill("SIGTERM");
    assert.equal(await within(cli.exited, EXIT_GUARD_MS, "still running"), 0);
    assert.match(cli.stderr(), /SIGTERM received, shutting down/);
    assert.equal(cli.stdout().trim().split("\n").length, 1, "nothing else on stdout");
  });

  it("shows the login link to a person at a real terminal (a pseudo-terminal from util-linux `script`)", async function () {
    if (spawnSync("script", ["--version"]).status !== 0) {
      console.log("      (skipped: util-linux `script` is not installed)");
      this.skip();
    }
    // `script` runs the server on a pseudo-terminal: stdout and stderr are that terminal, as in a
    // shell. The server leads a session of its own there, and ends with it: when `script` goes, the
    // terminal hangs up (SIGHUP).
    const command = [process.execPath, CLI, "serve", "--port", "0", "--home", path.join(root, "home")]
      .map((a) => `'${a}'`)
      .join(" ");
    const child = spawn("script", ["-qfec", command, "/dev/null"], { stdio: ["pipe", "pipe", "ignore"] });
    const scriptClosed = new Promise((resolve) => child.once("close", resolve));
    let screen = "";
    child.stdout.on("data", (d) => (screen += d));
    let url: string | undefined;
    try {
      await until(
        () => screen,
        (text) => /"token":"[^"]+"/.test(text) && /Open http\S+/.test(text),
        "the ready line and the link on the terminal",
        20_000,
      );
      const token = /"token":"([^"]+)"/.exec(screen)![1]!;
      url = /"url":"([^"]+)"/.exec(screen)![1]!;
      assert.ok(screen.includes(`Open ${url}/?token=${encodeURIComponent(token)}`));
    } finally {
      child.kill("SIGKILL");
      await scriptClosed;
    }
    // Gone before afterEach removes its home folder.
    const gone = () =>
      fetch(`${url}/api/health`).then(
        () => false,
        () => true,
      );
    await until(gone, (isGone) => isGone, "the server ends with its terminal", 10_000);
  });

  it("stops with 0 on SIGTERM while the file watcher is still walking a big project, and leaves no watcher behind", async function () {
    this.timeout(180_000);
    // Enough files that subscribing the watcher (a walk of the whole tree in native threads, which
    // nothing inside a process can interrupt) takes seconds; it starts right behind the first search's answer.
    const project = path.join(root, "big");
    for (let d = 0; d < 400; d++) {
      const dir = path.join(project, `d${d}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 100; f++) fs.closeSync(fs.openSync(path.join(dir, `f${f}.ts`), "w"));
    }
    const cli = await startCli(["serve", "--project", project, "--home", path.join(root, "home"), "--port", "0"]);
    const search = await fetch(`${cli.ready.url}/api/mentions/search?projectDir=${encodeURIComponent(project)}&q=f1`, {
      headers: { authorization: `Bearer ${cli.ready.token}` },
    });
    assert.equal(search.status, 200);
    await search.arrayBuffer();
    // The watcher's process names its folder in its arguments.
    await until(
      () => watcherProcesses(project),
      (pids) => pids.length > 0,
      "a watcher process for the project",
      20_000,
    );

    cli.child.kill("SIGTERM");
    assert.equal(await within(cli.exited, EXIT_GUARD_MS, "still running"), 0);
    assert.doesNotMatch(cli.stderr(), /FATAL|napi_throw/);
    await until(
      () => watcherProcesses(project),
      (pids) => pids.length === 0,
      "no watcher process left",
    );
  });

  it("stops with 0 on SIGTERM even while an event stream is open", async () => {
    const cli = await startCli(["serve", "--home", path.join(root, "home"), "--port", "0"]);
    const res = await fetch(`${cli.ready.url}/api/events`, { headers: { authorization: `Bearer ${cli.ready.token}` } });
    const reader = res.body!.getReader();
    await reader.read();
    cli.child.kill("SIGTERM");
    assert.equal(await within(cli.exited, EXIT_GUARD_MS, "still running"), 0);
  });

  it("uses APP_HOME when --home is absent", async () => {
    const home = path.join(root, "env-home");
    const cli = await startCli(["serve", "--port", "0"], { APP_HOME: home });
    assert.equal(cli.ready.home, home);
    assert.ok(fs.existsSync(path.join(home, "store.sqlite")));
    cli.child.kill("SIGTERM");
    await cli.exited;
  });

  it("picks 4317 or the next free port above it when --port is absent", async () => {
    const first = await startCli(["serve", "--home", path.join(root, "h1")]);
    const second = await startCli(["serve", "--home", path.join(root, "h2")]);
    const [p1, p2] = [Number(new URL(first.ready.url).port), Number(new URL(second.ready.url).port)];
    assert.ok(p1 >= 4317 && p2 > 4317 && p1 !== p2, `${p1} ${p2}`);
    for (const cli of [first, second]) cli.child.kill("SIGTERM");
    await Promise.all([first.exited, second.exited]);
  });

  for (const [label, args] of [
    ["an unknown flag", ["serve", "--frobnicate"]],
    ["a bad port", ["serve", "--port", "http"]],
    ["a --project that is not a directory", ["serve", "--project", "/definitely/not/a/dir", "--port", "0"]],
    ["an unknown command", ["launch"]],
  ] as const) {
    it(`exits 2 with one clear stderr line for ${label}`, async () => {
      const result = await runCli([...args, "--home", path.join(root, "home")]);
      assert.equal(result.code, 2);
      assert.equal(result.stdout, "");
      assert.equal(result.stderr.trim().split("\n").length, 1);
      assert.match(result.stderr, /^parley: /);
    });
  }

  it("exits 2 when the home folder cannot be created", async () => {
    const blocker = path.join(root, "a-file");
    fs.writeFileSync(blocker, "x");
    const result = await runCli(["serve", "--home", path.join(blocker, "home"), "--port", "0"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^parley: the home folder .* cannot be created/);
  });

  it("logs the quarantine key of damaged app settings at start and keeps serving", async () => {
    const home = path.join(root, "home");
    const db = openDatabase(path.join(home, "store.sqlite"));
    db.prepare(
      "INSERT INTO app_kv (key, value, created_at, updated_at) VALUES ('settings', '[not, an, object', 'x', 'x')",
    ).run();
    db.close();
    const cli = await startCli(["serve", "--home", home, "--port", "0"]);
    assert.match(cli.stderr(), /settings\.corrupt-\d+-[0-9a-f]+/);
    const res = await fetch(`${cli.ready.url}/api/settings/app/quarantine`, {
      headers: { authorization: `Bearer ${cli.ready.token}` },
    });
    assert.equal((await res.json())[0].value, "[not, an, object");
    cli.child.kill("SIGTERM");
    assert.equal(await cli.exited, 0);
  });
});
