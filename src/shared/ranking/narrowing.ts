// What a typist's next keystroke starts from. A query that extends the last one of the same caller
// has a subset of its matches, occurs only where it occurred, and takes the folder parts of its
// fuzzy scores a character further: so each caller (one per client) keeps its last query, its
// matches and where it occurred (SearchState), and an index keeps folder caches for the typists seen
// last. The state belongs to the caller, so two people typing at once never undo each other's narrowing.
import { FolderCache } from "./fuzzy-score";

/** What one client typed last and what matched it: the next keystroke that extends it narrows from it. */
type Occurrences = { query: string; at: Int32Array };
export type SearchState = {
  query?: string;
  matches?: Int32Array;
  /** Where the last scanned query occurs in the joined names and folders (see scanNames, scanFolders). */
  occurrences?: Occurrences;
  folderOccurrences?: Occurrences;
};
/** Folder caches an index keeps (each about 180 bytes a folder), for the typists seen last. */
const FOLDER_CACHES = 2;

/** An index's folder caches (see FolderCache), each held by the caller that used it last. */
export class FolderCaches {
  private readonly held: { owner: SearchState; cache: FolderCache; used: number }[] = [];
  private clock = 0;

  /** `make` makes a cache for the index's folders (they are known once it is built). */
  constructor(private readonly make: () => FolderCache) {}

  /** The caller's folder cache: its own while it types, else the one used longest ago, reset. */
  of(state: SearchState): FolderCache {
    let held = this.held.find((c) => c.owner === state);
    if (!held) {
      if (this.held.length < FOLDER_CACHES) this.held.push((held = { owner: state, cache: this.make(), used: 0 }));
      else {
        held = this.held.reduce((a, b) => (a.used <= b.used ? a : b));
        held.owner = state;
        held.cache.reset();
      }
    }
    held.used = ++this.clock;
    return held.cache;
  }
}

/**
 * Where q occurs in `text`, ascending: within `last`'s occurrences when q extends its query (a
 * longer string occurs only where its prefix does), else from one pass over all of it.
 */
export function occurrences(text: string, q: string, last: Occurrences | undefined): Occurrences {
  if (last && q.startsWith(last.query)) {
    // Only the characters q adds need comparing (hundreds of thousands of places at a million paths).
    const known = last.query.length;
    const kept = new Int32Array(last.at.length);
    let count = 0;
    next: for (const at of last.at) {
      for (let k = known; k < q.length; k++) if (text.charCodeAt(at + k) !== q.charCodeAt(k)) continue next;
      kept[count++] = at;
    }
    return { query: q, at: kept.slice(0, count) };
  }
  let found = new Int32Array(1024);
  let count = 0;
  for (let at = text.indexOf(q); at !== -1; at = text.indexOf(q, at + 1)) {
    if (count === found.length) {
      const grown = new Int32Array(2 * count);
      grown.set(found);
      found = grown;
    }
    found[count++] = at;
  }
  return { query: q, at: found.slice(0, count) };
}
