// The @ popup's result list (spec rules 2, 8 to 13): files first, then agents, actions, tools, MCP
// tools and the model, each group in relevance order; caps for the All view and for files.
import { ALL_VIEW_PER_CATEGORY, FILE_DISPLAY_CAP, MENTION_CATEGORIES, type MentionCategory, type MentionItem, type RankedMention } from "../shared/mentions";
import { MentionIndex } from "./mention-rank";

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

/** The file side of the popup, indexed once per scan. */
export class FileMentions {
  readonly index: MentionIndex;

  constructor(readonly files: readonly FileMention[]) {
    this.index = new MentionIndex(files.map((f) => ({ path: f.path, nameStart: f.path.lastIndexOf("/") + 1, other: f.tags?.join(" ") })));
  }

  item(i: number, highlights: [number, number][] = []): RankedMention {
    const path = this.files[i]!.path;
    return { category: "files", label: path.slice(path.lastIndexOf("/") + 1), detail: fileFolder(path), insertText: `@${path}`, highlights };
  }
}

export type MentionQuery = { category?: MentionCategory; limit?: number };

function strip({ searchText: _searchText, ...item }: MentionItem, highlights: [number, number][] = []): RankedMention {
  return { ...item, highlights };
}

export function rankMentions(files: FileMentions, others: readonly MentionItem[], query: string, options: MentionQuery = {}): RankedMention[] {
  const { category, limit = Infinity } = options;
  const wants = (c: MentionCategory) => category === undefined || category === c;
  const results: RankedMention[] = [];

  if (query === "") {
    // Empty query: catalog order; the All view shows a few of each, a chosen category shows all.
    for (const c of MENTION_CATEGORIES) {
      if (!wants(c)) continue;
      const cap = category === undefined ? ALL_VIEW_PER_CATEGORY : c === "files" ? FILE_DISPLAY_CAP : Infinity;
      if (c === "files") for (let i = 0; i < Math.min(cap, files.files.length); i++) results.push(files.item(i));
      else results.push(...others.filter((o) => o.category === c).slice(0, cap).map((o) => strip(o)));
    }
    return results.slice(0, limit);
  }

  if (wants("files")) {
    const { indices, tiers } = files.index.search(query, FILE_DISPLAY_CAP);
    indices.forEach((i, n) => results.push(files.item(i, files.index.highlights(i, query, tiers[n]!))));
  }
  // Non-file items in category order, then ranked together by relevance.
  const rest = MENTION_CATEGORIES.filter((c) => c !== "files" && wants(c)).flatMap((c) => others.filter((o) => o.category === c));
  if (rest.length > 0) {
    const index = new MentionIndex(rest.map((o) => ({ path: o.label, nameStart: 0, other: o.searchText })));
    const { indices, tiers } = index.search(query);
    indices.forEach((i, n) => results.push(strip(rest[i]!, index.highlights(i, query, tiers[n]!))));
  }
  return results.slice(0, limit);
}
