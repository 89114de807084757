// The `file` tool: read, list, search, write and edit inside the project. Paths are confined (symlinks
// resolved), writes are atomic and never touch `.app.json` or `.git/`, list and search honour
// `.gitignore`, and every write hands the file's previous bytes to the turn's checkpoint first. Read-only
// (the `file:read` grant of Plan mode), it refuses write and edit whatever the caller checked before.
import fs from "node:fs/promises";
import path from "node:path";
import ignore from "ignore";
import type { z } from "zod";
import { constants } from "node:fs";
import { ConfinementError, readConfined, writeConfined } from "./confined-files";
import { hardLinkRefusal, isDependencyPath } from "../projects/project-path";
import { scanWithinBudget } from "../mentions";
import type { fileArgsSchema } from "./native-tools";
import { resolveProjectPath } from "./project-files";
import { ToolError } from "./tool-error";
import { DEFAULT_OUTPUT_CAP_BYTES } from "./output-cap";

export type FileArgs = z.infer<typeof fileArgsSchema>;

/** Called before a write with what the file held (null: it did not exist) and what it will hold. */
export type WriteRecorder = (relPath: string, before: Buffer | null, after: Buffer) => void | Promise<void>;

/**
 * `readOnly`: write and edit are refused whatever the arguments (the `file:read` grant, Plan mode).
 * `planned`: the write as `planWrite` worked it out for these arguments before the call was approved.
 */
export type FileToolOptions = { root: string; recordWrite?: WriteRecorder; readOnly?: boolean; planned?: PlannedWrite };

const MAX_READ_BYTES = 10 * 1024 * 1024;
const DEFAULT_READ_LINES = 2_000;
const DEFAULT_SEARCH_HITS = 200;
const MAX_LIST_ENTRIES = 5_000;
const MAX_LINE_CHARS = 2_000;

export async function runFileTool(
  args: FileArgs,
  options: FileToolOptions,
): Promise<string | { path: string; bytesBefore: number; bytesAfter: number }> {
  switch (args.action) {
    case "read":
      return read(args, options.root);
    case "list":
      return list(args, options.root);
    case "search":
      return search(args, options.root);
    case "write":
    case "edit":
      if (options.readOnly) throw readOnlyRefusal(args.action);
      return commitWrite(options.planned ?? (await planWrite(args, options.root)), options);
  }
}

function readOnlyRefusal(action: string): ToolError {
  return new ToolError(`the file tool only reads here (read, list, search): "${action}" is not allowed`);
}

/**
 * A file's bytes, read without following a link swapped in since the path was resolved. A file with
 * other hard links outside a dependency folder is refused: a hard link can name a file outside the
 * project (a key, a token), and no path check can tell.
 */
async function readConfinedText(root: string, rel: string): Promise<Buffer | null> {
  const file = await confined(() => readConfined(root, rel, MAX_READ_BYTES));
  if (file && file.links > 1 && !isDependencyPath(rel)) throw new ToolError(hardLinkRefusal(rel));
  return file?.bytes ?? null;
}

async function readText(rel: string, root: string): Promise<Buffer> {
  const bytes = await readConfinedText(root, rel);
  if (!bytes) throw new ToolError(`"${rel}" does not exist`);
  if (bytes.subarray(0, 8192).includes(0)) throw new ToolError(`"${rel}" is not a text file`);
  return bytes;
}

/** Runs a confined file operation, its refusals as tool errors the model can read. */
async function confined<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof ConfinementError) throw new ToolError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (code) throw new ToolError(`cannot reach the file (${code})`);
    throw error;
  }
}

/** Numbered lines, `offset` 1-based, capped like command output. */
async function read(args: FileArgs, root: string): Promise<string> {
  const { rel } = await resolveProjectPath(root, args.path, "read");
  const lines = (await readText(rel, root)).toString("utf8").split("\n");
  const start = (args.offset ?? 1) - 1;
  const shown = lines.slice(start, start + (args.limit ?? DEFAULT_READ_LINES));
  const width = String(start + shown.length).length;
  let out = "";
  for (let i = 0; i < shown.length; i++) {
    const line = `${String(start + i + 1).padStart(width)}\t${shown[i]!.slice(0, MAX_LINE_CHARS)}\n`;
    if (out.length + line.length > DEFAULT_OUTPUT_CAP_BYTES) {
      out += `… (stopped at line ${start + i}; read on with offset ${start + i + 1})\n`;
      break;
    }
    out += line;
  }
  if (start + shown.length < lines.length && !out.includes("read on with offset"))
    out += `… (${lines.length - start - shown.length} more lines; read on with offset ${start + shown.length + 1})\n`;
  return out || "(empty)";
}

/** The project's files under a folder, as the @ popup lists them (`.gitignore` honoured). */
async function listed(root: string, folder: string): Promise<string[]> {
  const { paths } = await scanWithinBudget(root);
  return folder ? paths.filter((p) => p.startsWith(`${folder}/`)) : paths;
}

async function list(args: FileArgs, root: string): Promise<string> {
  const { rel } = await resolveProjectPath(root, args.path, "folder");
  const paths = await listed(root, rel);
  if (paths.length === 0) return "(no files)";
  const shown = paths.slice(0, MAX_LIST_ENTRIES);
  return shown.join("\n") + (paths.length > shown.length ? `\n… (${paths.length - shown.length} more)` : "");
}

