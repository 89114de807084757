// The @ popup at scale: index build time and memory, and time per keystroke while queries are typed
// one character at a time, over 10k, 100k and 1M paths; then the project scan of a generated
// 100k-file tree against `rg --files` in the same run.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FileMentions, fileCatalog, rankMentions } from "../src/core/mention-search";
import { scanProjectFiles } from "../src/services/project-scan";
import { generatePaths } from "./path-generator";
import { median, percentile, report, round } from "./stats";

const QUERIES = ["button", "userController", "src/util", "readme", "auth_token", "idx", "orderlist", "zzqx", "packages/store", "hook"];
const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = () => {
  gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

function rankingBench(count: number): void {
  const paths = generatePaths(count);
  const before = heapMb();
  const started = performance.now();
  const files = new FileMentions(fileCatalog([], paths));
  const buildMs = performance.now() - started;
  const indexMb = heapMb() - before;
  const typeAll = () => {
    const times: number[] = [];
    for (const query of QUERIES) {
      for (let n = 1; n <= query.length; n++) {
        const t = performance.now();
        rankMentions(files, [], query.slice(0, n));
        times.push(performance.now() - t);
      }
    }
    return times;
  };
  // The first pass also pays for JIT compilation; the second is what a user typing meets.
  const cold = typeAll();
  const times = typeAll();
  const target = count >= 1_000_000 ? 50 : count >= 100_000 ? 5 : undefined;
  report({
    bench: "mentions.keystroke",
    paths: count,
    keystrokes: times.length,
    medianMs: round(median(times)),
    p95Ms: round(percentile(times, 95)),
    maxMs: round(Math.max(...times)),
    coldP95Ms: round(percentile(cold, 95)),
    indexBuildMs: round(buildMs, 1),
    indexHeapMb: gc ? round(indexMb, 1) : null,
    ...(target ? { targetP95Ms: target, meetsTarget: percentile(times, 95) < target } : {}),
  });
}

function writeTree(root: string, paths: string[]): void {
  fs.mkdirSync(path.join(root, ".git"), { recursive: true });
  fs.writeFileSync(path.join(root, ".gitignore"), "*.log\ndist/\n");
  const dirs = new Set(paths.map((p) => path.dirname(p)));
  for (const dir of dirs) fs.mkdirSync(path.join(root, dir), { recursive: true });
  for (const p of paths) fs.writeFileSync(path.join(root, p), "x\n");
}

async function scanBench(count: number): Promise<void> {
  let rgAvailable = true;
  try {
    execFileSync("rg", ["--version"]);
  } catch {
    rgAvailable = false;
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "parley-scan-bench-"));
  try {
    writeTree(root, generatePaths(count, 7));
    const parley: number[] = [];
    const rg: number[] = [];
    let listed = 0;
    for (let round = 0; round < 5; round++) {
      let t = performance.now();
      listed = (await scanProjectFiles(root)).length;
      parley.push(performance.now() - t);
      if (rgAvailable) {
        t = performance.now();
        execFileSync("rg", ["--files", "--hidden", "-g", "!.git"], { cwd: root, maxBuffer: 1 << 28 });
        rg.push(performance.now() - t);
      }
    }
    report({
      bench: "mentions.scan",
      files: count,
      listed,
      parleyMedianMs: round(median(parley), 1),
      ripgrepMedianMs: rgAvailable ? round(median(rg), 1) : null,
      ratio: rgAvailable ? round(median(parley) / median(rg), 2) : null,
      targetRatio: 2,
      ...(rgAvailable ? {} : { note: "ripgrep is not installed (apt-get install ripgrep); no baseline" }),
    });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function runMentionsBench(): Promise<void> {
  for (const count of [10_000, 100_000, 1_000_000]) rankingBench(count);
  await scanBench(100_000);
}
