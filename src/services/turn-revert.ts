// Reverting a turn's file changes (contract 6.3.7): every file the turn's tools wrote gets back what
// it held before the turn (a file the turn created is removed). A file changed since by something
// else is a conflict (409 listing it) unless the user forces the revert.
import fs from "node:fs/promises";
import path from "node:path";
import { AppError, notFound } from "../core/app-error";
import { isInside } from "../core/project-path";
import type { RevertResult } from "../shared/tools";
import { writeFileAtomic } from "../store/atomic-write";
import { sha256, type Checkpoint, type CheckpointsRepo } from "../store/checkpoints-repo";

async function currentHash(file: string): Promise<string | null> {
  try {
    return sha256(await fs.readFile(file));
  } catch {
    return null;
  }
}

export async function revertTurn(checkpoints: CheckpointsRepo, chatId: string, turnId: string, projectDir: string, force: boolean): Promise<RevertResult> {
  const entries = checkpoints.forTurn(chatId, turnId);
  if (entries.length === 0) throw notFound(`turn ${turnId} of this chat changed no files`);
  const root = await fs.realpath(projectDir);
  const target = (entry: Checkpoint) => {
    const file = path.join(root, entry.path);
    // Stored paths were confined when written; checked again, as the database is not the project.
    if (!isInside(root, file)) throw new AppError("conflict", `the checkpoint path ${entry.path} is outside the project`);
    return file;
  };
  if (!force) {
    const changed: string[] = [];
    for (const entry of entries) if ((await currentHash(target(entry))) !== entry.afterSha256) changed.push(entry.path);
    if (changed.length > 0) {
      throw new AppError("conflict", `changed since this turn: ${changed.join(", ")}; revert with {"force": true} to overwrite them`, changed.map((file) => ({ path: file })));
    }
  }
  const result: RevertResult = { restored: [], removed: [] };
  for (const entry of entries) {
    const file = target(entry);
    if (entry.before === null) {
      await fs.rm(file, { force: true });
      result.removed.push(entry.path);
    } else {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, Buffer.from(entry.before).toString("utf8"));
      result.restored.push(entry.path);
    }
  }
  checkpoints.deleteTurn(chatId, turnId);
  return result;
}
