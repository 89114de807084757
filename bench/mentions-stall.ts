// The main-thread stall bench (stallBench in mentions.bench.ts) in a fresh process, started by
// runMentionsBench: `node --expose-gc --import tsx bench/mentions-stall.ts <project folder> <files> [attempt]`.
import { stallBench } from "./mentions.bench";

const [root, count, attempt = "1"] = process.argv.slice(2);
if (!root || !count) throw new Error("usage: mentions-stall.ts <project folder> <number of files> [attempt]");
await stallBench(root, Number(count), Number(attempt));
// The in-process server's worker and watcher are gone with the process.
process.exit(0);
