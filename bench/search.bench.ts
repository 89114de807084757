// `npm run bench -- search`: search across chats (contract 7.4: under 50 ms at 100,000 messages).
// A real `parley serve` whose store is filled straight through SQLite (test/helpers/transcript-store:
// mixed markdown answers, questions, tool calls and their outputs): BENCH_SEARCH_MESSAGES messages
// (default 100,000) in 100 chats of two projects, plus a small third project of one short chat.
// GET /api/search is then timed over loopback for common words (in most messages), a prefix being
// typed, two words, a rare word (two messages) and a word found nowhere, across every project, within
// one large project and within the small one (the hard case for a project filter: a common word whose
// matches are nearly all elsewhere). Each line has GET /api/health's median as its baseline.
import fs from "node:fs";
import path from "node:path";
import { startStack, type Stack } from "../test/helpers/stack";
import { fillChat } from "../test/helpers/transcript-store";
import { median, percentile, report, round } from "./stats";

const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 100_000);
const CHATS = 100;
const SAMPLES = 30;
const WARMUP = 5;
const TARGET_MEDIAN_MS = 50;
const MODEL = "fake/echo";
/** The tag of chat 42: its last question and answer name it, nothing else does. */
const RARE_TAG = "needle42";

/** What is searched: the fill's own vocabulary (fake-gateway/long-markdown, transcript-store). */
const QUERIES = [
  { kind: "common", q: "store" },
  { kind: "common_typing", q: "sto" },
  { kind: "two_words", q: "answer streams" },
  { kind: "tool_output", q: "passing" },
  { kind: "rare", q: RARE_TAG },
  { kind: "nowhere", q: "zyxwvut" },
] as const;

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function timeGet(stack: Stack, route: string): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const response = await fetch(`${stack.url}${route}`, { headers: { authorization: `Bearer ${stack.token}` } });
  const body = (await response.json()) as unknown;
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`GET ${route}: ${response.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

async function samples(stack: Stack, route: string): Promise<{ times: number[]; hits: number }> {
  const times: number[] = [];
  let hits = 0;
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const { ms, body } = await timeGet(stack, route);
    if (i >= WARMUP) times.push(ms);
    hits = Array.isArray(body) ? body.length : 0;
  }
  return { times, hits };
}

/** Two projects of CHATS / 2 chats each, MESSAGES in all, and a small project with one chat of 20. */
async function fill(stack: Stack): Promise<Record<"all" | "large_project" | "small_project", string | undefined>> {
  const store = path.join(path.dirname(stack.projectDir), "home", "store.sqlite");
  if (!fs.existsSync(store)) throw new Error(`the server's store is not at ${store}`);
  const project = async (name: string) => {
    const dir = path.join(path.dirname(stack.projectDir), name);
    fs.mkdirSync(dir, { recursive: true });
    return json<{ id: string; dir: string }>(await stack.api("POST", "/api/projects", { dir }));
  };
  const [large, other, small] = [await project("large"), await project("other"), await project("small")];
  const chatIn = async (projectId: string, title: string) =>
    (await json<{ id: string }>(await stack.api("POST", `/api/projects/${projectId}/chats`, { title, modelId: MODEL })))
      .id;
  const started = performance.now();
  const perChat = Math.floor(MESSAGES / CHATS);
  for (let i = 0; i < CHATS; i++) {
    const id = await chatIn(i % 2 === 0 ? large.id : other.id, `Chat ${i}`);
    fillChat(store, id, perChat, MODEL, `needle${i}`);
  }
  fillChat(store, await chatIn(small.id, "Small"), 20, MODEL, "small");
  process.stderr.write(
    `search: ${perChat * CHATS + 20} messages written in ${round((performance.now() - started) / 1000, 1)} s\n`,
  );
  return { all: undefined, large_project: large.dir, small_project: small.dir };
}

export async function runSearchBench(): Promise<void> {
  const stack = await startStack();
  try {
    const scopes = await fill(stack);
    const health = median((await samples(stack, "/api/health")).times);
    for (const [scope, projectDir] of Object.entries(scopes)) {
      for (const { kind, q } of QUERIES) {
        const query = new URLSearchParams({ q, ...(projectDir ? { projectDir } : {}) });
        const { times, hits } = await samples(stack, `/api/search?${query}`);
        const value = median(times);
        report({
          bench: "search.query",
          kind,
          scope,
          q,
          messages: Math.floor(MESSAGES / CHATS) * CHATS,
          hits,
          samples: SAMPLES,
          medianMs: round(value, 2),
          p95Ms: round(percentile(times, 95), 2),
          baselineHealthMedianMs: round(health, 2),
          targetMedianMs: TARGET_MEDIAN_MS,
          pass: value < TARGET_MEDIAN_MS,
        });
      }
    }
  } finally {
    await stack.stop();
  }
}
