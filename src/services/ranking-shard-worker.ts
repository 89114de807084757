// The ranking's helper thread (see ranking-shards.ts): holds one shard of each big index and ranks
// it while the thread that asked ranks the other. Builds and disposals come as ordinary messages;
// a search comes on its own port, and its answer goes back there before the shared counter says it
// is ready: the asking thread waits on that counter (Atomics.wait), not on its event loop.
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { setImmediate as yieldToEvents } from "node:timers/promises";
import { MentionIndex, type IndexEntry, type SearchState } from "../core/mention-rank";
import { searchShard } from "../core/mention-shards";
import type { ShardBuild, ShardMessage, ShardSearch, ShardSearchReply } from "./ranking-shards";

/** Narrowing states kept per shard (one per typist; the oldest goes first). */
const STATES_KEPT = 32;

type Shard = { index: MentionIndex; globals: Int32Array; states: Map<number, SearchState> };
const shards = new Map<number, Shard>();
/** Shards disposed while still building: dropped when their build ends. */
const disposed = new Set<number>();

const { searchPort, answered } = workerData as { searchPort: MessagePort; answered: SharedArrayBuffer };
const counter = new Int32Array(answered);

/** The shard's entries from the build message: paths back to back, cut by their lengths. */
function entriesOf(build: ShardBuild): IndexEntry[] {
  const entries = new Array<IndexEntry>(build.lengths.length);
  let at = 0;
  for (let k = 0; k < entries.length; k++) {
    const end = at + build.lengths[k]!;
    entries[k] = { path: build.text.slice(at, end), nameStart: build.nameStarts[k]! };
    at = end;
  }
  for (const [k, other] of build.others) entries[k]!.other = other;
  return entries;
}

async function build(message: ShardBuild): Promise<void> {
  try {
    const index = await MentionIndex.build(entriesOf(message), () => yieldToEvents());
    if (disposed.delete(message.shard)) return;
    shards.set(message.shard, { index, globals: message.globals, states: new Map() });
    parentPort!.postMessage({ op: "built", shard: message.shard });
  } catch (error) {
    parentPort!.postMessage({ op: "failed", shard: message.shard, error: error instanceof Error ? error.message : String(error) });
  }
}

function stateOf(shard: Shard, id: number): SearchState {
  let state = shard.states.get(id);
  if (state) shard.states.delete(id);
  else state = {};
  shard.states.set(id, state);
  for (const key of shard.states.keys()) {
    if (shard.states.size <= STATES_KEPT) break;
    shard.states.delete(key);
  }
  return state;
}

function search(request: ShardSearch): ShardSearchReply {
  const shard = shards.get(request.shard);
  if (!shard) return { seq: request.seq, error: "this shard is not held here" };
  try {
    return { seq: request.seq, result: searchShard(shard.index, shard.globals, request.query, request.limit, stateOf(shard, request.state)) };
  } catch (error) {
    return { seq: request.seq, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on("message", (message: ShardMessage) => {
  if (message.op === "build") void build(message);
  else if (!shards.delete(message.shard)) disposed.add(message.shard);
});

searchPort.on("message", (request: ShardSearch) => {
  searchPort.postMessage(search(request));
  // The answer is in the port before the counter moves (see ShardedIndex.answer).
  Atomics.store(counter, 0, request.seq);
  Atomics.notify(counter, 0);
});
