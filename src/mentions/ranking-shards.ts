// The @ popup's ranking on two cores. A big index is split in two by folder (mentions/mention-shards.ts):
// one half stays in the thread that searches (the mention worker), the other lives in a helper
// thread. A keystroke hands its query to the helper, ranks its own half meanwhile, then waits for
// the helper's half (Atomics.wait on a shared counter, so search stays synchronous) and merges:
// the same list one index gives, in about half the time. Both halves are built here, and the
// helper's is moved there whole (MentionIndex.snapshot). The helper serves every big index of the
// thread that started it; if it dies or stops answering, the indexes it held rebuild their half
// here and go on in one thread.
import os from "node:os";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import {
  MentionIndex,
  type IndexEntry,
  type IndexSnapshot,
  type RankingIndex,
  type SearchResult,
  type SearchState,
  type Stage,
} from "../shared/ranking/mention-index";
import {
  assignShards,
  entryHighlights,
  folderHash,
  mergeShards,
  searchShard,
  type ShardResult,
} from "./mention-shards";
import { bundleEntry } from "../platform/bundle-entry";

/** Smaller catalogs rank in one thread: handing half a keystroke over costs more than it saves. */
export const SHARD_MIN_ENTRIES = 20_000;
/** A helper that has not answered a search in this long is taken as lost. */
const ANSWER_TIMEOUT_MS = 5_000;
/** Entries hashed between pauses while splitting. */
const SLICE = 50_000;
/** How long one half waits for the other's count (see countsTogether). */
const COUNTS_WAIT_MS = 3;
/** Where each thread's counts are in the shared slots: per stage, a search number and a count each. */
export const ASKER = 0;
export const HELPER = 2;
const SLOTS_PER_STAGE = 4;
const STAGES = 3;

/**
 * One half's side of telling the other how many matches it found at a stage of search `seq` (into
 * its slots of `slots`, see ASKER) and hearing the other's (see PartsTogether). It waits for the
 * other's count only when that could fill `limit` with its own: a half far short of its share does
 * not wait (the other will not make up the rest); a count that does not come within COUNTS_WAIT_MS
 * counts as none, which is only slower, never wrong.
 */
export function countsTogether(
  slots: Int32Array,
  mine: number,
  theirs: number,
  seq: number,
  limit: number,
  stage: Stage,
  count: number,
  wait = true,
): number {
  const at = stage * SLOTS_PER_STAGE;
  Atomics.store(slots, at + mine + 1, count);
  Atomics.store(slots, at + mine, seq);
  Atomics.notify(slots, at + mine);
  // A count is stored before its search number: whoever reads this search's number reads its count.
  const told = () => (Atomics.load(slots, at + theirs) === seq ? Atomics.load(slots, at + theirs + 1) : 0);
  if (!wait || count * 4 < limit || count >= limit) return told();
  const deadline = performance.now() + COUNTS_WAIT_MS;
  for (let seen = Atomics.load(slots, at + theirs); seen !== seq; seen = Atomics.load(slots, at + theirs)) {
    const left = deadline - performance.now();
    if (left <= 0) return 0;
    Atomics.wait(slots, at + theirs, seen, left);
  }
  return told();
}

export type ShardLoad = { op: "load"; shard: number; snapshot: IndexSnapshot; globals: Int32Array };
export type ShardMessage = ShardLoad | { op: "dispose"; shard: number };
export type ShardSearch = { shard: number; seq: number; query: string; limit: number; state: number };
export type ShardSearchReply = { seq: number; result?: ShardResult; error?: string };
type HelperReply = { op: "loaded"; shard: number } | { op: "failed"; shard: number; error: string };

/** The helper thread of this thread's big indexes: started on first use, again after it is lost. */
class Helper {
  readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly counter = new Int32Array(new SharedArrayBuffer(4));
  /** Each side's counts for the current search (see countsTogether). */
  readonly counts = new Int32Array(new SharedArrayBuffer(4 * SLOTS_PER_STAGE * STAGES));
  private readonly builds = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private nextShard = 1;
  private nextSeq = 1;
  lost = false;

