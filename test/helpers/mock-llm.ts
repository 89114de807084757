// A real OpenAI-compatible server written by others: @dwmkerr/mock-llm from npm, run as its own
// process on a loopback port with test/fixtures/mock-llm.yaml, the way a user points Parley at a
// self-hosted server. It logs "<METHOD> <path>" per request on stdout, which tests read back.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";

const require = createRequire(import.meta.url);
const MAIN = require.resolve("@dwmkerr/mock-llm/dist/main.js");
export const MOCK_LLM_RULES = path.resolve("test/fixtures/mock-llm.yaml");

export type MockLlm = {
  /** `http://127.0.0.1:PORT`: no `/v1`, as a user might first paste it. */
  url: string;
  /** `http://127.0.0.1:PORT/v1`: the base URL such servers need. */
  baseUrl: string;
  /** `METHOD /path` of every request so far, in order. */
  requests: string[];
  stop(): Promise<void>;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startMockLlm(): Promise<MockLlm> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [MAIN, "--config", MOCK_LLM_RULES], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const requests: string[] = [];
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock-llm did not start: ${output}`)), 15_000);
    child.stderr!.on("data", (d) => (output += d));
    let pending = "";
    child.stdout!.on("data", (d) => {
      pending += d;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        output += `${line}\n`;
        if (/server running on/.test(line)) {
          clearTimeout(timer);
          resolve();
        } else if (/^(GET|POST|PUT|PATCH|DELETE) \//.test(line)) requests.push(line.trim());
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`mock-llm exited ${code}: ${output}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
