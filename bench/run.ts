// `npm run bench`: every benchmark, one JSON line per result on stdout; then the results table,
// docs/benchmark-results.md, with the rows of the groups that ran replaced.
import os from "node:os";
import { runChatStreamBench } from "./chat-stream.bench";
import { runMentionsBench } from "./mentions.bench";
import { runMentionsHealthBench } from "./mentions-health.bench";
import { runExtensionBench } from "./extension.bench";
import { runToolsBench } from "./tools.bench";
import { runMcpBench } from "./mcp.bench";
import { runPopupBench } from "./popup.bench";
import { runSessionsBench } from "./sessions.bench";
import { runTranscriptBench } from "./transcript.bench";
import { runSearchBench } from "./search.bench";
import { runWorktreesBench } from "./worktrees.bench";
import { printedLines } from "./stats";
import { resultLines, writeResultsFile, type GroupRun } from "./results-table";

const GROUPS: Record<string, () => Promise<void>> = {
  chat: runChatStreamBench,
  mentions: async () => {
    // First, while this process is small: its collections would count as the server's delays.
    await runMentionsHealthBench();
    await runMentionsBench();
  },
  extension: runExtensionBench,
  tools: runToolsBench,
  mcp: runMcpBench,
  popup: runPopupBench,
  sessions: runSessionsBench,
  transcript: runTranscriptBench,
  search: runSearchBench,
  worktrees: runWorktreesBench,
};
const RESULTS_FILE = "docs/benchmark-results.md";

const only = process.argv[2];
if (only && !(only in GROUPS)) {
  process.stderr.write(`unknown bench group "${only}": one of ${Object.keys(GROUPS).join(", ")}\n`);
  process.exit(2);
}
const cpus = os.cpus();
const machine = {
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  cpus: `${cpus.length} × ${cpus[0]?.model.trim() ?? "unknown"}`,
  node: process.version,
};
const date = () => `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`;
// The benches wait on worker threads that are unref'd (so that a server can exit while they idle):
// with nothing else pending, Node would end the run mid-await (exit 13, "unsettled top-level await").
const keepAlive = setInterval(() => {}, 2 ** 30);
const runs: GroupRun[] = [];
let failure: unknown;
for (const [group, run] of Object.entries(GROUPS)) {
  if (only && group !== only) continue;
  const from = printedLines.length;
  try {
    await run();
  } catch (error) {
    failure = error;
  }
  const failed = failure === undefined ? {} : { failed: String((failure as Error)?.message ?? failure) };
  runs.push({ group, date: date(), machine, lines: resultLines(printedLines.slice(from)), ...failed });
  if (failure !== undefined) break;
}
clearInterval(keepAlive);
await writeResultsFile(RESULTS_FILE, runs, Object.keys(GROUPS), date());
process.stderr.write(`results table: ${RESULTS_FILE}\n`);
if (failure !== undefined) throw failure;
// In-process servers (the mentions bench) can leave idle handles behind; every result is printed.
process.exit(0);
