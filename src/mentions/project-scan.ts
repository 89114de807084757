// Lists a project's text files the way a developer expects: `.gitignore` files honoured at every
// level, `.git` and the usual heavy folders skipped, binaries left out (by name where it decides,
// else by looking at the first bytes), symlinked folders never followed (so loops cannot trap it).
import fs from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { looksLikeText, textByName } from "../platform/text-files";

export const SKIPPED_DIRS = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  ".next",
  ".nuxt",
  ".gradle",
  ".parcel-cache",
  ".turbo",
  ".cache",
]);
const PARALLEL_DIRS = 32;
/** Kernel and device trees: endless or blocking files, never project content (a project at `/` must not walk them). */
const SYSTEM_DIRS = new Set(["/proc", "/sys", "/dev"]);

/** How much one scan may read before it stops and returns what it found. */
export type ScanBudget = { maxEntries: number; maxMs: number };
export const DEFAULT_SCAN_BUDGET: ScanBudget = { maxEntries: 2_000_000, maxMs: 60_000 };
const SNIFF_BYTES = 4096;

type Rules = readonly { base: string; matcher: Ignore }[];

/** Whether `relPath` (with a trailing `/` for folders) is ignored; deeper files and later lines win. */
function isIgnored(rules: Rules, relPath: string): boolean {
  let ignored = false;
  for (const { base, matcher } of rules) {
    const result = matcher.test(relPath.slice(base.length));
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

async function sniffIsText(file: string): Promise<boolean> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, "r");
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return looksLikeText(buffer.subarray(0, bytesRead));
  } catch {
    return false;
  } finally {
    await handle?.close().catch(() => {});
  }
}

async function runPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Project-relative paths of the text files, shallow ones first, then by path. */
export async function scanProjectFiles(root: string, budget: ScanBudget = DEFAULT_SCAN_BUDGET): Promise<string[]> {
  return (await scanWithinBudget(root, budget)).paths;
}

/** Like scanProjectFiles; `complete` is false when the entry or time budget ran out first. */
export async function scanWithinBudget(
  root: string,
  budget: ScanBudget = DEFAULT_SCAN_BUDGET,
): Promise<{ paths: string[]; complete: boolean }> {
  const realRoot = await fs.realpath(root);
  const deadline = Date.now() + budget.maxMs;
  let entriesSeen = 0;
  let complete = true;
  const found: string[] = [];
  const undecided: string[] = [];
  const pending: { rel: string; rules: Rules }[] = [{ rel: "", rules: [] }];
  let active = 0;

  const consider = (rel: string, name: string) => {
    const byName = textByName(name);
    if (byName === true) found.push(rel);
    else if (byName === undefined) undecided.push(rel);
  };

  const visit = async ({ rel, rules: inherited }: { rel: string; rules: Rules }) => {
    const dir = path.join(realRoot, rel);
    if (SYSTEM_DIRS.has(dir.replace(/\/+$/, ""))) return;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    entriesSeen += entries.length;
    if (entriesSeen > budget.maxEntries || Date.now() > deadline) {
      // Out of budget: stop walking; what was found so far is still listed.
      complete = false;
      pending.length = 0;
      return;
    }
    let rules = inherited;
    if (entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      const text = await fs.readFile(path.join(dir, ".gitignore"), "utf8").catch(() => "");
      rules = [...rules, { base: rel, matcher: ignore().add(text) }];
    }
    for (const entry of entries) {
      const relPath = rel + entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !isIgnored(rules, `${relPath}/`))
          pending.push({ rel: `${relPath}/`, rules });
      } else if (entry.isFile()) {
        if (!isIgnored(rules, relPath)) consider(relPath, entry.name);
      } else if (entry.isSymbolicLink() && !isIgnored(rules, relPath)) {
        // A link to a file inside the project is listed; links to folders are not followed.
        const target = await fs.realpath(path.join(dir, entry.name)).catch(() => undefined);
        const stat = target ? await fs.stat(target).catch(() => undefined) : undefined;
        if (stat?.isFile() && target!.startsWith(realRoot + path.sep)) consider(relPath, entry.name);
      }
      // FIFOs, sockets and devices are never listed (reading a FIFO would block).
    }
  };

  await new Promise<void>((resolve) => {
    const pump = () => {
      while (active < PARALLEL_DIRS && pending.length > 0) {
        active++;
        void visit(pending.pop()!).finally(() => {
          active--;
          pump();
        });
      }
      if (active === 0 && pending.length === 0) resolve();
    };
    pump();
  });

  await runPool(undecided, PARALLEL_DIRS, async (rel) => {
    if (Date.now() > deadline) {
      complete = false;
      return;
    }
    if (await sniffIsText(path.join(realRoot, rel))) found.push(rel);
  });
  return { paths: sortShallowFirst(found), complete };
}

