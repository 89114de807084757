// `npm run bench -- worktrees`: creating a worktree chat (contract 7.6) on a repository of 100,000
// files, through a real `parley serve` (POST /api/projects/:id/chats {worktree:true}, answered once the
// worktree is checked out), against `git worktree add -b x <dir> HEAD` alone on the same repository.
// Issue 39's target: within 2x. The repository (one commit, packed as a real one would be) is built
// once and kept under the OS temp folder (TMPDIR) for later runs. The two paths are alternated; every
// worktree is removed only after the last sample, since on a file system that discards freed blocks
// (ext4 `-o discard`) a removal slows the file creations that follow it for many seconds.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startStack, type Stack } from "../test/helpers/stack";
import { median, report, round } from "./stats";

const FILES = 100_000;
const PER_FOLDER = 1_000;
const SAMPLES = 3;
const TARGET_RATIO = 2;
const CACHE = path.join(os.tmpdir(), `parley-bench-worktrees-${FILES}`);

const run = promisify(execFile);
const IDENTITY = {
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
};
const git = (cwd: string, ...args: string[]) =>
  run("git", args, { cwd, env: { ...process.env, ...IDENTITY }, maxBuffer: 64 * 1024 * 1024 });

/** The 100k-file repository (one commit), built on the first run and kept for the next ones. */
async function repository(): Promise<string> {
  const repo = path.join(CACHE, "repo");
  const ready = path.join(CACHE, "ready");
  if (fs.existsSync(ready)) return repo;
  fs.rmSync(CACHE, { recursive: true, force: true });
  const started = performance.now();
  for (let folder = 0; folder < FILES / PER_FOLDER; folder++) {
    const dir = path.join(repo, "src", `module-${folder}`);
    fs.mkdirSync(dir, { recursive: true });
    for (let file = 0; file < PER_FOLDER; file++)
      fs.writeFileSync(
        path.join(dir, `file-${file}.ts`),
        `export const value${file} = ${folder * PER_FOLDER + file};\n`,
      );
  }
  await git(repo, "init", "-q", "-b", "main");
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", `${FILES} files`);
  await git(repo, "repack", "-adq");
  await git(repo, "prune");
  fs.writeFileSync(ready, "");
  process.stderr.write(
    `worktrees bench: built a ${FILES}-file repository in ${round((performance.now() - started) / 1000, 1)} s\n`,
  );
  return repo;
}

/** The baseline: `git worktree add` alone (removed after the last sample). */
async function plainWorktree(repo: string, dir: string, branch: string): Promise<number> {
  const started = performance.now();
  await git(repo, "worktree", "add", "-q", "-b", branch, dir, "HEAD");
  return performance.now() - started;
}

/** A worktree chat created through the API; its id, to delete it after the last sample. */
async function worktreeChat(stack: Stack, projectId: string): Promise<{ ms: number; id: string }> {
  const started = performance.now();
  const res = await stack.api("POST", `/api/projects/${projectId}/chats`, {
    title: "Bench worktree",
    modelId: "fake/tools",
    worktree: true,
  });
  const ms = performance.now() - started;
  if (res.status !== 201) throw new Error(`worktree chat not created: ${res.status} ${await res.text()}`);
  return { ms, id: ((await res.json()) as { id: string }).id };
}

const BRANCH = "bench-baseline-";

export async function runWorktreesBench(): Promise<void> {
  const repo = await repository();
  // Left over by a run that stopped midway.
  await git(repo, "worktree", "prune");
  const { stdout } = await git(
    repo,
    "for-each-ref",
    "--format=%(refname:short)",
    `refs/heads/${BRANCH}*`,
    "refs/heads/parley/",
  );
  for (const branch of stdout.split("\n").filter(Boolean)) await git(repo, "branch", "-D", branch);
  // The pack read once, so neither path pays for the first read from disk.
  await git(repo, "archive", "-o", "/dev/null", "HEAD");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-worktree-"));
  const stack = await startStack();
  const chats: string[] = [];
  try {
    const project = await stack.api("POST", "/api/projects", { dir: repo });
    if (!project.ok) throw new Error(`project not registered: ${project.status} ${await project.text()}`);
    const { id: projectId } = (await project.json()) as { id: string };
    const baseline: number[] = [];
    const parley: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      // Alternated, each going first in turn, so drift on a shared machine hits both alike.
      const plain = async () => baseline.push(await plainWorktree(repo, path.join(scratch, `${i}`), `${BRANCH}${i}`));
      const chat = async () => {
        const { ms, id } = await worktreeChat(stack, projectId);
        chats.push(id);
        parley.push(ms);
      };
      if (i % 2 === 0) await plain().then(chat);
      else await chat().then(plain);
    }
    const ratio = median(parley) / median(baseline);
    report({
      bench: "worktrees.create_chat",
      files: FILES,
      samples: SAMPLES,
      parleyMedianMs: round(median(parley), 1),
      parleyMaxMs: round(Math.max(...parley), 1),
      baselineMedianMs: round(median(baseline), 1),
      baselineMaxMs: round(Math.max(...baseline), 1),
      ratio: round(ratio, 2),
      targetRatio: TARGET_RATIO,
      pass: ratio <= TARGET_RATIO,
    });
  } finally {
    // Deleting a chat with nothing unmerged removes its folder and its branch.
    for (const id of chats) await stack.api("DELETE", `/api/chats/${id}`);
    await stack.stop();
    for (let i = 0; i < SAMPLES; i++) {
      await git(repo, "worktree", "remove", "--force", path.join(scratch, `${i}`)).catch(() => undefined);
      await git(repo, "branch", "-D", `${BRANCH}${i}`).catch(() => undefined);
    }
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
