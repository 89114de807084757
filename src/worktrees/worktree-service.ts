// Worktree chats (contract 7.6): creates a chat's git worktree on its own branch, says where its tools
// run, reports what it changed, merges or squashes it into its base, discards it, and cleans up what a
// deleted chat or a crash left. The project's working tree is touched only by a merge, and a merge
// that cannot land whole (a conflict, uncommitted changes in its way) changes nothing.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { AppError, conflict, invalid, notFound } from "../platform/app-error";
import { KeyedMutex } from "../platform/keyed-mutex";
import type { Logger } from "../platform/logger";
import type { ProjectRow } from "../projects/projects-repo";
import type { Worktree, WorktreeMergeResult } from "../shared/worktrees";
import { folderNameOf, freeBranchName } from "./branch-names";
import { commitIdentity, git, GitError, gitText } from "./git";
import {
  addWorktree,
  aheadBehind,
  changedFiles,
  currentBranch,
  fileAt,
  gitShare,
  hasTrackedChanges,
  headCommit,
  ignoredInTheWay,
  isValidBranchName,
  localBranches,
  mergeBase,
  mergeConflicts,
  pinnedGit,
  repositoryTop,
  snapshotCommit,
  uncommittedPaths,
} from "./worktree-git";
import type { WorktreeRecord, WorktreesRepo } from "./worktrees-repo";

export type WorktreeServiceDeps = {
  repo: WorktreesRepo;
  /** Parley's home: worktrees live in its `worktrees` folder, outside every project. */
  home: string;
  log: Logger;
  /** Whether the chat is answering or compacting: its files may be changing. */
  isBusy: (chatId: string) => boolean;
};

/** A worktree made for a chat about to be stored (see `create`, then `record` or `abandon`). */
export type PreparedWorktree = Omit<WorktreeRecord, "chatId" | "state" | "createdAt">;

/** Files a refusal names: in the message (the first few) and all of them in `issues`. */
function refusal(message: string, files: readonly string[]): AppError {
  const shown = files.slice(0, 5).join(", ") + (files.length > 5 ? ` and ${files.length - 5} more` : "");
  return new AppError(
    "conflict",
    `${message}: ${shown}`,
    files.map((file) => ({ path: file })),
  );
}

const MAX_SHOWN_FILE = 1024 * 1024;
const isTooLarge = (text: string | null | { tooLarge: true }): text is { tooLarge: true } =>
  text !== null && typeof text === "object";

export class WorktreeService {
  /** Repositories with a merge under way: a second one at once is refused, not queued. */
  private readonly merging = new Set<string>();
  /** Worktree creation, serialised per repository (see `create`). */
  private readonly creating = new KeyedMutex();
  /**
   * A chat's merge, discard and release (its deletion), one at a time: a chat deleted while its merge
   * runs would lose its folder under the merge's `git add` (a 500, and the merge's work left behind).
   */
  private readonly steps = new KeyedMutex();

  constructor(private readonly deps: WorktreeServiceDeps) {}

  get folder(): string {
    return path.join(this.deps.home, "worktrees");
  }

  /**
   * Makes a worktree for a new chat of `project` on a new branch from the project's HEAD: the branch
   * named in `request`, else `parley/<slug of title>` made unique. 409 for a folder outside git, a
   * repository without commits, or a named branch that exists; 400 for a name git refuses.
   */
  async create(project: ProjectRow, title: string, request: { branch?: string }): Promise<PreparedWorktree> {
    const projectDir = await fs.realpath(project.dir);
    const top = await repositoryTop(projectDir);
    if (!top)
      throw conflict("this project is not a git repository; a worktree chat needs one (git init, then a commit)");
    // One at a time per repository: two chats of the same title created at once would both pick the
    // same free branch name, and the second `worktree add` would fail.
    return this.creating.run(top, () => this.createIn(top, projectDir, title, request));
  }