/**
 * Whether one project-relative file would be listed by a scan (the same rules, checked for one
 * path: heavy folders, `.gitignore` files of every ancestor folder, binaries, links); for a file
 * watcher's events. `gitignores` caches each folder's rules (drop it when a `.gitignore` changes).
 */
export async function isListedFile(
  root: string,
  rel: string,
  gitignores: Map<string, Ignore | null>,
): Promise<boolean> {
  const realRoot = await fs.realpath(root).catch(() => root);
  const parts = rel.split("/");
  let rules: Rules = [];
  let folder = "";
  for (let k = 0; k < parts.length; k++) {
    let matcher = gitignores.get(folder);
    if (matcher === undefined) {
      const text = await fs.readFile(path.join(realRoot, folder, ".gitignore"), "utf8").catch(() => undefined);
      matcher = text === undefined ? null : ignore().add(text);
      gitignores.set(folder, matcher);
    }
    if (matcher) rules = [...rules, { base: folder, matcher }];
    if (k === parts.length - 1) break;
    if (SKIPPED_DIRS.has(parts[k]!) || SYSTEM_DIRS.has(path.join(realRoot, folder, parts[k]!))) return false;
    folder += `${parts[k]}/`;
    if (isIgnored(rules, folder)) return false;
  }
  if (isIgnored(rules, rel)) return false;
  const full = path.join(realRoot, rel);
  const stat = await fs.lstat(full).catch(() => undefined);
  if (!stat) return false;
  if (stat.isSymbolicLink()) {
    const target = await fs.realpath(full).catch(() => undefined);
    const targetStat = target ? await fs.stat(target).catch(() => undefined) : undefined;
    if (!targetStat?.isFile() || !target!.startsWith(realRoot + path.sep)) return false;
  } else if (!stat.isFile()) return false;
  const byName = textByName(parts.at(-1)!);
  return byName ?? (await sniffIsText(full));
}

function depth(p: string): number {
  let n = 0;
  for (let i = 0; i < p.length; i++) if (p.charCodeAt(i) === 47) n++;
  return n;
}

/** Shallow paths first, then by path. */
export function compareShallowFirst(a: string, b: string): number {
  return depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The order of compareShallowFirst, fast: bucket by depth (counted once), native sort per bucket. */
export function sortShallowFirst(paths: string[]): string[] {
  const buckets: string[][] = [];
  for (const p of paths) (buckets[depth(p)] ??= []).push(p);
  return buckets.flatMap((bucket) => (bucket ? bucket.sort() : []));
}

/** Scans at most every `maxAgeMs` per project; callers that arrive during a scan share it. */
export class ProjectScanner {
  private readonly scans = new Map<
    string,
    { at: number; paths: string[] } | Promise<{ at: number; paths: string[] }>
  >();

  constructor(
    private readonly maxAgeMs = 10_000,
    private readonly clock: () => number = Date.now,
  ) {}

  async scan(projectId: string, dir: string): Promise<{ at: number; paths: string[] }> {
    const current = this.scans.get(projectId);
    if (current instanceof Promise) return current;
    if (current && this.clock() - current.at < this.maxAgeMs) return current;
    const running = scanProjectFiles(dir)
      .then((paths) => {
        const result = { at: this.clock(), paths };
        this.scans.set(projectId, result);
        return result;
      })
      .catch((error) => {
        if (current) this.scans.set(projectId, current);
        else this.scans.delete(projectId);
        throw error;
      });
    this.scans.set(projectId, running);
    return running;
  }
}
