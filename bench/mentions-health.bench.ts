// The health route's answer time while the mention worker does a project's first 60k-file search
// (scan, index) and a tag scan, against the same route on the same server idle: the main thread
// stays free for everything else (chat streams, other requests). One JSON line.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { startTestServer } from "../test/helpers/test-server";
import { generatePaths } from "./path-generator";
import { median, percentile, report, round } from "./stats";

const FILES = 60_000;
/** Slowest health answer allowed while the worker is busy; building the index on the main thread took 0.3 s at 60k. */
const TARGET_WORST_MS = 100;
/** One probe every this often (as a client polling the server would), idle and busy alike. */
const PROBE_EVERY_MS = 20;
const IDLE_PROBES = 100;

function writeTree(root: string, paths: string[]): void {
  for (const dir of new Set(paths.map((p) => path.dirname(p)))) fs.mkdirSync(path.join(root, dir), { recursive: true });
  for (const p of paths) fs.writeFileSync(path.join(root, p), "x\n");
}

export async function runMentionsHealthBench(): Promise<void> {
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), "parley-health-bench-"));
  writeTree(tree, generatePaths(FILES, 3));
  const s = await startTestServer();
  try {
    await s.server.warmed;
    const projectId = ((await (await s.api("POST", "/api/projects", { dir: tree })).json()) as { id: string }).id;
    const probe = async () => {
      const started = performance.now();
      const res = await s.api("GET", "/api/health");
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`health answered ${res.status}`);
      return performance.now() - started;
    };
    const pause = () => new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));

    const idle: number[] = [];
    for (let i = 0; i < IDLE_PROBES; i++) (idle.push(await probe()), await pause());

    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    let done = false;
    const started = performance.now();
    const work = Promise.all([
      s.api("GET", `/api/mentions/search?projectDir=${encodeURIComponent(tree)}&q=userController&category=files`),
      s.api("POST", `/api/projects/${projectId}/tags/scan`),
    ])
      .then((answers) => Promise.all(answers.map((a) => a.arrayBuffer())))
      .finally(() => (done = true));
    const busy: number[] = [];
    while (!done) (busy.push(await probe()), await pause());
    await work;
    const workMs = performance.now() - started;
    delay.disable();
    const worst = Math.max(...busy);
    report({
      bench: "mentions.health_while_busy",
      files: FILES,
      workMs: round(workMs, 1),
      probes: busy.length,
      busyMedianMs: round(median(busy), 2),
      busyP95Ms: round(percentile(busy, 95), 2),
      busyWorstMs: round(worst, 2),
      idleMedianMs: round(median(idle), 2),
      idleP95Ms: round(percentile(idle, 95), 2),
      idleWorstMs: round(Math.max(...idle), 2),
      eventLoopMaxMs: round(delay.max / 1e6, 1),
      targetWorstMs: TARGET_WORST_MS,
      meetsTarget: worst < TARGET_WORST_MS,
    });
  } finally {
    // Stop watching before the tree goes (60k deletions are not the bench's business).
    await s.runtime.mentionEngine.close();
    await s.stop();
    fs.rmSync(tree, { recursive: true, force: true });
  }
}