  private async createIn(
    top: string,
    projectDir: string,
    title: string,
    request: { branch?: string },
  ): Promise<PreparedWorktree> {
    const [commit, base, branches, gitDir] = await Promise.all([
      headCommit(top),
      currentBranch(top),
      localBranches(top),
      gitText(top, ["rev-parse", "--path-format=absolute", "--git-common-dir"]),
    ]);
    if (!commit) throw conflict("this repository has no commits yet; make a first commit, then start a worktree chat");
    let branch: string;
    if (request.branch !== undefined) {
      if (!(await isValidBranchName(top, request.branch)))
        throw invalid(`git does not accept "${request.branch}" as a branch name`);
      if (branches.has(request.branch))
        throw conflict(`a branch named ${request.branch} exists already; choose another name`);
      branch = request.branch;
    } else branch = freeBranchName(title, (name) => branches.has(name));
    const folder = path.join(this.folder, folderNameOf(branch, randomBytes(4).toString("hex")));
    await fs.mkdir(this.folder, { recursive: true, mode: 0o700 });
    // The project's own uncommitted changes stay where they are (the worktree starts at HEAD); the board says so.
    const [startedDirty] = await Promise.all([
      hasTrackedChanges(top).catch(() => false),
      addWorktree(top, folder, branch, commit).catch((error: Error) => {
        throw conflict(`git could not create the worktree: ${error.message}`);
      }),
    ]);
    // A project folder git does not track (new, empty, ignored) is not in the checkout: made there, so the
    // chat's tools have their folder (a turn failed with ENOENT, a 500, without it).
    if (projectDir !== top) await fs.mkdir(path.join(folder, path.relative(top, projectDir)), { recursive: true });
    const prepared = {
      repoDir: top,
      gitDir: await fs.realpath(gitDir),
      path: await fs.realpath(folder),
      subdir: path.relative(top, projectDir),
      branch,
      base: base ?? commit,
      baseCommit: commit,
      startedDirty,
    };
    // Parley's git finds the worktree's git folder by name, never through its `.git` file (see pinnedGit).
    const own = await fs.realpath(await gitText(folder, ["rev-parse", "--absolute-git-dir"])).catch(() => "");
    if (own !== pinnedGit(prepared.gitDir, prepared.path).GIT_DIR) {
      await this.abandon(prepared);
      throw conflict(`git put the worktree's git folder where Parley did not expect it (${own})`);
    }
    return prepared;
  }

  /** Stores the worktree of a chat just created. */
  record(chatId: string, prepared: PreparedWorktree): void {
    this.deps.repo.insert({ chatId, ...prepared });
  }

  /** Removes a worktree whose chat could not be stored. */
  async abandon(prepared: PreparedWorktree): Promise<void> {
    await git(prepared.repoDir, ["worktree", "remove", "--force", prepared.path]).catch(() => undefined);
    await git(prepared.repoDir, ["branch", "-D", prepared.branch], { okCodes: [1] }).catch(() => undefined);
  }

  /**
   * Where the chat's tools run: its worktree (the project's folder inside it), or undefined for a chat
   * without one. 409 once it was discarded or its folder is gone: a tool must never fall back to the
   * project's own tree, which the chat was promised to leave alone.
   */
  workspaceOf(chatId: string): { dir: string; gitWritable: string[] } | undefined {
    const record = this.deps.repo.byChat(chatId);
    if (!record) return undefined;
    if (record.state === "discarded")
      throw conflict("this chat's worktree was discarded; fork the chat or start a new one to go on");
    if (!existsSync(record.path))
      throw conflict(`this chat's worktree folder is gone (${record.path}); discard the worktree to clean up`);
    return {
      dir: path.join(record.path, record.subdir),
      gitWritable: gitShare(record.gitDir, record.path, record.branch),
    };
  }

  /** GET /api/chats/:id/worktree. */
  async info(chatId: string): Promise<Worktree> {
    const record = this.recordOf(chatId);
    const shown = {
      branch: record.branch,
      base: record.base,
      baseCommit: record.baseCommit,
      path: record.path,
      startedDirty: record.startedDirty,
    };
    if (record.state === "discarded") return { ...shown, state: "discarded", changedFiles: [], ahead: 0, behind: 0 };
    const present = existsSync(record.path);
    const ours = present ? (await this.snapshot(record)).commit : await this.branchTip(record);
    const baseRef = await this.baseRef(record);
    if (!ours) return { ...shown, state: "missing", changedFiles: [], ahead: 0, behind: 0 };
    const from = await mergeBase(record.repoDir, baseRef, ours);
    const [files, counts] = await Promise.all([
      changedFiles(record.repoDir, from, ours),
      aheadBehind(record.repoDir, baseRef, ours),
    ]);
    return { ...shown, state: present ? "ready" : "missing", changedFiles: files, ...counts };
  }

