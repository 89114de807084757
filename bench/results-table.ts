// The results table `npm run bench` writes (docs/benchmark-results.md): the latest run of each group,
// one row per result line. Pure but for writeResultsFile: lines in, markdown out. The file keeps the
// lines it was made from in a comment at its end, so a run of one group replaces that group's rows
// and keeps the others' as they were.
import fs from "node:fs";

export type Machine = { os: string; cpus: string; node: string };
export type ResultLine = { bench: string } & Record<string, unknown>;
/** One group's latest run: when, where, and its result lines (or why it stopped). */
export type GroupRun = { group: string; date: string; machine: Machine; lines: ResultLine[]; failed?: string };

const DATA_OPEN = "<!-- bench-results-data";
const DATA_CLOSE = "-->";

/** The result lines among what a bench printed: JSON objects with a `bench` name; anything else is skipped. */
export function resultLines(printed: string[]): ResultLine[] {
  const lines: ResultLine[] = [];
  for (const text of printed) {
    try {
      const value = JSON.parse(text) as unknown;
      if (value && typeof value === "object" && typeof (value as ResultLine).bench === "string")
        lines.push(value as ResultLine);
    } catch {
      // Not a result line.
    }
  }
  return lines;
}

/** The runs a results file was made from; none when there is no file or its data is unreadable. */
export function storedRuns(markdown: string | undefined): GroupRun[] {
  if (!markdown) return [];
  const start = markdown.lastIndexOf(DATA_OPEN);
  if (start === -1) return [];
  const end = markdown.indexOf(DATA_CLOSE, start);
  if (end === -1) return [];
  try {
    const runs = JSON.parse(markdown.slice(start + DATA_OPEN.length, end)) as unknown;
    return Array.isArray(runs)
      ? runs.filter((r): r is GroupRun => typeof r?.group === "string" && Array.isArray(r.lines))
      : [];
  } catch {
    return [];
  }
}

/** The stored runs with the groups of `fresh` replaced by their new run, in `order` (unknown groups last). */
export function mergeRuns(stored: GroupRun[], fresh: GroupRun[], order: readonly string[]): GroupRun[] {
  const ran = new Set(fresh.map((r) => r.group));
  const rank = (group: string) => (order.includes(group) ? order.indexOf(group) : order.length);
  return [...stored.filter((r) => !ran.has(r.group)), ...fresh].sort((a, b) => rank(a.group) - rank(b.group));
}

/**
 * Which fields of a line are its key values and which its baseline, where the whole line says more
 * than a row should. `a.b` reads `b` of each element of the list `a`. Lines not named here show every
 * plain field, and take as baseline the fields named after one (BASELINE).
 */
const COLUMNS: Record<string, { values: string[]; baseline?: string[]; variant?: string[] }> = {
  "chat.first_token": { values: ["parleyMedianMs", "parleyP95Ms", "addedMedianMs"] },
  "chat.chunks_per_second": { values: ["parleyChunksPerSecond", "lossless"] },
  "chat.concurrent_streams": { values: ["streamsComplete", "chunksLost", "allInOrder", "firstTokenP95Ms"] },
  "chat.close_after_done": {
    values: ["hangingMedianMs", "hangingMaxMs"],
    baseline: ["bodyEndedMedianMs", "bodyEndedMaxMs"],
  },
  "mentions.health_while_busy": { values: ["busyMedianMs", "busyP95Ms", "busyWorstMs", "probes"] },
  "mentions.quality": { values: ["rows.parley"], baseline: ["rows.fzf", "rows.fuzzysort"] },
  "mentions.keystroke": {
    values: ["parleyMedianMs", "parleyP95Ms", "aheadOfBaselines"],
    baseline: ["fuzzysortMedianMs", "fuzzysortP95Ms", "uFuzzyMedianMs", "uFuzzyP95Ms"],
  },
  "mentions.index_memory": { values: ["countedMb", "heapMb", "typedArraysMb", "rssGrowthMb"] },
  "mentions.scan": { values: ["parleyMedianMs", "ratio"] },
  "mentions.watcher_first_walk": { values: ["parleyCpuMedianMs", "ratio"] },
  "mentions.http_keystroke": { values: ["medianMs", "p95Ms"] },
  "mentions.main_thread_stall": { values: ["longestStallMs", "p99StallMs", "hostSurelyStolenInLongestGapMs"] },
  "webview.first_screen_gzip": { values: ["gzipKb", "onDemandGzipKb", "files"], variant: [] },
  "extension.activation_to_listening": { values: ["parleyStartMedianMs", "addedMedianMs"] },
  "extension.sigterm_to_exit": { values: ["parleyMedianMs", "parleyMaxMs"] },
  "extension.sigterm_to_exit_while_watching": { values: ["exitMedianMs", "exitMaxMs", "watcherGoneMaxMs"] },
  "tools.shell_true": { values: ["toolMedianMs", "addedMedianMs"] },
  "tools.shell_sandboxed": { values: ["sandboxedMedianMs", "addedMedianMs"], variant: ["sandbox"] },
  "tools.loop_step_overhead": { values: ["parleyOverheadPerStepMs", "stepMedianMs"] },
  "mcp.cold_start_to_tool_list": { values: ["parleyMs", "tools"] },
  "mcp.call_overhead": { values: ["parleyMedianMs", "addedMedianMs"] },
  "popup.keystroke": { values: ["medianMs", "p95Ms"] },
  "popup.burst": { values: ["lastKeyMedianMs", "lastKeyP95Ms", "cancelledKeystrokes"] },
  "popup.tag_refresh": { values: ["medianMs", "maxMs"] },
  "search.query": { values: ["medianMs", "p95Ms", "hits"], variant: ["kind", "scope"] },
};
/** Fields that measure the baseline (the same work without Parley, or Parley idle). */
const BASELINE = /^(direct|bare|sdk|ripgrep|fuzzysort|uFuzzy|fzf|ignoringNothing|idle|baseline)/;
/** Fields that say which variant of a bench a line is (unless its COLUMNS say otherwise): shown beside its name. */
const VARIANT = ["tree", "paths", "files", "attempt"];
const VERDICT = ["meetsTarget", "pass"];
const NOTES = ["note", "skipped"];

