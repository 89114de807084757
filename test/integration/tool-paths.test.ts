// No generated path argument ever reads or writes outside the project (contract 6.1), whatever mix of
// `..`, absolute paths, backslashes, NUL, links out of the project and links into .git it holds.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { runFileTool } from "../../src/tools/file-tool";
import { resolveProjectPath } from "../../src/tools/project-files";
import { ToolError } from "../../src/tools/tool-error";
import { makeTempDir, removeDir } from "../helpers/temp";

function snapshot(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push(`${full}:${fs.readFileSync(full, "utf8")}`);
    }
  };
  walk(dir);
  return out.sort().join("\n");
}

describe("tool path confinement", function () {
  this.timeout(60_000);
  let base: string;
  let root: string;
  let outside: string;
  before(() => {
    base = makeTempDir();
    root = path.join(base, "project");
    outside = path.join(base, "outside");
    fs.mkdirSync(path.join(root, "src"), { recursive: true });
    fs.mkdirSync(path.join(root, ".git"));
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
    fs.writeFileSync(path.join(root, ".git", "config"), "[core]");
    fs.symlinkSync(outside, path.join(root, "out-dir"));
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "out-file"));
    fs.symlinkSync(path.join(root, ".git"), path.join(root, "git-link"));
  });
  after(() => removeDir(base));

  const segment = fc.constantFrom(
    "..",
    ".",
    "src",
    "out-dir",
    "out-file",
    "git-link",
    ".git",
    "a.txt",
    ".app.json",
    "",
    "x\\..\\..",
    "C:",
    "\0",
    "~",
    "/etc",
  );
  const relPath = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join("/"));
  const absolute = () =>
    fc.constantFrom("/etc/passwd", path.join(outside, "secret.txt"), `${root}/../outside/secret.txt`);

  it("resolves every generated path inside the project, or refuses it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(relPath, absolute()),
        fc.constantFrom("read", "write", "folder") as fc.Arbitrary<"read" | "write" | "folder">,
        async (p, mode) => {
          try {
            const { abs, rel } = await resolveProjectPath(root, p, mode);
            const real = fs.existsSync(abs) ? fs.realpathSync(abs) : abs;
            assert.ok(real === root || real.startsWith(root + path.sep), `${p} -> ${real}`);
            if (mode === "write") assert.ok(!rel.split("/").includes(".git") && rel !== ".app.json", `${p} -> ${rel}`);
          } catch (error) {
            assert.ok(error instanceof ToolError, `${p}: ${(error as Error).message}`);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never changes anything outside the project, or .git, through write and edit", async () => {
    const before = snapshot(outside) + snapshot(path.join(root, ".git"));
    await fc.assert(
      fc.asyncProperty(relPath, fc.boolean(), async (p, edit) => {
        const args = edit
          ? { action: "edit" as const, path: p, oldText: "secret", newText: "pwned" }
          : { action: "write" as const, path: p, content: "pwned" };
        await runFileTool(args, { root }).catch((error) =>
          assert.ok(error instanceof ToolError, (error as Error).message),
        );
      }),
      { numRuns: 300 },
    );
    assert.equal(snapshot(outside) + snapshot(path.join(root, ".git")), before);
  });
});
