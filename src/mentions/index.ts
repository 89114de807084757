// The mention engine's one door (see docs/mentions.md): the rest of the app opens it once per server
// runtime, serves its routes, and closes it. Behind this file stay its worker thread, the ranking
// helper thread and its shards, the buffers the worker shares with the main thread, and the file
// watchers; the ranking they run is src/shared/ranking/, which the web UI runs too.
import { MentionEngine } from "./mention-engine";
import { Mentions, type MentionDeps } from "./mentions";

export type { Mentions } from "./mentions";
// The worker's client, as a type only: the app calls its close() and stats(), nothing else (the
// worker's own tests reach its requests through the runtime).
export type { MentionEngine } from "./mention-engine";
export { mentionRoutes } from "./routes";
export { scanWithinBudget } from "./project-scan";

export type MentionsOptions = Omit<MentionDeps, "engine"> & { log: (message: string) => void };

/**
 * Opens the mention engine of a server runtime. `mentions` answers the @ popup: a project's catalog,
 * a keystroke's ranked search, and its tags scan; a project is opened in the worker (scanned,
 * indexed, watched) on its first request. `engine.close()` closes the projects this runtime opened.
 */
export function openMentions({ log, ...deps }: MentionsOptions): { mentions: Mentions; engine: MentionEngine } {
  const engine = new MentionEngine(log);
  return { mentions: new Mentions({ ...deps, engine }), engine };
}
