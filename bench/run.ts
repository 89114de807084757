// `npm run bench`: every benchmark, one JSON line per result on stdout.
import { runChatStreamBench } from "./chat-stream.bench";
import { runMentionsBench } from "./mentions.bench";
import { runExtensionBench } from "./extension.bench";
import { runToolsBench } from "./tools.bench";
import { runMcpBench } from "./mcp.bench";
import { runPopupBench } from "./popup.bench";

const only = process.argv[2];
if (!only || only === "chat") await runChatStreamBench();
if (!only || only === "mentions") await runMentionsBench();
if (!only || only === "extension") await runExtensionBench();
if (!only || only === "tools") await runToolsBench();
if (!only || only === "mcp") await runMcpBench();
if (!only || only === "popup") await runPopupBench();
// In-process servers (the mentions bench) can leave idle handles behind; every result is printed.
process.exit(0);
