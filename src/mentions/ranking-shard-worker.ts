// The ranking's helper thread (see ranking-shards.ts): holds one shard of each big index and ranks
// it while the thread that asked ranks the other. A shard arrives whole, built by the asking thread
// (see MentionIndex.snapshot), and leaves by a dispose message; a search comes on its own port, and
// its answer goes back there before the shared counter says it is ready: the asking thread waits
// on that counter (Atomics.wait), not on its event loop.
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { MentionIndex, type SearchState } from "../shared/ranking/mention-index";
import { searchShard } from "./mention-shards";
import type { Stage } from "../shared/ranking/mention-index";
import {
  ASKER,
  countsTogether,
  HELPER,
  type ShardLoad,
  type ShardMessage,
  type ShardSearch,
  type ShardSearchReply,
} from "./ranking-shards";

/** Narrowing states kept per shard (one per typist; the oldest goes first). */
const STATES_KEPT = 32;

type Shard = { index: MentionIndex; globals: Int32Array; states: Map<number, SearchState> };
const shards = new Map<number, Shard>();

const { searchPort, answered, counts } = workerData as {
  searchPort: MessagePort;
  answered: SharedArrayBuffer;
  counts: SharedArrayBuffer;
};
const counter = new Int32Array(answered);
const countSlots = new Int32Array(counts);

function load(message: ShardLoad): void {
  try {
    shards.set(message.shard, {
      index: new MentionIndex(message.snapshot),
      globals: message.globals,
      states: new Map(),
    });
    parentPort!.postMessage({ op: "loaded", shard: message.shard });
  } catch (error) {
    parentPort!.postMessage({
      op: "failed",
      shard: message.shard,
      error: error instanceof Error ? error.message : String(error),
    });
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
    const together = (stage: Stage, count: number, wait?: boolean) =>
      countsTogether(countSlots, HELPER, ASKER, request.seq, request.limit, stage, count, wait);
    return {
      seq: request.seq,
      result: searchShard(
        shard.index,
        shard.globals,
        request.query,
        request.limit,
        stateOf(shard, request.state),
        together,
      ),
    };
  } catch (error) {
    return { seq: request.seq, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on("message", (message: ShardMessage) => {
  if (message.op === "load") load(message);
  else shards.delete(message.shard);
});

searchPort.on("message", (request: ShardSearch) => {
  searchPort.postMessage(search(request));
  // The answer is in the port before the counter moves (see ShardedIndex.answer).
  Atomics.store(counter, 0, request.seq);
  Atomics.notify(counter, 0);
});