  /** One changed file at the base and in the worktree (404 for a file the chat did not change). */
  async file(
    chatId: string,
    file: string,
  ): Promise<{ path: string; before: string | null; after: string | null; binary: boolean }> {
    const record = this.liveRecord(chatId);
    const ours = (await this.snapshot(record)).commit;
    const from = await mergeBase(record.repoDir, await this.baseRef(record), ours);
    const changes = await changedFiles(record.repoDir, from, ours);
    const change = changes.find((c) => c.path === file);
    if (!change) throw notFound(`${file} is not among the files this chat changed`);
    const [before, after] = await Promise.all([
      fileAt(record.repoDir, from, file, MAX_SHOWN_FILE),
      fileAt(record.repoDir, ours, file, MAX_SHOWN_FILE),
    ]);
    // Not text: binary to git, too large to show, or no file on either side (a submodule's commit).
    if (change.added === null || isTooLarge(before) || isTooLarge(after) || (before === null && after === null))
      return { path: file, before: null, after: null, binary: true };
    return { path: file, before, after, binary: false };
  }

  /**
   * POST /api/chats/:id/worktree/merge. Every check runs before anything is written: the chat is idle,
   * no other merge runs in the repository, the project has the base checked out, the work merges
   * without conflict, and no uncommitted change of the project is in its way. Then the worktree's
   * work is committed on its branch and merged (or squashed) into the base in the project.
   */
  merge(chatId: string, mode: "merge" | "squash", title: string): Promise<WorktreeMergeResult> {
    return this.steps.run(chatId, () => this.mergeNow(chatId, mode, title));
  }

  private async mergeNow(chatId: string, mode: "merge" | "squash", title: string): Promise<WorktreeMergeResult> {
    const record = this.liveRecord(chatId);
    if (this.deps.isBusy(chatId)) throw conflict("this chat is answering; merge when it is done");
    const repoDir = record.repoDir;
    if (this.merging.has(repoDir))
      throw conflict("another merge into this repository is under way; try again when it is done");
    this.merging.add(repoDir);
    try {
      const baseBranches = await localBranches(repoDir);
      if (!baseBranches.has(record.base))
        throw conflict(
          `this chat started from ${record.base.slice(0, 12)}, not from a branch; there is no branch to merge into`,
        );
      const checkedOut = await currentBranch(repoDir);
      if (checkedOut !== record.base)
        throw conflict(
          `the project has ${checkedOut ?? "a detached HEAD"} checked out; switch it to ${record.base} to merge`,
        );
      const snapshot = await this.snapshot(record);
      const from = await mergeBase(repoDir, record.base, snapshot.commit);
      const files = (await changedFiles(repoDir, from, snapshot.commit)).map((change) => change.path);
      if (files.length === 0)
        throw conflict(`nothing to merge: ${record.branch} has no changes that ${record.base} lacks`);
      const conflicts = await mergeConflicts(repoDir, record.base, snapshot.commit);
      if (conflicts.length > 0)
        throw refusal(`merging into ${record.base} would conflict; nothing was changed`, conflicts);
      const inTheWay = new Set(await uncommittedPaths(repoDir));
      const blocked = files.filter((file) => inTheWay.has(file));
      if (blocked.length > 0)
        throw refusal(
          "the project has uncommitted changes to files this merge writes; commit or stash them first",
          blocked,
        );
      const ignored = await ignoredInTheWay(repoDir, files).catch((error: Error) => {
        throw conflict(`git could not tell which files the project ignores, so nothing was merged: ${error.message}`);
      });
      if (ignored.length > 0)
        throw refusal("the project has files git ignores where this merge writes; move them away first", ignored);
      const identity = await commitIdentity(repoDir);
      const pinned = pinnedGit(record.gitDir, record.path);
      // The chat's work as a commit of its own branch, as the worktree's index and HEAD see it.
      if (snapshot.uncommitted) {
        await git(record.path, ["add", "-A"], { env: pinned });
        await git(record.path, ["commit", "-q", "-m", title], { env: { ...pinned, ...identity } });
      }
      const tip = await gitText(record.path, ["rev-parse", "HEAD"], { env: pinned });
      await this.land(repoDir, mode, tip, `${mode === "merge" ? `Merge ${record.branch}: ` : ""}${title}`, identity);
      const commit = await gitText(repoDir, ["rev-parse", "HEAD"]);
      if (mode === "squash") {
        // The branch starts again from the squashed commit, so the board shows only later work as new.
        await git(record.path, ["reset", "-q", "--hard", commit], { env: pinned });
        this.deps.repo.setBaseCommit(chatId, commit);
      }
      return { commit, base: record.base, mode, files };
    } finally {
      this.merging.delete(repoDir);
    }
  }

