// The @ popup's result list (spec rules 2, 8 to 13): files first, then agents, actions, tools, MCP
// tools and the model, each group in relevance order; caps for the All view and for files.
import {
  ALL_VIEW_PER_CATEGORY,
  FILE_DISPLAY_CAP,
  MENTION_CATEGORIES,
  type MentionCategory,
  type MentionItem,
  type RankedMention,
} from "../mentions";
import { MentionIndex, type IndexEntry, type RankingIndex, type SearchState } from "./mention-index";

export const PROJECT_ROOT_FOLDER = "Project root";

export type FileMention = { path: string; tags?: readonly string[] };

/** The folder line under a file row: its project-relative folder, or `Project root`. */
export function fileFolder(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? PROJECT_ROOT_FOLDER : path.slice(0, slash);
}

/** Tagged files first (tags are part of their search text), then the scanned files not tagged. */
export function fileCatalog(tagged: readonly FileMention[], scanned: readonly string[]): FileMention[] {
  const seen = new Set(tagged.map((f) => f.path));
  return [...tagged, ...scanned.filter((p) => !seen.has(p)).map((path) => ({ path }))];
}

const fileEntry = (f: FileMention): IndexEntry => ({
  path: f.path,
  nameStart: f.path.lastIndexOf("/") + 1,
  other: f.tags?.join(" "),
});

/**
 * Builds a ranking index of `entries`, calling `pause` between slices; `entryAt(i)` gives entry i
 * again later, so the index need not keep them. One MentionIndex by default; the server splits
 * big ones across threads (src/mentions/ranking-shards.ts).
 */
export type IndexBuilder = (
  entries: readonly IndexEntry[],
  pause: () => Promise<void>,
  entryAt: (i: number) => IndexEntry,
) => Promise<RankingIndex>;
const oneIndex: IndexBuilder = (entries, pause) => MentionIndex.build(entries, pause);

/** The file side of the popup, indexed once per scan. */
export class FileMentions {
  readonly index: RankingIndex;

  constructor(
    readonly files: readonly FileMention[],
    index?: RankingIndex,
  ) {
    this.index = index ?? new MentionIndex(files.map(fileEntry));
  }

  /** The same, built a slice at a time (see MentionIndex.build), by `buildIndex`. */
  static async build(
    files: readonly FileMention[],
    pause: () => Promise<void>,
    buildIndex: IndexBuilder = oneIndex,
  ): Promise<FileMentions> {
    return new FileMentions(files, await buildIndex(files.map(fileEntry), pause, (i) => fileEntry(files[i]!)));
  }

  item(i: number, highlights: [number, number][] = []): RankedMention {
    const path = this.files[i]!.path;
    return {
      category: "files",
      label: path.slice(path.lastIndexOf("/") + 1),
      detail: fileFolder(path),
      insertText: `@${path}`,
      highlights,
    };
  }
}

export type MentionQuery = { category?: MentionCategory; limit?: number };

function strip({ searchText: _searchText, ...item }: MentionItem, highlights: [number, number][] = []): RankedMention {
  return { ...item, highlights };
}

export function rankMentions(
  files: FileMentions,
  others: readonly MentionItem[],
  query: string,
  options: MentionQuery = {},
): RankedMention[] {
  return [...rankFiles(files, query, options), ...rankOthers(others, query, options)].slice(
    0,
    options.limit ?? Infinity,
  );
}

/** The file rows of rankMentions (they come first); `state` is the caller's narrowing state. */
export function rankFiles(
  files: FileMentions,
  query: string,
  options: MentionQuery = {},
  state?: SearchState,
): RankedMention[] {
  const { category, limit = Infinity } = options;
  if (category !== undefined && category !== "files") return [];
  const results: RankedMention[] = [];
  if (query === "") {
    // Empty query: catalog order; the All view shows a few, the Files chip up to the display cap.
    const cap = Math.min(category === undefined ? ALL_VIEW_PER_CATEGORY : FILE_DISPLAY_CAP, limit);
    for (let i = 0; i < Math.min(cap, files.files.length); i++) results.push(files.item(i));
    return results;
  }
  const { indices, tiers, fuzzyRanges } = files.index.search(query, Math.min(FILE_DISPLAY_CAP, limit), state);
  indices.forEach((i, n) =>
    results.push(files.item(i, fuzzyRanges?.[n] ?? files.index.highlights(i, query, tiers[n]!))),
  );
  return results;
}

/** The non-file rows of rankMentions: in category order, then ranked together by relevance. */
export function rankOthers(others: readonly MentionItem[], query: string, options: MentionQuery = {}): RankedMention[] {
  const { category } = options;
  const wants = (c: MentionCategory) => category === undefined || category === c;
  const results: RankedMention[] = [];
  if (query === "") {
    for (const c of MENTION_CATEGORIES) {
      if (c === "files" || !wants(c)) continue;
      const cap = category === undefined ? ALL_VIEW_PER_CATEGORY : Infinity;
      results.push(
        ...others
          .filter((o) => o.category === c)
          .slice(0, cap)
          .map((o) => strip(o)),
      );
    }
    return results;
  }
  const rest = MENTION_CATEGORIES.filter((c) => c !== "files" && wants(c)).flatMap((c) =>
    others.filter((o) => o.category === c),
  );
  if (rest.length > 0) {
    const index = new MentionIndex(rest.map((o) => ({ path: o.label, nameStart: 0, other: o.searchText })));
    const { indices, tiers, fuzzyRanges } = index.search(query);
    indices.forEach((i, n) => results.push(strip(rest[i]!, fuzzyRanges?.[n] ?? index.highlights(i, query, tiers[n]!))));
  }
  return results;
}
