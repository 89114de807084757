// Worktree chats driven over HTTP for tests (contract 7.6): a project of its own on a fresh git
// repository, a chat in a worktree, a `fake/tools` turn, and the worktree routes.
import assert from "node:assert/strict";
import path from "node:path";
import { send, type ChatFixture } from "./chat-fixture";
import { initRepo } from "./git-repo";
import { readEvents, type ReceivedEvent } from "./sse";

export type Project = { id: string; dir: string };
export type WorktreeInfo = {
  branch: string;
  base: string;
  baseCommit: string;
  path: string;
  state: "ready" | "missing" | "discarded";
  changedFiles: { path: string; added: number | null; removed: number | null }[];
  ahead: number;
  behind: number;
  startedDirty: boolean;
};
export type ApiError = { error: { code: string; message: string; issues?: { path: string }[] } };

/** A project on a new git repository at `<root>/<name>` (see initRepo), registered with the server. */
export async function gitProject(
  f: ChatFixture,
  root: string,
  name: string,
  files?: Record<string, string>,
): Promise<Project> {
  const dir = path.join(root, name);
  initRepo(dir, files);
  const res = await f.s.api("POST", "/api/projects", { dir });
  assert.ok(res.ok, `project registered: ${res.status} ${await res.clone().text()}`);
  return { id: ((await res.json()) as { id: string }).id, dir };
}

/** POST /api/projects/:id/chats with `worktree`, as it answered. */
export function createChat(f: ChatFixture, project: Project, body: Record<string, unknown>): Promise<Response> {
  return f.s.api("POST", `/api/projects/${project.id}/chats`, { modelId: "fake/tools", ...body });
}

/** A worktree chat that must be created. */
export async function worktreeChat(
  f: ChatFixture,
  project: Project,
  title: string,
  worktree: unknown = true,
): Promise<{ id: string; worktreeBranch: string | null }> {
  const res = await createChat(f, project, { title, worktree });
  assert.equal(res.status, 201, await res.clone().text());
  return res.json() as Promise<{ id: string; worktreeBranch: string | null }>;
}

/** Starts a `fake/tools` turn; resolves once the server answered (the stream still open). */
export function startTurn(f: ChatFixture, chatId: string, content: string): Promise<Response> {
  return send(f, chatId, { content, modelId: "fake/tools" });
}

/** The `tool.result` events of a turn's stream. */
export const toolResults = (events: ReceivedEvent[]) => events.filter((e) => e.event === "tool.result");

/** A whole turn that must run its one tool call successfully; its events. */
export async function turn(f: ChatFixture, chatId: string, content: string): Promise<ReceivedEvent[]> {
  const res = await startTurn(f, chatId, content);
  assert.equal(res.status, 200, await res.clone().text());
  const events = await readEvents(res);
  const results = toolResults(events);
  assert.equal(results.length, 1, `one tool ran in "${content}": ${JSON.stringify(events.map((e) => e.event))}`);
  assert.equal(results[0]!.data.ok, true, `the tool of "${content}" succeeded: ${JSON.stringify(results[0]!.data)}`);
  return events;
}

export async function worktreeInfo(f: ChatFixture, chatId: string): Promise<WorktreeInfo> {
  const res = await f.s.api("GET", `/api/chats/${chatId}/worktree`);
  assert.equal(res.status, 200, await res.clone().text());
  return res.json() as Promise<WorktreeInfo>;
}

export function merge(f: ChatFixture, chatId: string, mode: "merge" | "squash"): Promise<Response> {
  return f.s.api("POST", `/api/chats/${chatId}/worktree/merge`, { mode });
}

export function discard(f: ChatFixture, chatId: string, body: { force?: boolean } = {}): Promise<Response> {
  return f.s.api("DELETE", `/api/chats/${chatId}/worktree`, body);
}

/** A refusal's status and error body. */
export async function refusal(res: Response): Promise<{ status: number; body: ApiError }> {
  return { status: res.status, body: (await res.json()) as ApiError };
}

/** The files a refusal's `issues` list. */
export const issuePaths = (body: ApiError) => (body.error.issues ?? []).map((issue) => issue.path).sort();
