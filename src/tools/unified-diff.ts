// A file change as a unified diff (`diff`'s patch format), capped so a rewrite of a huge file cannot
// bloat the transcript.
import { createTwoFilesPatch } from "diff";

const MAX_DIFF_CHARS = 64 * 1024;

export function unifiedDiff(relPath: string, before: Buffer | null, after: Buffer): string {
  const patch = createTwoFilesPatch(
    before === null ? "/dev/null" : `a/${relPath}`,
    `b/${relPath}`,
    before?.toString("utf8") ?? "",
    after.toString("utf8"),
  );
  return patch.length > MAX_DIFF_CHARS
    ? `${patch.slice(0, MAX_DIFF_CHARS)}\n… (diff cut at ${MAX_DIFF_CHARS / 1024} KB)\n`
    : patch;
}
