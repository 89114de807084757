import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { generatePaths } from "../../bench/path-generator";
import { makeTempDir, removeDir } from "../helpers/temp";
import { startTestServer, type TestServer } from "../helpers/test-server";

function write(root: string, rel: string, content = "x\n") {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
}

async function until<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("mentions off the main thread", () => {
  let s: TestServer;
  const search = async (q: string, extra = "") =>
    (await (await s.api("GET", `/api/mentions/search?projectDir=${encodeURIComponent(s.projectDir)}&q=${encodeURIComponent(q)}&category=files${extra}`)).json()) as { insertText: string }[];
  afterEach(() => s?.stop().catch(() => {}));

  it("keeps answering the health route while the first 60k-file search and a scan run", async function () {
    this.timeout(180_000);
    const tree = makeTempDir();
    try {
      for (const p of generatePaths(60_000, 3)) write(tree, p);
      // Loaded machines stall for their own reasons now and then: up to five fresh servers.
      let worst = Infinity;
      for (let attempt = 0; attempt < 5 && worst >= 100; attempt++) {
        s = await startTestServer();
        fs.rmSync(s.projectDir, { recursive: true, force: true });
        fs.symlinkSync(tree, s.projectDir);
        const projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
        const delay = monitorEventLoopDelay({ resolution: 5 });
        delay.enable();
        let done = false;
        const work = Promise.all([search("userController"), s.api("POST", `/api/projects/${projectId}/tags/scan`).then((r) => r.arrayBuffer())]).finally(() => (done = true));
        const latencies: number[] = [];
        while (!done) {
          const t = performance.now();
          assert.equal((await s.api("GET", "/api/health")).status, 200);
          latencies.push(performance.now() - t);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const [results, scanBytes] = await work;
        const scan = JSON.parse(Buffer.from(scanBytes).toString()) as { files: unknown[] };
        delay.disable();
        assert.ok(results.length > 0);
        assert.ok(scan.files.length >= 60_000);
        worst = Math.max(...latencies);
        // The event loop's longest stall in this process (test and server share it): far under the
        // 0.3 s that building the index on the main thread took at 60k.
        if (worst >= 100) console.error(`health took ${worst.toFixed(0)} ms (loop max ${(delay.max / 1e6).toFixed(0)} ms); trying again`);
        if (worst >= 100 && attempt < 4) {
          await s.runtime.mentionEngine.close();
          await s.stop();
        }
      }
      assert.ok(worst < 100, `the health route took ${worst.toFixed(0)} ms`);
    } finally {
      // Stop watching before the tree goes (60k deletions are not this test's business).
      await s.runtime.mentionEngine.close();
      await s.stop();
      removeDir(tree);
    }
  });

  it("runs the worker's scans and index builds below the main thread's priority (Linux)", async function () {
    if (process.platform !== "linux") this.skip();
    s = await startTestServer();
    write(s.projectDir, "src/alpha.ts");
    await s.api("POST", "/api/projects", { dir: s.projectDir });
    assert.ok((await search("alpha")).length > 0);
    const { priority } = await s.runtime.mentionEngine.stats();
    // A higher nice value yields the CPU to the main thread (streams, health) on a busy machine.
    assert.equal(typeof priority, "number");
    assert.ok(priority! > os.getPriority(0), `worker nice ${priority}, main thread nice ${os.getPriority(0)}`);
    assert.equal(os.getPriority(process.pid), os.getPriority(0), "the main thread keeps its priority");
  });

  it("shows a file created or deleted during a session without a restart", async () => {
    s = await startTestServer();
    write(s.projectDir, "src/alpha.ts");
    await s.api("POST", "/api/projects", { dir: s.projectDir });
    assert.deepEqual((await search("alpha")).map((r) => r.insertText), ["@src/alpha.ts"]);
    write(s.projectDir, "src/deep/newly/zebraCrossing.ts");
    write(s.projectDir, "src/zebraStripe.md");
    await until(async () => ((await search("zebra")).length === 2 ? true : undefined)).catch(async (e) => {
      console.error(JSON.stringify(await s.runtime.mentionEngine.stats()), await search("zebra"), s.logLines);
      throw e;
    });
    fs.rmSync(path.join(s.projectDir, "src/zebraStripe.md"));
    await until(async () => ((await search("zebra")).map((r) => r.insertText).join() === "@src/deep/newly/zebraCrossing.ts" ? true : undefined));
    // Ignored files stay out.
    write(s.projectDir, ".gitignore", "*.log\n");
    write(s.projectDir, "zebra.log");
    await new Promise((resolve) => setTimeout(resolve, 500));
    await until(async () => ((await search("zebra")).some((r) => r.insertText === "@zebra.log") ? undefined : true));
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
    // order, so the last keystroke goes out once the others are on their way, as a typist's would.
    const earlier = ["u", "us", "use"].map((q) => s.api("GET", url(q)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const responses = await Promise.all([...earlier, s.api("GET", url("user"))]);
    const last = responses.at(-1)!;
    assert.equal(last.headers.get("x-parley-superseded"), null);
    assert.ok(((await last.json()) as unknown[]).length > 0);
    for (const r of responses.slice(0, -1)) {
      const body = (await r.json()) as unknown[];
      if (r.headers.get("x-parley-superseded") === "1") assert.deepEqual(body, []);
    }
  });
});
