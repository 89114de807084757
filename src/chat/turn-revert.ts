// Reverting a turn's file changes (contract 6.3.7, 7.2): every file the turn's tools wrote gets back what
// it held before the turn (a file the turn created is removed). A file changed since by something
// else is a conflict (409 listing it) unless the user forces the revert. A path that now leads out of
// the project or into .git/ (a folder replaced by a symlink, as a checkout can do) is a conflict
// whether forced or not, and every write resolves its folder again at the moment it is made.
import fs from "node:fs/promises";
import { AppError, notFound } from "../platform/app-error";
import type { RevertResult } from "../shared/tools";
import { sha256, type Checkpoint, type CheckpointsRepo } from "./checkpoints-repo";
import { ConfinementError, readConfined, removeConfined, writeConfined } from "../tools/confined-files";
import { resolveProjectPath } from "../tools/project-files";
import { ToolError } from "../tools/tool-error";

type Target = { entry: Checkpoint; rel: string };

/** The entry's path as it resolves now, or why it may not be written. */
async function resolveTarget(root: string, entry: Checkpoint): Promise<Target | { entry: Checkpoint; reason: string }> {
  try {
    return { entry, rel: (await resolveProjectPath(root, entry.path, "write")).rel };
  } catch (error) {
    if (error instanceof ToolError) return { entry, reason: error.message };
    throw error;
  }
}

async function currentHash(root: string, rel: string): Promise<string | null> {
  try {
    const file = await readConfined(root, rel);
    return file ? sha256(file.bytes) : null;
  } catch (error) {
    // A link or a folder where the file was: changed since, whatever it holds.
    if (error instanceof ConfinementError) return "";
    throw error;
  }
}

const refused = (paths: { path: string; reason: string }[]) =>
  new AppError(
    "conflict",
    `these files lead out of the project or into .git/ now, so Parley will not write them: ${paths.map((p) => p.path).join(", ")}`,
    paths,
  );

export async function revertTurn(
  checkpoints: CheckpointsRepo,
  chatId: string,
  turnId: string,
  projectDir: string,
  force: boolean,
): Promise<RevertResult> {
  const entries = checkpoints.forTurn(chatId, turnId);
  if (entries.length === 0) throw notFound(`turn ${turnId} of this chat changed no files`);
  const root = await fs.realpath(projectDir);
  const resolved = await Promise.all(entries.map((entry) => resolveTarget(root, entry)));
  const outside = resolved.flatMap((t) => ("reason" in t ? [{ path: t.entry.path, reason: t.reason }] : []));
  if (outside.length > 0) throw refused(outside);
  const targets = resolved as Target[];
  if (!force) {
    const changed: string[] = [];
    for (const { entry, rel } of targets)
      if ((await currentHash(root, rel)) !== entry.afterSha256) changed.push(entry.path);
    if (changed.length > 0) {
      throw new AppError(
        "conflict",
        `changed since this turn: ${changed.join(", ")}; revert with {"force": true} to overwrite them`,
        changed.map((file) => ({ path: file })),
      );
    }
  }
  const result: RevertResult = { restored: [], removed: [] };
  const failed: { path: string; reason: string }[] = [];
  for (const { entry, rel } of targets) {
    try {
      if (entry.before === null) {
        await removeConfined(root, rel);
        result.removed.push(entry.path);
      } else {
        await writeConfined(root, rel, Buffer.from(entry.before));
        result.restored.push(entry.path);
      }
    } catch (error) {
      if (!(error instanceof ConfinementError)) throw error;
      failed.push({ path: entry.path, reason: error.message });
    }
  }
  // A folder swapped between the check and the write: those files stay as they are, and the turn's
  // checkpoints stay, so the revert can be tried again.
  if (failed.length > 0) throw refused(failed);
  checkpoints.deleteTurn(chatId, turnId);
  return result;
}