  /** The merge itself, in the project; a failure (unexpected after the checks) is undone before it is told. */
  private async land(
    repoDir: string,
    mode: "merge" | "squash",
    tip: string,
    message: string,
    env: Record<string, string>,
  ) {
    try {
      if (mode === "merge") {
        await git(repoDir, ["merge", "-q", "--no-ff", "--no-edit", "-m", message, tip], { env });
      } else {
        await git(repoDir, ["merge", "-q", "--squash", tip], { env });
        await git(repoDir, ["commit", "-q", "-m", message], { env });
      }
    } catch (error) {
      await git(repoDir, ["merge", "--abort"]).catch(() =>
        git(repoDir, ["reset", "-q", "--merge"]).catch(() => undefined),
      );
      throw conflict(`git could not merge, and the project was left as it was: ${(error as Error).message}`);
    }
  }

  /**
   * DELETE /api/chats/:id/worktree: the worktree's folder and its branch go; the chat keeps its messages
   * and can no longer run tools. 409 listing the files while it holds work the base lacks, unless `force`.
   */
  discard(chatId: string, force: boolean): Promise<void> {
    return this.steps.run(chatId, () => this.discardNow(chatId, force));
  }

  private async discardNow(chatId: string, force: boolean): Promise<void> {
    const record = this.recordOf(chatId);
    if (record.state === "discarded") return;
    if (this.deps.isBusy(chatId)) throw conflict("this chat is answering; discard its worktree when it is done");
    if (!force) {
      const unmerged = await this.unmergedFiles(record);
      if (unmerged.length > 0)
        throw refusal("the worktree holds changes that are not merged; merge them, or discard with force", unmerged);
    }
    await this.removeFolder(record.repoDir, record.path);
    await git(record.repoDir, ["branch", "-D", record.branch], { okCodes: [1] }).catch(() => undefined);
    this.deps.repo.markDiscarded(chatId);
  }

  /**
   * The chat is being deleted: its uncommitted work is committed on its branch (nothing is lost), the
   * folder goes, and the branch too when the base has all of it. Never throws: a failure is logged and
   * the next start tries again.
   */
  release(chatId: string): Promise<void> {
    return this.steps.run(chatId, () => this.releaseNow(chatId));
  }

  private async releaseNow(chatId: string): Promise<void> {
    const record = this.deps.repo.byChat(chatId);
    if (!record || record.state === "discarded") return;
    try {
      await this.keepOnBranch(record.gitDir, record.path);
      await this.removeFolder(record.repoDir, record.path);
      const unmerged = await this.unmergedFiles(record);
      if (unmerged.length === 0) await git(record.repoDir, ["branch", "-D", record.branch], { okCodes: [1] });
      else
        this.deps.log.warn(`kept branch ${record.branch}: it holds work of a deleted chat that ${record.base} lacks`);
    } catch (error) {
      this.deps.log.warn(`could not clean up the worktree of a deleted chat: ${(error as Error).message}`);
    }
  }

  /**
   * At start: a folder in the worktrees folder that no chat owns (its chat was deleted while Parley
   * was not there to clean up) is released as above; git forgets worktrees whose folder vanished; a
   * lock a killed git left in a chat's worktree goes, so the worktree is usable again.
   */
  async cleanUp(): Promise<void> {
    const active = this.deps.repo.active();
    const owned = new Set(active.map((record) => record.path));
    const known = this.deps.repo.gitDirs();
    const names = await fs.readdir(this.folder).catch(() => [] as string[]);
    for (const name of names) {
      const folder = await fs.realpath(path.join(this.folder, name)).catch(() => undefined);
      if (!folder || owned.has(folder)) continue;
      await this.releaseOrphan(folder, known);
    }
    for (const repoDir of new Set(active.map((record) => record.repoDir)))
      await git(repoDir, ["worktree", "prune"]).catch(() => undefined);
    for (const record of active) {
      if (!existsSync(record.path)) continue;
      await fs.rm(path.join(pinnedGit(record.gitDir, record.path).GIT_DIR!, "index.lock"), { force: true });
    }
  }

  private async releaseOrphan(folder: string, known: readonly string[]): Promise<void> {
    const commonDir = await this.ownerOf(folder, known);
    if (!commonDir) {
      this.deps.log.warn(`left ${folder} in place: git folder of no repository Parley has worktree chats in`);
      return;
    }
    try {
      await fs.rm(path.join(pinnedGit(commonDir, folder).GIT_DIR!, "index.lock"), { force: true });
      await this.keepOnBranch(commonDir, folder);
      // Run from the repository's git folder itself: it need not sit inside the main checkout (--separate-git-dir).
      await this.removeFolder(commonDir, folder);
      this.deps.log.warn(`removed the worktree ${folder} of a deleted chat; its branch keeps its work`);
    } catch (error) {
      this.deps.log.warn(`left ${folder} in place: ${(error as Error).message}`);
    }
  }