  constructor(private readonly log: (message: string) => void) {
    const { file, execArgv } = bundleEntry("ranking-shard-worker", import.meta.url);
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(file, {
      execArgv,
      workerData: { searchPort: port2, answered: this.counter.buffer, counts: this.counts.buffer },
      transferList: [port2],
    });
    this.worker.on("message", (reply: HelperReply) => {
      const build = this.builds.get(reply.shard);
      this.builds.delete(reply.shard);
      if (reply.op === "loaded") build?.resolve();
      else build?.reject(new Error(reply.error));
    });
    this.worker.on("error", (error) => this.lose(`the ranking helper failed: ${error.message}`));
    this.worker.on("exit", (code) => this.lose(`the ranking helper exited (${code})`));
    // After the listeners: on Node 24 a "message" listener added later refs the worker's port again.
    this.worker.unref();
  }

  lose(reason: string): void {
    if (this.lost) return;
    this.lost = true;
    this.log(reason);
    for (const build of this.builds.values()) build.reject(new Error(reason));
    this.builds.clear();
    void this.worker.terminate();
  }

  /** Moves an index built here to the helper (its arrays go with it); resolves once it is held there. */
  load(index: MentionIndex, globals: Int32Array): { shard: number; loaded: Promise<void> } {
    const shard = this.nextShard++;
    const loaded = new Promise<void>((resolve, reject) => this.builds.set(shard, { resolve, reject }));
    const { snapshot, transfer } = index.snapshot();
    this.worker.postMessage({ op: "load", shard, snapshot, globals } satisfies ShardLoad, [
      ...transfer,
      globals.buffer as ArrayBuffer,
    ]);
    return { shard, loaded };
  }

  dispose(shard: number): void {
    if (!this.lost) this.worker.postMessage({ op: "dispose", shard } satisfies ShardMessage);
  }

  /** Hands a search over; answer() waits for it. */
  ask(request: Omit<ShardSearch, "seq">): number {
    const seq = this.nextSeq++;
    this.port.postMessage({ ...request, seq } satisfies ShardSearch);
    return seq;
  }

  /** The helper's answer to search `seq`, waiting for it; undefined once the helper is lost. */
  answer(seq: number): ShardSearchReply | undefined {
    const deadline = Date.now() + ANSWER_TIMEOUT_MS;
    while (!this.lost) {
      const done = Atomics.load(this.counter, 0);
      if (done >= seq) {
        // Answers to searches given up on earlier come first; each is in the port before the counter moves.
        const received = receiveMessageOnPort(this.port) as { message: ShardSearchReply } | undefined;
        if (received?.message.seq === seq) return received.message;
        if (received) continue;
      } else Atomics.wait(this.counter, 0, done, 100);
      if (Date.now() > deadline) this.lose(`the ranking helper did not answer in ${ANSWER_TIMEOUT_MS / 1000} s`);
    }
    return undefined;
  }
}

let helper: Helper | undefined;
function currentHelper(log: (message: string) => void): Helper {
  if (!helper || helper.lost) helper = new Helper(log);
  return helper;
}

/** The helper's heap in use and its memory outside the heap (its halves' arrays), in bytes; undefined without one. */
export async function rankingHelperMemory(): Promise<{ heapUsed: number; external: number } | undefined> {
  if (!helper || helper.lost) return undefined;
  const stats = await helper.worker.getHeapStatistics();
  return { heapUsed: stats.used_heap_size, external: stats.external_memory };
}

/** Stops this thread's helper as a crash would (tests): its indexes rank their halves here from then on. */
export async function stopRankingHelper(): Promise<void> {
  const worker = helper?.worker;
  if (!worker) return;
  const exited = new Promise((resolve) => worker.once("exit", resolve));
  await worker.terminate();
  await exited;
}

/** Shards of indexes dropped without dispose(): released when collected. */
const unreleased = new FinalizationRegistry<{ helper: Helper; shard: number }>(({ helper, shard }) =>
  helper.dispose(shard),
);

type Half = { index: MentionIndex; globals: Int32Array };

/** An index in two halves, one here and one in the helper thread (see the top of this file). */
export class ShardedIndex implements RankingIndex {
  private readonly sharedState: SearchState = {};
  private readonly stateIds = new WeakMap<SearchState, number>();
  private nextState = 1;
  /** The helper's half, until it is lost; then `theirs` holds it here. */
  private remote: { helper: Helper; shard: number } | undefined;
  private theirs: Half | undefined;

  constructor(
    private readonly mine: Half,
    private readonly remoteGlobals: Int32Array,
    remote: { helper: Helper; shard: number },
    private readonly entryAt: (i: number) => IndexEntry,
    private readonly log: (message: string) => void,
  ) {
    this.remote = remote;
    unreleased.register(this, remote, this);
  }

