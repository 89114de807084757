// `npm run bench`: every benchmark, one JSON line per result on stdout.
import { runChatStreamBench } from "./chat-stream.bench";
import { runMentionsBench } from "./mentions.bench";

const only = process.argv[2];
if (!only || only === "chat") await runChatStreamBench();
if (!only || only === "mentions") await runMentionsBench();