function read(line: ResultLine, field: string): unknown {
  const [list, inner] = field.split(".");
  const value = line[list!];
  if (inner === undefined) return value;
  return Array.isArray(value) ? value.map((item) => (item as Record<string, unknown> | null)?.[inner] ?? null) : null;
}

function show(value: unknown): string {
  if (value === null || value === undefined) return "n/a";
  if (Array.isArray(value)) return value.map(show).join(" ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const fields = (line: ResultLine, names: string[]) =>
  names
    .filter((name) => read(line, name) !== undefined)
    .map((name) => `${name} ${show(read(line, name))}`)
    .join(", ");

const plain = (value: unknown) => value === null || ["number", "boolean", "string"].includes(typeof value);

/** One row of the table: bench (with its variant), key values, baseline, target and verdict. */
export function rowOf(line: ResultLine): [string, string, string, string, string] {
  const spec = COLUMNS[line.bench];
  const variantKeys = (spec?.variant ?? VARIANT).filter((k) => line[k] !== undefined);
  const variant = variantKeys.map((k) => `${k} ${show(line[k])}`);
  const name = `\`${line.bench}\`${variant.length > 0 ? ` (${variant.join(", ")})` : ""}`;
  const keys = Object.keys(line);
  const targets = keys.filter((k) => /^target/.test(k));
  const skip = new Set(["bench", ...variantKeys, ...VERDICT, ...NOTES, ...targets]);
  const baseline = spec?.baseline ?? keys.filter((k) => BASELINE.test(k) && !skip.has(k));
  const values = spec?.values ?? keys.filter((k) => !skip.has(k) && !baseline.includes(k) && plain(line[k]));
  const verdictField = VERDICT.find((k) => k in line);
  const note = NOTES.map((k) => line[k]).find((v) => typeof v === "string") as string | undefined;
  let verdict: string;
  if (verdictField === undefined) verdict = "no target";
  else if (line[verdictField] === true) verdict = "meets";
  else if (line[verdictField] === false) verdict = "**misses**";
  else verdict = "no verdict";
  if (note && (verdictField === undefined || typeof line[verdictField] !== "boolean")) verdict += `: ${note}`;
  return [name, fields(line, values), fields(line, baseline), fields(line, targets), verdict];
}

const cell = (text: string) => (text === "" ? "none" : text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|"));
const table = (head: string[], rows: string[][]) =>
  [head, head.map(() => "---"), ...rows].map((r) => `| ${r.map(cell).join(" | ")} |`).join("\n");

/** The whole file for `runs` (already merged). `latest` names the run that wrote it. */
export function renderResults(runs: GroupRun[], latest: { date: string; groups: string[] }): string {
  // One result line a line. Inside an HTML comment no `--` may appear: only JSON strings can hold
  // one, and there `\u002d` reads back as `-`.
  const data = `[\n${runs
    .map((run) => {
      const { lines, ...head } = run;
      return `${JSON.stringify(head).slice(0, -1)},"lines":[\n${lines.map((l) => JSON.stringify(l)).join(",\n")}\n]}`;
    })
    .join(",\n")}\n]`.replaceAll("--", "-\\u002d");
  const rows = runs.flatMap((run) => [
    ...run.lines.map((line) => [run.group, ...rowOf(line)]),
    ...(run.failed ? [[run.group, "(the group stopped)", run.failed, "", "", "**failed**"]] : []),
  ]);
  return [
    "# Benchmark results",
    "",
    "<!-- Generated by `npm run bench` (bench/results-table.ts): edits here are lost at the next run. -->",
    "",
    `Generated by \`npm run bench\`, last on ${latest.date} (${latest.groups.join(", ")}). It holds the latest run of`,
    "each group only, no history: a run of one group (`npm run bench -- chat`) replaces that group's rows and",
    "keeps the others. [benchmarks.md](benchmarks.md) says what each line measures and what it is held to;",
    "figures depend on the machine, so compare a row with its baseline, measured in the same run.",
    "",
    "## Runs",
    "",
    table(
      ["Group", "Date", "OS", "CPUs", "Node"],
      runs.map((r) => [r.group, r.date, r.machine.os, r.machine.cpus, r.machine.node]),
    ),
    "",
    "## Results",
    "",
    table(["Group", "Bench", "Values", "Baseline", "Target", "Verdict"], rows),
    "",
    DATA_OPEN,
    data,
    DATA_CLOSE,
    "",
  ].join("\n");
}

/** The file after a run of `fresh`: the stored runs of `existing` merged with them and rendered. */
export function resultsMarkdown(
  existing: string | undefined,
  fresh: GroupRun[],
  order: readonly string[],
  date: string,
): string {
  return renderResults(mergeRuns(storedRuns(existing), fresh, order), { date, groups: fresh.map((r) => r.group) });
}

/** Writes the results file for a run of `fresh`, formatted as `prettier --check` wants it. */
export async function writeResultsFile(
  file: string,
  fresh: GroupRun[],
  order: readonly string[],
  date: string,
): Promise<void> {
  const existing = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
  const prettier = await import("prettier");
  const options = (await prettier.resolveConfig(file)) ?? {};
  const markdown = await prettier.format(resultsMarkdown(existing, fresh, order, date), { ...options, filepath: file });
  fs.writeFileSync(file, markdown);
}
