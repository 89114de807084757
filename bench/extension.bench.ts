// The side panel's cost: the webview bundle's gzipped size (the first screen loads all of it), and
// the time from starting Parley's bundled server code to a listening server, against bare Node
// start-up in the same run (what activation adds on top of VS Code's own extension host).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { median, report, round } from "./stats";

function bundleSize(): void {
  const dir = "media/webview/assets";
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".js") || f.endsWith(".css"));
  const gzipped = files.reduce((sum, f) => sum + gzipSync(fs.readFileSync(path.join(dir, f)), { level: 9 }).length, 0);
  report({ bench: "webview.first_screen_gzip", files: files.length, gzipKb: round(gzipped / 1024, 1), targetKb: 150, meetsTarget: gzipped / 1024 < 150 });
}

/** Milliseconds from spawn to the first stdout line. */
function timeToFirstLine(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
    child.stdout.once("data", () => {
      resolve(performance.now() - started);
      child.kill("SIGTERM");
    });
    child.on("error", reject);
  });
}

async function startToListening(runs: number): Promise<void> {
  const parley: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "parley-start-"));
    const withParley = await timeToFirstLine(["dist/cli.cjs", "serve", "--port", "0", "--home", home]);
    const withoutParley = await timeToFirstLine(["-e", "process.stdout.write('ready\\n')"]);
    fs.rmSync(home, { recursive: true, force: true });
    if (i >= 2) parley.push(withParley), bare.push(withoutParley);
  }
  const added = median(parley) - median(bare);
  report({ bench: "extension.activation_to_listening", runs, parleyStartMedianMs: round(median(parley), 1), bareNodeMedianMs: round(median(bare), 1), addedMedianMs: round(added, 1), targetMs: 300, meetsTarget: added < 300 });
}

export async function runExtensionBench(): Promise<void> {
  bundleSize();
  await startToListening(10);
}
