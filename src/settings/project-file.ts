// `<projectDir>/.app.json`: read without judging, write atomically, never overwrite a file we could not parse.
import fs from "node:fs/promises";
import path from "node:path";
import { exceedsJsonDepth, MAX_JSON_DEPTH } from "../platform/json-depth";
import { isPlainObject, type JsonObject } from "./settings-merge";
import { removeStaleTemps, writeFileAtomic } from "../platform/atomic-write";
import { FileSnapshots } from "../platform/file-snapshot";

export const PROJECT_FILE_NAME = ".app.json";

export type ProjectFileRead =
  { state: "missing" } | { state: "ok"; value: JsonObject } | { state: "corrupt"; error: string };

export function projectFilePath(projectDir: string): string {
  return path.join(projectDir, PROJECT_FILE_NAME);
}

const snapshots = new FileSnapshots<ProjectFileRead>();

function parseProjectFile(text: string): ProjectFileRead {
  if (text.trim() === "") return { state: "ok", value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (isPlainObject(value) && exceedsJsonDepth(value)) {
      return { state: "corrupt", error: `${PROJECT_FILE_NAME} nests more than ${MAX_JSON_DEPTH} levels deep` };
    }
    if (isPlainObject(value)) return { state: "ok", value };
    return { state: "corrupt", error: `${PROJECT_FILE_NAME} must hold a JSON object` };
  } catch (error) {
    return { state: "corrupt", error: `${PROJECT_FILE_NAME} is not valid JSON: ${(error as Error).message}` };
  }
}

/** The parsed file; the value is shared with later reads, so callers must treat it as read-only. */
export async function readProjectFile(projectDir: string): Promise<ProjectFileRead> {
  try {
    return (await snapshots.read(projectFilePath(projectDir), parseProjectFile)) ?? { state: "missing" };
  } catch (error) {
    return {
      state: "corrupt",
      error: `${PROJECT_FILE_NAME} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    };
  }
}

/** Two-space JSON with a trailing newline, the way people commit it. */
export async function writeProjectFile(projectDir: string, value: JsonObject): Promise<void> {
  const file = projectFilePath(projectDir);
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
  // Temporaries of writes that were killed midway (ours or another window's) go with the next write.
  await removeStaleTemps(file);
}

export async function removeProjectFile(projectDir: string): Promise<void> {
  await fs.rm(projectFilePath(projectDir), { force: true });
}
