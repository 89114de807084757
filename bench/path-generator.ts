// Deterministic, realistic project paths (a monorepo of packages with nested source folders and
// camelCase, snake_case and kebab-case names) for ranking and scan benchmarks.

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  "user account order invoice payment button modal header footer layout router store reducer action client server api auth token session cache queue worker job event stream parser lexer token util helper config logger metrics trace index main app page view list item card form input select table chart graph node edge tree map set state effect hook context provider service controller model schema migration seed fixture mock test spec".split(
    " ",
  );
const EXTENSIONS = ["ts", "ts", "ts", "tsx", "js", "json", "md", "css", "py", "go", "rs", "yaml"];
const TOP = ["packages", "apps", "libs", "services", "tools"];
const MIDDLE = [
  "src",
  "lib",
  "test",
  "components",
  "utils",
  "internal",
  "handlers",
  "models",
  "views",
  "fixtures",
  "__tests__",
  "scripts",
];

function name(random: () => number): string {
  const pick = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const style = random();
  const a = pick();
  const b = pick();
  const c = pick();
  if (style < 0.4) return `${a}${b[0]!.toUpperCase()}${b.slice(1)}`;
  if (style < 0.6) return `${a}_${b}`;
  if (style < 0.8) return `${a}-${b}-${c}`;
  return `${a[0]!.toUpperCase()}${a.slice(1)}${b[0]!.toUpperCase()}${b.slice(1)}`;
}

/**
 * `count` unique file paths spread over a folder tree of about count/12 folders (real projects
 * hold 10 to 20 files per folder), with some folders much fuller than others.
 */
export function generatePaths(count: number, seed = 42): string[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const folderCount = Math.max(1, Math.round(count / 12));
  const folders: string[] = [];
  const seen = new Set<string>();
  while (folders.length < Math.min(folderCount, 40)) {
    const root = `${pick(TOP)}/${pick(WORDS)}-${Math.floor(random() * 1000)}`;
    if (!seen.has(root)) (seen.add(root), folders.push(root));
  }
  while (folders.length < folderCount) {
    const parent = folders[Math.floor(random() ** 1.5 * folders.length)]!;
    if (parent.split("/").length > 7) continue;
    const folder = `${parent}/${random() < 0.5 ? pick(MIDDLE) : name(random).toLowerCase()}`;
    if (!seen.has(folder)) (seen.add(folder), folders.push(folder));
  }
  const paths = new Set<string>();
  while (paths.size < count) {
    const folder = folders[Math.floor(random() ** 1.3 * folders.length)]!;
    paths.add(`${folder}/${name(random)}.${pick(EXTENSIONS)}`);
  }
  return [...paths];
}
