// MCP: cold start of a real server (@modelcontextprotocol/server-everything over stdio) to its first
// tool list through Parley's manager, against the SDK connecting by itself; and one `echo` call
// through Parley (lookup, schema check, call, output) against the same call made with the SDK directly.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createRuntime } from "../src/app";
import { createLogger } from "../src/platform/logger";
import { median, percentile, report, round } from "./stats";

const EVERYTHING = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const TARGET_CALL_OVERHEAD_MS = 2;

async function sdkColdStart(): Promise<{ ms: number; client: Client }> {
  const started = performance.now();
  const client = new Client({ name: "bench", version: "1" }, { capabilities: {} });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }),
  );
  await client.listTools();
  return { ms: performance.now() - started, client };
}

export async function runMcpBench(): Promise<void> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "parley-mcp-bench-"));
  const projectDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-mcp-project-"));
  const runtime = createRuntime({ home, log: createLogger(() => {}) });
  try {
    await runtime.settings.patchApp({
      mcpServers: [{ id: "everything", transport: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] }],
    });
    const project = await runtime.projects.resolveDir(projectDir);
    const snapshot = await runtime.settings.snapshot(project);

    const coldStarted = performance.now();
    await runtime.mcp.restart(snapshot, "everything");
    const parleyColdMs = performance.now() - coldStarted;
    const direct = await sdkColdStart();
    report({
      bench: "mcp.cold_start_to_tool_list",
      parleyMs: round(parleyColdMs, 1),
      sdkDirectMs: round(direct.ms, 1),
      tools: runtime.mcp.toolsFor(snapshot).length,
    });

    const signal = new AbortController().signal;
    const viaParley: number[] = [];
    const viaSdk: number[] = [];
    const samples = Number(process.env.BENCH_SAMPLES ?? 200);
    for (let i = 0; i < samples + 20; i++) {
      const a = performance.now();
      await runtime.mcp.call(snapshot, "mcp__everything__echo", { message: "hi" }, signal);
      const parley = performance.now() - a;
      const b = performance.now();
      await direct.client.callTool({ name: "echo", arguments: { message: "hi" } });
      const sdk = performance.now() - b;
      if (i >= 20) {
        viaParley.push(parley);
        viaSdk.push(sdk);
      }
    }
    const added = median(viaParley) - median(viaSdk);
    report({
      bench: "mcp.call_overhead",
      samples,
      parleyMedianMs: round(median(viaParley)),
      parleyP95Ms: round(percentile(viaParley, 95)),
      sdkDirectMedianMs: round(median(viaSdk)),
      addedMedianMs: round(added),
      targetMs: TARGET_CALL_OVERHEAD_MS,
      pass: added < TARGET_CALL_OVERHEAD_MS,
    });
    await direct.client.close();
  } finally {
    await runtime.mcp.stopAll();
    runtime.close();
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(projectDir, { recursive: true, force: true });
  }
}
