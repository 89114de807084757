import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generatePaths } from "../../bench/path-generator";
import { processWatch } from "../../src/mentions/file-watcher";
import type { HeldBody } from "../../src/mentions/mention-worker";
import { ProjectFiles } from "../../src/mentions/file-index";
import { SKIPPED_DIRS } from "../../src/mentions/project-scan";
import { until } from "../helpers/poll";
import { threadNices, watcherProcesses } from "../helpers/processes";
import { makeTempDir, removeDir } from "../helpers/temp";
import { startTestServer, type TestServer } from "../helpers/test-server";

function write(root: string, rel: string, content = "x\n") {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
}

/** A few thousand empty files with long paths: their scan's body is several parts (a part is 1 MiB). */
function writeLongPaths(root: string): string[] {
  const deep = "packages/a-rather-long-package-name/src/components/with-a-long-folder-name/and-another-one-below/";
  const names = Array.from({ length: 5000 }, (_, n) => `${deep.repeat(2)}component-with-a-long-name-${n}.tsx`);
  for (const name of names) write(root, name, "");
  return names;
}

/** Waits until `probe` gives something (not undefined). */
async function eventually<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  return (await until(probe, (value) => value !== undefined, "timed out", ms))!;
}

describe("mentions off the main thread", () => {
  let s: TestServer;
  const search = async (q: string, extra = "") =>
    (await (
      await s.api(
        "GET",
        `/api/mentions/search?projectDir=${encodeURIComponent(s.projectDir)}&q=${encodeURIComponent(q)}&category=files${extra}`,
      )
    ).json()) as { insertText: string }[];
  afterEach(() => s?.stop().catch(() => {}));
  /** A server with one project of one file, searched once (so it is scanned, indexed and watched). */
  const serveOneFile = async () => {
    s = await startTestServer();
    write(s.projectDir, "src/alpha.ts");
    await s.api("POST", "/api/projects", { dir: s.projectDir });
    assert.ok((await search("alpha")).length > 0);
  };
  /** The project's watcher process, once it has one. */
  const watcherPid = async (what = "a watcher process") =>
    (
      await until(
        () => s.runtime.mentionEngine.stats(),
        (stats) => stats.projects[0]?.watcherPid !== undefined,
        what,
        20_000,
      )
    ).projects[0]!.watcherPid!;

  it("keeps answering the health route while the first 60k-file search and a scan run", async function () {
    // How fast it answers meanwhile is measured by `npm run bench -- mentions` (mentions.health_while_busy).
    this.timeout(180_000);
    const tree = makeTempDir();
    try {
      for (const p of generatePaths(60_000, 3)) write(tree, p);
      s = await startTestServer();
      fs.rmSync(s.projectDir, { recursive: true, force: true });
      fs.symlinkSync(tree, s.projectDir);
      const projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
      // The first search waits for the project's scan and index (60k files, in the worker); a tag scan
      // runs beside it.
      let searched = false;
      const work = Promise.all([
        search("userController").finally(() => (searched = true)),
        s.api("POST", `/api/projects/${projectId}/tags/scan`).then((r) => r.arrayBuffer()),
      ]);
      // Health requests one after another, each sent once the one before has its answer, until five
      // have been answered while the search was still under way (or it ended first).
      let answeredDuringSearch = 0;
      while (!searched && answeredDuringSearch < 5) {
        assert.equal((await s.api("GET", "/api/health")).status, 200);
        if (!searched) answeredDuringSearch++;
      }
      assert.equal(answeredDuringSearch, 5, "the health route answers while the first search runs");
      const [results, scanBytes] = await work;
      const scan = JSON.parse(Buffer.from(scanBytes).toString()) as { files: unknown[] };
      assert.ok(results.length > 0);
      assert.ok(scan.files.length >= 60_000);
      // An index this big ranks on two threads: the worker's helper holds half of it.
      const helper = (await s.runtime.mentionEngine.stats()).rankingHelper;
      assert.ok(
        helper && helper.external > 60_000 * 8,
        `the ranking helper holds half the index: ${JSON.stringify(helper)}`,
      );
    } finally {
      // Stop watching before the tree goes (60k deletions are not this test's business).
      await s.runtime.mentionEngine.close();
      await s.stop();
      removeDir(tree);
    }
  });

  it("runs the worker's scans and index builds below the main thread's priority (Linux)", async function () {
    if (process.platform !== "linux") this.skip();
    await serveOneFile();
    const { priority } = await s.runtime.mentionEngine.stats();
    // A higher nice value yields the CPU to the main thread (streams, health) on a busy machine.
    assert.equal(typeof priority, "number");
    assert.ok(priority! > os.getPriority(0), `worker nice ${priority}, main thread nice ${os.getPriority(0)}`);
    assert.equal(os.getPriority(process.pid), os.getPriority(0), "the main thread keeps its priority");
    // So do the process's helper threads (garbage collection, libuv's pool for the scan's reads),
    // which on two cores otherwise keep the main thread waiting for one.
    const helpers = threadNices(process.pid, ["V8Worker", "libuv-worker"]);
    assert.ok(
      helpers.length > 0 && helpers.every((nice) => nice === priority),
      `helper threads' nice values ${helpers}`,
    );
  });

  it("watches each project from a low-priority child process, which closing the project ends (Linux)", async function () {
    if (process.platform !== "linux") this.skip();
    await serveOneFile();
    const pid = await watcherPid();
    assert.notEqual(pid, process.pid);
    // Every thread of it, the native walk's included, yields the CPU to the server.
    const nices = threadNices(pid);
    assert.ok(
      nices.length > 1 && nices.every((nice) => nice > os.getPriority(0)),
      `watcher threads' nice values ${nices}`,
    );
    await s.runtime.mentionEngine.close();
    await until(
      () => fs.existsSync(`/proc/${pid}`),
      (alive) => !alive,
      "the watcher process ends",
    );
  });

  it("gives up a watcher still starting (its first walk): its process ends and the subscription rejects", async function () {
    if (process.platform !== "linux") this.skip();
    const tree = makeTempDir();
    try {
      for (let d = 0; d < 50; d++) write(tree, `d${d}/f.ts`, "");
      const closing = new AbortController();
      const subscribing = processWatch()(tree, {
        ignoredDirNames: [],
        onEvents: () => {},
        onLost: () => {},
        signal: closing.signal,
      });
      const [pid] = await until(
        () => watcherProcesses(tree),
        (pids) => pids.length === 1,
        "a watcher process",
      );
      closing.abort();
      await assert.rejects(subscribing, /closed/);
      await until(
        () => fs.existsSync(`/proc/${pid}`),
        (alive) => !alive,
        "the watcher process ends",
        2_000,
      );
    } finally {
      removeDir(tree);
    }
  });

  it("watches no skipped folder at any depth (node_modules, .git, …), one made after the start included", async function () {
    if (process.platform !== "linux") this.skip();
    const tree = makeTempDir();
    const closing = new AbortController();
    try {
      for (const dir of ["src", "node_modules/pkg/lib", "a/b/node_modules/x", "a/.git/objects", "node_modules_x"])
        fs.mkdirSync(path.join(tree, dir), { recursive: true });
      const seen = new Set<string>();
      const watcher = await processWatch()(tree, {
        ignoredDirNames: [...SKIPPED_DIRS],
        onEvents: (events) => events.forEach((e) => seen.add(path.relative(tree, e.path))),
        onLost: () => {},
        signal: closing.signal,
      });
      try {
        fs.mkdirSync(path.join(tree, "src/node_modules/late"), { recursive: true });
        // The watcher has taken in the new folder (and would watch it by now) once it reports a file
        // written after it: its events come in order.
        write(tree, "src/after-the-folder.ts");
        await until(
          async () => seen,
          (paths) => paths.has("src/after-the-folder.ts"),
          "the event of a file written after the new folder",
        );
        for (const file of [
          "node_modules/pkg/lib/a.js",
          "a/b/node_modules/x/b.js",
          "a/.git/objects/c",
          "node_modules/d.js",
          "src/node_modules/late/e.js",
          "node_modules_x/f.js",
          "src/g.ts",
        ])
          write(tree, file);
        await until(
          async () => seen,
          (paths) => paths.has("src/g.ts") && paths.has("node_modules_x/f.js"),
          "the events of watched folders",
        );
        // Whatever the writes above made the watcher report has come before the event of a later file.
        write(tree, "src/last.ts");
        await until(
          async () => seen,
          (paths) => paths.has("src/last.ts"),
          "the event of the last file",
        );
        assert.deepEqual(
          [...seen].filter((p) => /(^|\/)(node_modules|\.git)(\/|$)/.test(p)),
          [],
        );
      } finally {
        await watcher.unsubscribe();
      }
    } finally {
      removeDir(tree);
    }
  });

  it("keeps the index when a rescan finds the same files (the walk after the watcher starts, a stale list)", async () => {
    const tree = makeTempDir();
    const files = new ProjectFiles(tree);
    try {
      write(tree, "src/alpha.ts");
      const first = await files.mentions([]);
      await files.rescan();
      assert.equal(await files.mentions([]), first, "the same index, not a rebuild");
      write(tree, "src/beta.ts");
      await files.rescan();
      const rebuilt = await eventually(async () => {
        const record = await files.mentions([]);
        return record === first ? undefined : record;
      });
      assert.ok(rebuilt.files.files.some((f) => f.path === "src/beta.ts"));
    } finally {
      await files.close();
      removeDir(tree);
    }
  });

  it("closing a project gives up its watcher's start", async () => {
    const tree = makeTempDir();
    try {
      write(tree, "src/alpha.ts");
      let signal: AbortSignal | undefined;
      // A watcher whose first walk never ends, as at a million files.
      const files = new ProjectFiles(tree, {
        watch: (_dir, options) => ((signal = options.signal), new Promise(() => {})),
      });
      await files.ready();
      assert.ok(signal, "the watcher was started after the first scan");
      assert.equal(signal.aborted, false);
      await files.close();
      assert.equal(signal.aborted, true);
    } finally {
      removeDir(tree);
    }
  });

  it("goes on watching after its watcher process dies: a new one starts with the next rescan", async function () {
    if (process.platform !== "linux") this.skip();
    await serveOneFile();
    const first = await watcherPid();
    process.kill(first, "SIGKILL");
    await until(
      () => s.runtime.mentionEngine.stats(),
      (stats) => stats.projects[0]?.watching === false,
      "the project no longer counted as watched",
    );
    // Without a watcher a new file still shows up (the list is rescanned when stale), and the
    // rescan starts a new watcher.
    write(s.projectDir, "src/zebra.ts");
    await until(
      () => search("zebra"),
      (rows) => rows.length === 1,
      "the new file found",
      30_000,
    );
    const second = await watcherPid("a new watcher process");
    assert.notEqual(second, first);
  });

  it("sends a scan and a catalog of many files whole, read from the worker a part at a time, and then holds nothing", async () => {
    s = await startTestServer();
    const names = writeLongPaths(s.projectDir);
    const projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
    const scan = await s.api("POST", `/api/projects/${projectId}/tags/scan`);
    assert.equal(scan.status, 200);
    assert.match(scan.headers.get("content-type") ?? "", /json/);
    const text = await scan.text();
    assert.ok(text.length > 2 ** 20, `a body of more than one part (${text.length} bytes)`);
    const scanned = (JSON.parse(text) as { files: { path: string; name: string; folder: string }[] }).files;
    assert.deepEqual(new Set(scanned.map((f) => f.path)), new Set(names));
    assert.ok(scanned.every((f) => f.name === path.basename(f.path) && f.folder === path.dirname(f.path)));
    const catalog = (await (
      await s.api("GET", `/api/mentions/catalog?projectDir=${encodeURIComponent(s.projectDir)}`)
    ).json()) as { files: unknown[]; tools: unknown[] };
    assert.equal(catalog.files.length, names.length);
    assert.ok(catalog.tools.length > 0, "the rest of the catalog follows the files");
    assert.equal((await s.runtime.mentionEngine.stats()).bodies, 0);
  });

  it("holds a body only while it is being read: a reader that stops early lets go of it", async () => {
    s = await startTestServer();
    writeLongPaths(s.projectDir);
    const projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
    const engine = s.runtime.mentionEngine;
    const held = await engine.request<HeldBody>({ op: "scan", projectId, dir: s.projectDir });
    assert.ok(held.size > 2 * 2 ** 20, `more than two parts (${held.size} bytes)`);
    const parts = engine.readBody(held);
    const first = await parts.next();
    assert.equal(first.value!.length, 2 ** 20);
    // Every part is written into one buffer shared with the worker: nothing is allocated a part.
    const buffer = first.value!.buffer;
    assert.ok(buffer instanceof SharedArrayBuffer);
    assert.equal((await parts.next()).value!.buffer, buffer);
    assert.equal((await engine.stats()).bodies, 1, "held while being read");
    // What a route's pipeline does when its client goes away.
    await parts.return(undefined);
    await until(
      async () => (await engine.stats()).bodies,
      (count) => count === 0,
      "no body held",
    );
    await assert.rejects(
      engine.request({ op: "body-part", body: held.body, at: 2 * 2 ** 20, into: new SharedArrayBuffer(16) }),
      /no longer held/,
    );
  });

  it("lets go of a catalog's file list when its reader stops before reading it", async () => {
    s = await startTestServer();
    writeLongPaths(s.projectDir);
    await s.api("POST", "/api/projects", { dir: s.projectDir });
    const snapshot = await s.runtime.settings.snapshot(await s.runtime.projects.lookup(s.projectDir));
    const parts = await s.runtime.mentions.catalogBody(snapshot);
    const engineStats = () => s.runtime.mentionEngine.stats();
    assert.equal((await engineStats()).bodies, 1, "held once asked for");
    // What the route does when its client went away before the first part was written.
    assert.equal((await parts.next()).value, '{"files":');
    await parts.return(undefined);
    await until(engineStats, (stats) => stats.bodies === 0, "no body held");
  });

  it("shows a file created or deleted during a session without a restart", async () => {
    s = await startTestServer();
    write(s.projectDir, "src/alpha.ts");
    await s.api("POST", "/api/projects", { dir: s.projectDir });
    assert.deepEqual(
      (await search("alpha")).map((r) => r.insertText),
      ["@src/alpha.ts"],
    );
    write(s.projectDir, "src/deep/newly/zebraCrossing.ts");
    write(s.projectDir, "src/zebraStripe.md");
    await eventually(async () => ((await search("zebra")).length === 2 ? true : undefined)).catch(async (e) => {
      console.error(JSON.stringify(await s.runtime.mentionEngine.stats()), await search("zebra"), s.logLines);
      throw e;
    });
    fs.rmSync(path.join(s.projectDir, "src/zebraStripe.md"));
    await eventually(async () =>
      (await search("zebra")).map((r) => r.insertText).join() === "@src/deep/newly/zebraCrossing.ts" ? true : undefined,
    );
    // Ignored files stay out.
    write(s.projectDir, ".gitignore", "*.log\n");
    write(s.projectDir, "zebra.log");
    // The index has taken in the ignored file's creation once it shows a file written after it.
    write(s.projectDir, "src/zebraLast.ts");
    await eventually(async () =>
      (await search("zebra")).some((r) => r.insertText === "@src/zebraLast.ts") ? true : undefined,
    );
    await eventually(async () =>
      (await search("zebra")).some((r) => r.insertText === "@zebra.log") ? undefined : true,
    );
  });

  it("gives two interleaved typists the same results as each alone", async () => {
    s = await startTestServer();
    for (const p of generatePaths(3_000, 5)) write(s.projectDir, p);
    await s.api("POST", "/api/projects", { dir: s.projectDir });
    const [a, b] = ["userCtrl", "srcutil"];
    const alone = async (q: string) => {
      const out: unknown[] = [];
      for (let n = 1; n <= q.length; n++) out.push(await search(q.slice(0, n)));
      return out;
    };
    const expectedA = await alone(a);
    const expectedB = await alone(b);
    const gotA: unknown[] = [];
    const gotB: unknown[] = [];
    for (let n = 1; n <= Math.max(a.length, b.length); n++) {
      if (n <= a.length) gotA.push(await search(a.slice(0, n), "&clientId=one"));
      if (n <= b.length) gotB.push(await search(b.slice(0, n), "&clientId=two"));
    }
    assert.deepEqual(gotA, expectedA);
    assert.deepEqual(gotB, expectedB);
  });

  it("answers a keystroke superseded by a newer one of the same client with an empty, marked list", async () => {
    s = await startTestServer();
    for (const p of generatePaths(2_000, 9)) write(s.projectDir, p);
    await s.api("POST", "/api/projects", { dir: s.projectDir });
    const url = (q: string) => `/api/mentions/search?projectDir=${encodeURIComponent(s.projectDir)}&q=${q}&clientId=c1`;
    // The server knows "newer" by arrival: parallel requests on separate connections may arrive in any
    // order, so the last keystroke goes out once the others have reached the worker, as a typist's would.
    let answered = 0;
    const earlier = ["u", "us", "use"].map((q) => s.api("GET", url(q)).finally(() => answered++));
    // Each has reached the worker once it is answered or counted there (answers counted first: a
    // search answered by then is no longer in flight there, so none is counted twice).
    const arrived = async () => answered + (await s.runtime.mentionEngine.stats()).searches.inFlight;
    await until(arrived, (count) => count >= 3, "the earlier keystrokes in the worker");
    const responses = await Promise.all([...earlier, s.api("GET", url("user"))]);
    const last = responses.at(-1)!;
    assert.equal(last.headers.get("x-parley-superseded"), null);
    assert.ok(((await last.json()) as unknown[]).length > 0);
    for (const r of responses.slice(0, -1)) {
      const body = (await r.json()) as unknown[];
      if (r.headers.get("x-parley-superseded") === "1") assert.deepEqual(body, []);
    }
  });

  it("orders a client's keystrokes by seq: one that arrives after a newer one is superseded, the newer one is not", async () => {
    s = await startTestServer();
    for (const p of generatePaths(500, 4)) write(s.projectDir, p);
    await s.api("POST", "/api/projects", { dir: s.projectDir });
    const get = (q: string, seq: number) =>
      s.api("GET", `/api/mentions/search?projectDir=${encodeURIComponent(s.projectDir)}&q=${q}&clientId=c1&seq=${seq}`);
    // Requests go out on connections of their own and can reach the server in any order.
    const newer = await get("user", 5);
    assert.equal(newer.headers.get("x-parley-superseded"), null);
    assert.ok(((await newer.json()) as unknown[]).length > 0);
    const late = await get("us", 4);
    assert.equal(late.headers.get("x-parley-superseded"), "1");
    assert.deepEqual(await late.json(), []);
    const next = await get("use", 6);
    assert.equal(next.headers.get("x-parley-superseded"), null);
    assert.ok(((await next.json()) as unknown[]).length > 0);
    const bad = await get("u", -1);
    assert.equal(bad.status, 400);
  });

  it("skips a search whose client went away before the worker got to it", async function () {
    this.timeout(60_000);
    s = await startTestServer();
    for (const p of generatePaths(20_000, 6)) write(s.projectDir, p);
    await s.api("POST", "/api/projects", { dir: s.projectDir });
    const stats = () => s.runtime.mentionEngine.stats();
    // The worker is the process's: earlier tests' searches count too.
    const skippedBefore = (await stats()).searches.skipped;
    // Both wait for the project's first scan and index; the second one's client leaves meanwhile.
    const waited = s.api(
      "GET",
      `/api/mentions/search?projectDir=${encodeURIComponent(s.projectDir)}&q=user&clientId=c4&seq=1`,
    );
    const client = new AbortController();
    const abandoned = fetch(
      `${s.url}/api/mentions/search?projectDir=${encodeURIComponent(s.projectDir)}&q=use&clientId=c5&seq=1`,
      {
        headers: { authorization: `Bearer ${s.token}` },
        signal: client.signal,
      },
    ).catch(() => undefined);
    await until(stats, (st) => st.searches.inFlight >= 2, "both searches in the worker");
    client.abort();
    await abandoned;
    assert.ok(((await (await waited).json()) as unknown[]).length > 0, "the search still waited for is answered");
    assert.equal((await stats()).searches.skipped, skippedBefore + 1);
  });

  it("lets no browser keep or revalidate an API answer: no-store, and no ETag (a 304 would keep a superseded mark)", async () => {
    await serveOneFile();
    const res = await s.api(
      "GET",
      `/api/mentions/search?projectDir=${encodeURIComponent(s.projectDir)}&q=zzqx&clientId=c3&seq=1`,
    );
    assert.deepEqual(await res.json(), []);
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.equal(res.headers.get("etag"), null);
    const settings = await s.api("GET", `/api/settings/resolved?projectDir=${encodeURIComponent(s.projectDir)}`);
    assert.equal(settings.headers.get("cache-control"), "no-store");
    assert.equal(settings.headers.get("etag"), null);
  });
});