  /**
   * The repository (its git folder) whose worktree `folder` is, among those Parley made worktrees in:
   * found by the folder git keeps for the worktree there, never through the worktree's own `.git` file,
   * which its chat's commands may have pointed at a git folder of their making (see pinnedGit).
   */
  private async ownerOf(folder: string, known: readonly string[]): Promise<string | undefined> {
    for (const commonDir of known) {
      const gitdir = path.join(pinnedGit(commonDir, folder).GIT_DIR!, "gitdir");
      const named = await fs.readFile(gitdir, "utf8").catch(() => undefined);
      if (named && (await fs.realpath(path.dirname(named.trim())).catch(() => "")) === folder) return commonDir;
    }
    return undefined;
  }

  /** Commits a worktree's uncommitted work on its branch. */
  private async keepOnBranch(commonDir: string, folder: string): Promise<void> {
    if (!existsSync(folder)) return;
    const pinned = pinnedGit(commonDir, folder);
    const snapshot = await snapshotCommit(folder, pinned);
    if (!snapshot.uncommitted) return;
    await git(folder, ["add", "-A"], { env: pinned });
    await git(folder, ["commit", "-q", "-m", "Work of a Parley chat, kept when the chat was deleted"], {
      env: { ...pinned, ...(await commitIdentity(folder, pinned)) },
    });
  }

  /** Removes a worktree's folder (`repo`: the repository's top or its git folder). */
  private async removeFolder(repo: string, folder: string): Promise<void> {
    if (existsSync(folder)) await git(repo, ["worktree", "remove", "--force", folder]).catch(() => undefined);
    // What git would not remove (a folder it no longer knew, a `.git` file the chat rewrote) goes too:
    // it is Parley's own. Then git forgets it.
    await fs.rm(folder, { recursive: true, force: true });
    await git(repo, ["worktree", "prune"]).catch(() => undefined);
  }

  /**
   * The worktree's files as a commit (see snapshotCommit), with git held to its own git folders. 409 when
   * git cannot read them: the chat's commands can make `git add` fail (a nested repository without a
   * commit), and that is the worktree's state, not Parley's fault.
   */
  private async snapshot(record: WorktreeRecord) {
    try {
      return await snapshotCommit(record.path, pinnedGit(record.gitDir, record.path));
    } catch (error) {
      if (error instanceof GitError) throw conflict(`git cannot read this chat's worktree: ${error.message}`);
      throw error;
    }
  }

  /** Files the chat's work (its folder's, or its branch's when the folder is gone) changed that the base lacks. */
  private async unmergedFiles(record: WorktreeRecord): Promise<string[]> {
    const ours = existsSync(record.path) ? (await this.snapshot(record)).commit : await this.branchTip(record);
    if (!ours) return [];
    const from = await mergeBase(record.repoDir, await this.baseRef(record), ours);
    return (await changedFiles(record.repoDir, from, ours)).map((change) => change.path);
  }

  private async branchTip(record: WorktreeRecord): Promise<string | undefined> {
    const result = await git(record.repoDir, ["rev-parse", "--verify", "-q", `refs/heads/${record.branch}`], {
      okCodes: [1],
    });
    return result.exitCode === 0 ? result.stdout.trim() : undefined;
  }

  /** The base branch as it stands now, or the commit the chat started from when that branch is gone. */
  private async baseRef(record: WorktreeRecord): Promise<string> {
    const branches = await localBranches(record.repoDir);
    return branches.has(record.base) ? `refs/heads/${record.base}` : record.baseCommit;
  }

  private recordOf(chatId: string): WorktreeRecord {
    const record = this.deps.repo.byChat(chatId);
    if (!record) throw notFound("this chat has no worktree");
    return record;
  }

  /** A worktree that can be worked on: not discarded, its folder there. */
  private liveRecord(chatId: string): WorktreeRecord {
    const record = this.recordOf(chatId);
    if (record.state === "discarded") throw conflict("this chat's worktree was discarded");
    if (!existsSync(record.path))
      throw conflict(`this chat's worktree folder is gone (${record.path}); discard the worktree to clean up`);
    return record;
  }
}
