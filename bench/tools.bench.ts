// The agent loop's own cost: what one tool step adds to a turn beyond its extra upstream round-trip,
// and `shell` from spawn to result for `true` against a bare spawn of the same command, unconfined and
// in the sandbox. Parley and the fake gateway run as separate processes; each figure is measured
// against its baseline in the same run, the two paths alternated so drift on a shared machine hits
// both alike.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startStack } from "../test/helpers/stack";
import { runShell, type ShellSandbox } from "../src/tools/shell";
import { Sandbox } from "../src/tools/sandbox/sandbox";
import { SANDBOX_DEFAULTS } from "../src/shared/sandbox";
import { median, percentile, report, round } from "./stats";

const WARM_UP = 10;
const TARGET_STEP_OVERHEAD_MS = 5;
const TARGET_SANDBOX_OVERHEAD_MS = 15;

async function timeTurn(url: string, token: string, chatId: string, content: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/api/chats/${chatId}/messages/stream`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ content }),
  });
  await response.text();
  return performance.now() - started;
}

async function directRoundTrip(baseUrl: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { authorization: "Bearer sk-fake-bench", "content-type": "application/json" },
    body: JSON.stringify({ model: "fake/tools", stream: true, messages: [{ role: "user", content: "hi" }] }),
  });
  await response.text();
  return performance.now() - started;
}

async function loopStep(samples: number): Promise<void> {
  const stack = await startStack();
  try {
    await stack.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: "sk-fake-bench" }] });
    const [project] = (await (await stack.api("GET", "/api/projects")).json()) as { id: string }[];
    const chat = async () =>
      (
        (await (await stack.api("POST", `/api/projects/${project!.id}/chats`, { modelId: "fake/tools" })).json()) as {
          id: string;
        }
      ).id;
    const withTool: number[] = [];
    const withoutTool: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < samples + WARM_UP; i++) {
      // A fresh chat each time, so both turns send the same short history.
      const a = await timeTurn(stack.url, stack.token, await chat(), "tasks: one");
      const b = await timeTurn(stack.url, stack.token, await chat(), "hi");
      const c = await directRoundTrip(stack.gateway.baseUrl);
      if (i >= WARM_UP) {
        withTool.push(a);
        withoutTool.push(b);
        bare.push(c);
      }
    }
    // A tool step = one more upstream round-trip + Parley's own work (two tool calls run, stored, sent back).
    const stepMs = median(withTool) - median(withoutTool);
    const overheadMs = stepMs - median(bare);
    report({
      bench: "tools.loop_step_overhead",
      samples,
      turnWithToolStepMedianMs: round(median(withTool)),
      turnWithoutToolMedianMs: round(median(withoutTool)),
      bareRoundTripMedianMs: round(median(bare)),
      bareRoundTripP95Ms: round(percentile(bare, 95)),
      stepMedianMs: round(stepMs),
      parleyOverheadPerStepMs: round(overheadMs),
      targetMs: TARGET_STEP_OVERHEAD_MS,
      pass: overheadMs < TARGET_STEP_OVERHEAD_MS,
    });
  } finally {
    await stack.stop();
  }
}

function bareSpawn(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", "true"], { stdio: ["ignore", "pipe", "pipe"] });
    child.once("error", reject);
    child.once("close", () => resolve(performance.now() - started));
  });
}

async function shellTrue(samples: number): Promise<void> {
  const root = process.cwd();
  const signal = new AbortController().signal;
  const viaTool: number[] = [];
  const viaSpawn: number[] = [];
  for (let i = 0; i < samples + WARM_UP; i++) {
    const started = performance.now();
    await runShell({ cmd: "true" }, { root, signal });
    const tool = performance.now() - started;
    const raw = await bareSpawn();
    if (i >= WARM_UP) {
      viaTool.push(tool);
      viaSpawn.push(raw);
    }
  }
  const added = median(viaTool) - median(viaSpawn);
  report({
    bench: "tools.shell_true",
    samples,
    toolMedianMs: round(median(viaTool)),
    toolP95Ms: round(percentile(viaTool, 95)),
    bareSpawnMedianMs: round(median(viaSpawn)),
    addedMedianMs: round(added),
    targetMs: TARGET_STEP_OVERHEAD_MS,
    pass: added < TARGET_STEP_OVERHEAD_MS,
  });
}

/**
 * What the sandbox adds (contract 7.5): `shell` running `true` inside it, from spawn to result, against a
 * bare spawn of the same command, alternated. The settings are the defaults (no network, the built-in
 * hidden paths), so the figure includes looking those paths up and bwrap building its namespaces.
 */
async function shellSandboxed(samples: number): Promise<void> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-home-"));
  try {
    const sandbox = new Sandbox({ appHome: home });
    const availability = await sandbox.availability();
    if (!availability.available) {
      report({ bench: "tools.shell_sandboxed", skipped: availability.reason, pass: null });
      return;
    }
    const root = fs.realpathSync(process.cwd());
    const signal = new AbortController().signal;
    const settings = { ...SANDBOX_DEFAULTS };
    const wrap: ShellSandbox = (command) => sandbox.command({ ...command, projectRoot: root, settings });
    const sandboxed: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < samples + WARM_UP; i++) {
      const started = performance.now();
      const result = await runShell({ cmd: "true" }, { root, signal, sandbox: wrap });
      const tool = performance.now() - started;
      if (result.exitCode !== 0) throw new Error(`the sandboxed command failed: ${result.output}`);
      const raw = await bareSpawn();
      if (i >= WARM_UP) {
        sandboxed.push(tool);
        bare.push(raw);
      }
    }
    const added = median(sandboxed) - median(bare);
    report({
      bench: "tools.shell_sandboxed",
      samples,
      sandbox: availability.kind,
      sandboxedMedianMs: round(median(sandboxed)),
      sandboxedP95Ms: round(percentile(sandboxed, 95)),
      bareSpawnMedianMs: round(median(bare)),
      bareSpawnP95Ms: round(percentile(bare, 95)),
      addedMedianMs: round(added),
      targetMs: TARGET_SANDBOX_OVERHEAD_MS,
      pass: added < TARGET_SANDBOX_OVERHEAD_MS,
    });
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

export async function runToolsBench(): Promise<void> {
  const samples = Number(process.env.BENCH_SAMPLES ?? 100);
  await shellTrue(samples);
  await shellSandboxed(samples);
  await loopStep(Math.min(samples, 60));
}
