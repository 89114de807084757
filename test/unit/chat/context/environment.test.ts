import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { currentEnvironment, environmentText, gitBranch, localDay } from "../../../../src/chat/context/environment";
import { makeTempDir, removeDir } from "../../../helpers/temp";

describe("the environment message", () => {
  let dir: string;
  beforeEach(() => (dir = makeTempDir("parley-env-")));
  afterEach(() => removeDir(dir));

  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });

  it("names the folder, the system, the shell, the day and the branch", () => {
    const text = environmentText({
      projectDir: "/work/app",
      platform: "Linux (6.1, x64)",
      shell: "bash",
      day: "2026-11-29",
      branch: "main",
    });
    assert.equal(
      text,
      "Environment:\n- Project folder: /work/app\n- Operating system: Linux (6.1, x64)\n- Shell: bash\n- Today's date: 2026-11-29\n- Git branch: main",
    );
  });

  it("gives the day only, so the message stays the same all day", () => {
    const morning = currentEnvironment(dir, new Date(2026, 10, 29, 8, 0, 1));
    const evening = currentEnvironment(dir, new Date(2026, 10, 29, 23, 59, 59));
    assert.equal(environmentText(morning), environmentText(evening));
    assert.equal(localDay(new Date(2026, 0, 5, 12)), "2026-01-05");
  });

  it("reads the branch of a repository, of a worktree, and none when detached or outside git", () => {
    assert.equal(gitBranch(dir), undefined);
    git("init", "-q", "-b", "trunk");
    assert.equal(gitBranch(dir), "trunk");
    fs.writeFileSync(path.join(dir, "a"), "a");
    git("add", "a");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a");
    const tree = path.join(dir, "wt");
    git("worktree", "add", "-q", "-b", "feature/x", tree);
    assert.equal(gitBranch(tree), "feature/x");
    git("checkout", "-q", "--detach");
    assert.equal(gitBranch(dir), undefined);
  });

  it("reads no branch from a HEAD that is a FIFO or too big, without waiting on it", () => {
    git("init", "-q", "-b", "trunk");
    const head = path.join(dir, ".git", "HEAD");
    fs.writeFileSync(head, `ref: refs/heads/${"x".repeat(5000)}\n`);
    assert.equal(gitBranch(dir), undefined);
    fs.rmSync(head);
    execFileSync("mkfifo", [head]);
    // Read synchronously: a blocking open of a FIFO with no writer would hang this test for ever.
    assert.equal(gitBranch(dir), undefined);
  });
});