  search(query: string, limit = Infinity, state: SearchState = this.sharedState): SearchResult {
    const remote = this.remote;
    const seq =
      remote && !remote.helper.lost
        ? remote.helper.ask({ shard: remote.shard, query, limit, state: this.stateId(state) })
        : undefined;
    const together =
      seq === undefined
        ? undefined
        : (stage: Stage, count: number, wait?: boolean) =>
            countsTogether(remote!.helper.counts, ASKER, HELPER, seq, limit, stage, count, wait);
    const mine = searchShard(this.mine.index, this.mine.globals, query, limit, state, together);
    let reply = seq === undefined ? undefined : remote!.helper.answer(seq);
    if (!reply?.result) {
      this.takeOver(reply?.error ?? (remote ? "the ranking helper was lost" : "the helper's half was released"));
      reply = {
        seq: 0,
        result: searchShard(this.theirs!.index, this.theirs!.globals, query, limit, this.theirState(state)),
      };
    }
    return mergeShards([mine, reply.result!], limit);
  }

  highlights(i: number, query: string, tier: number): [number, number][] {
    return entryHighlights(this.entryAt(i), query, tier);
  }

  dispose(): void {
    if (!this.remote) return;
    unreleased.unregister(this);
    this.remote.helper.dispose(this.remote.shard);
    this.remote = undefined;
  }

  private stateId(state: SearchState): number {
    let id = this.stateIds.get(state);
    if (id === undefined) this.stateIds.set(state, (id = this.nextState++));
    return id;
  }

  /** The helper's half, built here when the helper is gone (once; every keystroke after ranks it here). */
  private takeOver(reason: string): void {
    if (this.theirs) return;
    this.log(`ranking in one thread from now on: ${reason}`);
    this.dispose();
    this.theirs = {
      index: new MentionIndex(Array.from(this.remoteGlobals, this.entryAt)),
      globals: this.remoteGlobals,
    };
  }

  /** Narrowing states for the half taken over, one per caller state. */
  private readonly takenStates = new WeakMap<SearchState, SearchState>();
  private theirState(state: SearchState): SearchState {
    let own = this.takenStates.get(state);
    if (!own) this.takenStates.set(state, (own = {}));
    return own;
  }
}

/**
 * The index for a catalog: in two halves (see ShardedIndex) when it is big and the machine has a
 * second core, else one MentionIndex. Both halves are built here a slice at a time, calling `pause`
 * between slices, and one is moved to the helper. `entryAt(i)` gives entry i again later (highlights,
 * a half taken over), so the index keeps no second copy of the entries.
 */
export async function buildRankingIndex(
  entries: readonly IndexEntry[],
  pause: () => Promise<void>,
  entryAt: (i: number) => IndexEntry,
  log: (message: string) => void = () => {},
): Promise<RankingIndex> {
  if (entries.length < SHARD_MIN_ENTRIES || os.availableParallelism() < 2) return MentionIndex.build(entries, pause);
  const folderOf = new Int32Array(entries.length);
  for (let from = 0; from < entries.length; from += SLICE) {
    for (let i = from; i < Math.min(entries.length, from + SLICE); i++)
      folderOf[i] = folderHash(entries[i]!.path, entries[i]!.nameStart);
    await pause();
  }
  const shardOf = assignShards(folderOf, 2);
  const globalsOf = (shard: number) => {
    const globals: number[] = [];
    for (let i = 0; i < entries.length; i++) if (shardOf[i] === shard) globals.push(i);
    return Int32Array.from(globals);
  };
  const [mineGlobals, theirGlobals] = [globalsOf(0), globalsOf(1)];
  const mine = await MentionIndex.build(
    Array.from(mineGlobals, (i) => entries[i]!),
    pause,
  );
  // The helper's half is built here too and moved there whole: the helper then holds the index and
  // nothing else, where building it there would leave it the build's garbage (hundreds of MB at a
  // million paths, which its heap keeps until it feels the need to collect).
  const theirs = await MentionIndex.build(
    Array.from(theirGlobals, (i) => entries[i]!),
    pause,
  );
  const helper = currentHelper(log);
  // A copy of the catalog indices: the one sent is moved to the helper.
  const remote = helper.load(theirs, theirGlobals.slice());
  try {
    await remote.loaded;
  } catch (error) {
    log(`ranking in one thread: ${error instanceof Error ? error.message : String(error)}`);
    return MentionIndex.build(entries, pause);
  }
  return new ShardedIndex(
    { index: mine, globals: mineGlobals },
    theirGlobals,
    { helper, shard: remote.shard },
    entryAt,
    log,
  );
}
