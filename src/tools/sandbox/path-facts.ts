// What the sandbox builders need to know about the file system, gathered in one place so the builders
// stay pure: for each path of interest, whether it exists, where it really is (symlinks followed) and
// whether it is a folder. `readPathFacts` is the only part that touches the disk.
import fs from "node:fs/promises";
import path from "node:path";

/** A path that exists: its real location and whether it is a folder (anything else counts as a file). */
export type PathFact = { real: string; kind: "dir" | "file" };
/** Absolute path → its fact; a path that does not exist is absent. */
export type PathFacts = ReadonlyMap<string, PathFact>;

/** The parts of a project that stay read-only inside the sandbox (contract 7.5): git runs them for the user. */
export function readOnlyCandidates(projectRoot: string): string[] {
  return [
    path.join(projectRoot, ".git"),
    path.join(projectRoot, ".git", "hooks"),
    path.join(projectRoot, ".git", "config"),
  ];
}

/** Whether `inner` is `outer` or lies inside it (both absolute and normalised). */
export function isInside(inner: string, outer: string): boolean {
  if (outer === "/") return inner.startsWith("/");
  return inner === outer || inner.startsWith(`${outer}${path.sep}`);
}

/** Looks each path up on disk; one that is missing or unreadable is left out. */
export async function readPathFacts(paths: Iterable<string>): Promise<Map<string, PathFact>> {
  const unique = [...new Set(paths)];
  const facts = await Promise.all(
    unique.map(async (p): Promise<[string, PathFact] | undefined> => {
      try {
        const real = await fs.realpath(p);
        const stat = await fs.stat(real);
        return [p, { real, kind: stat.isDirectory() ? "dir" : "file" }];
      } catch {
        return undefined;
      }
    }),
  );
  return new Map(facts.filter((fact) => fact !== undefined));
}
