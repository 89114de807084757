// One file of a worktree chat as a unified diff, its base against its worktree, for the board's inline
// diff in a browser (VS Code opens its own diff editor). Loaded on demand: `diff` is needed only here.
// Pure.
import { createTwoFilesPatch } from "diff";

export type WorktreeFileSides = { path: string; before: string | null; after: string | null; binary: boolean };

/** The unified diff of the file (an absent side is /dev/null); undefined for a binary file. */
export function worktreeFileDiff(file: WorktreeFileSides): string | undefined {
  if (file.binary) return undefined;
  return createTwoFilesPatch(
    file.before === null ? "/dev/null" : `a/${file.path}`,
    file.after === null ? "/dev/null" : `b/${file.path}`,
    file.before ?? "",
    file.after ?? "",
  );
}