async function search(args: FileArgs, root: string): Promise<string> {
  if (!args.pattern) throw new ToolError("search needs `pattern` (a regular expression)");
  let pattern: RegExp;
  try {
    pattern = new RegExp(args.pattern);
  } catch (error) {
    throw new ToolError(`the pattern is not a valid regular expression: ${(error as Error).message}`);
  }
  const { rel } = await resolveProjectPath(root, args.path, "folder");
  const glob = args.glob ? ignore().add(args.glob) : undefined;
  const limit = args.limit ?? DEFAULT_SEARCH_HITS;
  const hits: string[] = [];
  for (const file of await listed(root, rel)) {
    if (glob && !glob.ignores(file)) continue;
    const bytes = await searchableBytes(path.join(root, file), file);
    if (!bytes) continue;
    const lines = bytes.toString("utf8").split("\n");
    for (let i = 0; i < lines.length && hits.length < limit; i++) {
      const line = lines[i]!.length > MAX_LINE_CHARS ? lines[i]!.slice(0, MAX_LINE_CHARS) : lines[i]!;
      if (pattern.test(line)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
    }
    if (hits.length >= limit) return `${hits.join("\n")}\n… (stopped at ${limit} hits)`;
  }
  return hits.length > 0 ? hits.join("\n") : "(no matches)";
}

/** A listed file's bytes for search: no link followed, no other hard link, not too big; else skipped. */
async function searchableBytes(abs: string, rel: string): Promise<Buffer | undefined> {
  const handle = await fs
    .open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
    .catch(() => undefined);
  if (!handle) return undefined;
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_READ_BYTES || (stat.nlink > 1 && !isDependencyPath(rel))) return undefined;
    return await handle.readFile();
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** A write or edit worked out before it runs: the path as given and as resolved, the bytes before and after. */
export type PlannedWrite = { given: string; rel: string; before: Buffer | null; after: Buffer };

/**
 * Works out a write or edit without writing anything, so its refusals (a path out of the project, a
 * missing file, `oldText` not found) come before the user is asked, and what the user approves (a
 * protected path, a package.json's scripts) is exactly what `commitWrite` writes.
 */
export async function planWrite(args: FileArgs, root: string): Promise<PlannedWrite> {
  if (args.action === "write") {
    if (args.content === undefined) throw new ToolError("write needs `content`");
    const content = args.content;
    return plan(root, args.path, () => Buffer.from(content, "utf8"));
  }
  if (args.action !== "edit") throw new ToolError(`"${args.action}" does not write`);
  if (!args.oldText) throw new ToolError("edit needs `oldText` (the exact text to replace)");
  if (args.newText === undefined) throw new ToolError("edit needs `newText`");
  return plan(root, args.path, (before) => edited(args, before));
}

async function plan(
  root: string,
  relPath: string | undefined,
  next: (before: Buffer | null) => Buffer,
): Promise<PlannedWrite> {
  const { rel } = await resolveProjectPath(root, relPath, "write");
  const before = await readConfinedText(root, rel);
  return { given: relPath!, rel, before, after: next(before) };
}

/**
 * Writes a planned change atomically, if nothing moved since it was planned (the user may have taken a
 * while to approve it): the path resolves to the same file, which holds the same bytes. Otherwise the
 * write is refused rather than clobbering that change or landing where nobody approved.
 */
export async function commitWrite(planned: PlannedWrite, options: FileToolOptions) {
  const { rel } = await resolveProjectPath(options.root, planned.given, "write");
  if (rel !== planned.rel)
    throw new ToolError(`"${planned.given}" now leads to "${rel}" (a link changed); nothing was written`);
  const now = await readConfinedText(options.root, rel);
  if (!sameBytes(planned.before, now))
    throw new ToolError(`"${rel}" changed since this call read it; read it again and retry`);
  await options.recordWrite?.(rel, planned.before, planned.after);
  // The folder is resolved again as it is written: a link swapped in since the check fails the write.
  await confined(() => writeConfined(options.root, rel, planned.after));
  return { path: rel, bytesBefore: planned.before?.length ?? 0, bytesAfter: planned.after.length };
}

function sameBytes(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}

/** What an edit makes of the file's bytes. */
function edited(args: FileArgs, before: Buffer | null): Buffer {
  if (before === null) throw new ToolError(`"${args.path}" does not exist; use write to create it`);
  if (before.subarray(0, 8192).includes(0)) throw new ToolError(`"${args.path}" is not a text file`);
  const text = before.toString("utf8");
  const count = text.split(args.oldText!).length - 1;
  if (count === 0) throw new ToolError("`oldText` was not found in the file; read it again and copy the text exactly");
  if (count > 1 && !args.replaceAll)
    throw new ToolError(
      `\`oldText\` occurs ${count} times; add surrounding lines to make it unique, or set replaceAll`,
    );
  return Buffer.from(
    args.replaceAll ? text.split(args.oldText!).join(args.newText!) : text.replace(args.oldText!, () => args.newText!),
    "utf8",
  );
}
