// The main-thread stall bench (stallBench in mentions.bench.ts) in a fresh process, started by
// runMentionsBench: `node --expose-gc --import tsx bench/mentions-stall.ts <project folder> <files>`.
import { stallBench } from "./mentions.bench";

const [root, count] = process.argv.slice(2);
if (!root || !count) throw new Error("usage: mentions-stall.ts <project folder> <number of files>");
await stallBench(root, Number(count));
// The in-process server's worker and watcher are gone with the process.
process.exit(0);
