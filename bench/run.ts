// `npm run bench`: every benchmark, one JSON line per result on stdout.
import { runChatStreamBench } from "./chat-stream.bench";

await runChatStreamBench();
