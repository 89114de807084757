// Small statistics helpers for benchmark output, and the record of the result lines printed so far.
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (values: number[]) => percentile(values, 50);
export const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** Every result line printed by this process (or relayed from a bench process of its own), in order. */
export const printedLines: string[] = [];

/** Prints a result line (one JSON line on stdout) as it came, and records it for the results table. */
export function printLine(line: string): void {
  printedLines.push(line);
  process.stdout.write(`${line}\n`);
}

export function report(result: Record<string, unknown>): void {
  printLine(JSON.stringify(result));
}
