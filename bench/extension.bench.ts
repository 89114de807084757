// The side panel's cost: the gzipped size of what the webview's first screen loads, and
// the time from starting Parley's bundled server code to a listening server, against bare Node
// start-up in the same run (what activation adds on top of VS Code's own extension host).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { median, report, round } from "./stats";

type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; css?: string[] };

/**
 * What the first screen loads: the entry chunk, the chunks it imports statically, and their CSS
 * (from Vite's manifest). Chunks imported on demand (the settings pages) are counted apart.
 */
function bundleSize(): void {
  const dir = "media/webview";
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, ".vite/manifest.json"), "utf8")) as Record<
    string,
    ManifestChunk
  >;
  const firstScreen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key]!;
    if (firstScreen.has(chunk.file)) return;
    firstScreen.add(chunk.file);
    for (const css of chunk.css ?? []) firstScreen.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const all = fs.readdirSync(path.join(dir, "assets")).filter((f) => f.endsWith(".js") || f.endsWith(".css"));
  const gzipKb = (files: string[]) =>
    round(
      files.reduce((sum, f) => sum + gzipSync(fs.readFileSync(path.join(dir, f)), { level: 9 }).length, 0) / 1024,
      1,
    );
  const first = gzipKb([...firstScreen]);
  report({
    bench: "webview.first_screen_gzip",
    files: firstScreen.size,
    gzipKb: first,
    onDemandGzipKb: round(gzipKb(all.map((f) => `assets/${f}`)) - first, 1),
    targetKb: 150,
    meetsTarget: first < 150,
  });
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
    if (i >= 2) (parley.push(withParley), bare.push(withoutParley));
  }
  const added = median(parley) - median(bare);
  report({
    bench: "extension.activation_to_listening",
    runs,
    parleyStartMedianMs: round(median(parley), 1),
    bareNodeMedianMs: round(median(bare), 1),
    addedMedianMs: round(added, 1),
    targetMs: 300,
    meetsTarget: added < 300,
  });
}

export async function runExtensionBench(): Promise<void> {
  bundleSize();
  await startToListening(10);
}
