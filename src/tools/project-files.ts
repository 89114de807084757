// Where a tool may read and write: inside the project, with symlinks resolved before the check, so a
// link that points out of the project (or into .git/) is refused like the path it really names.
import fs from "node:fs/promises";
import path from "node:path";
import { checkRelativePath, isInside, isInsideOrRoot, writeRefusal } from "../projects/project-path";
import { ToolError } from "./tool-error";

export type ProjectPath = { abs: string; rel: string };

/** The deepest existing ancestor of `abs`, resolved, with the part below it that does not exist yet. */
async function resolveExisting(abs: string): Promise<string> {
  const missing: string[] = [];
  let current = abs;
  for (;;) {
    try {
      const real = await fs.realpath(current);
      return path.join(real, ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw new ToolError(`cannot resolve the path (${code})`);
      const parent = path.dirname(current);
      if (parent === current) throw new ToolError("cannot resolve the path");
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Resolves a project-relative path for reading or writing. `root` must already be the project's real
 * path. An empty path (or `.`) names the project itself, allowed for folder reads only.
 */
export async function resolveProjectPath(
  root: string,
  relPath: string | undefined,
  mode: "read" | "write" | "folder",
): Promise<ProjectPath> {
  if (mode === "folder" && (relPath === undefined || relPath === "" || relPath === "." || relPath === "./"))
    return { abs: root, rel: "" };
  if (relPath === undefined || relPath === "") throw new ToolError("a path is required");
  const checked = checkRelativePath(relPath);
  if (!checked.ok) throw new ToolError(`the path "${relPath}" ${checked.reason}`);
  const abs = await resolveExisting(path.join(root, checked.path));
  const allowed = mode === "folder" ? isInsideOrRoot(root, abs) : isInside(root, abs);
  if (!allowed) throw new ToolError(`the path "${checked.path}" leads out of the project`);
  const rel = path.relative(root, abs).split(path.sep).join("/");
  if (mode === "write") {
    // Checked on the path as given and as resolved: a link into .git/ is refused like .git/ itself.
    const refusal = writeRefusal(checked.path) ?? writeRefusal(rel);
    if (refusal) throw new ToolError(refusal);
  }
  return { abs, rel };
}
