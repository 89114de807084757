// `npm run bench -- sessions`: a long agent session (contract 7.3, issue 35's targets). A scripted
// 200-step session reading 20 KB per step on a 128k-token model behind explicit cache marks, run by a
// real `parley serve` against the fake gateway (in this process, so the bench can read the requests
// it received), three ways: with compaction and caching (what users get), naive (both off, the
// fake's window lifted so the session can finish at all: the bill it would run up), and naive on the
// real window (where it dies). Plus Parley's own time per step for counting and the compaction check
// at 100k tokens of history, against serialising the same request (which sending needs anyway).
import { FakeGateway } from "../test/fake-gateway/server";
import { startStack, type Stack } from "../test/helpers/stack";
import { readEvents, type ReceivedEvent } from "../test/helpers/sse";
import { TokenCounter } from "../src/chat/context/token-count";
import { ContextMeter } from "../src/chat/context/context-meter";
import { compactionBudget } from "../src/chat/context/compaction-plan";
import type { UpstreamMessage } from "../src/chat/transcript";
import { median, report, round } from "./stats";

const MODEL = "anthropic/fake-claude";
const WINDOW = 128_000;
const KB = 20;
const NEEDLE_IN_MESSAGE = "the owl is named Ada";
/** Stated only by a tool output (the command never spells it out), which is pruned later. */
const NEEDLE_IN_OUTPUT = "the cat is named Bo";
const NEEDLE_COMMAND = `printf '%0600d\\n' 0; printf 'needle: the cat is %s\\n' 'named Bo'`;
const TARGET_BILLED_RATIO = 0.2;
const TARGET_CACHE_HIT = 0.8;
const TARGET_STEP_MS = 5;

type Ledger = {
  cause: string;
  promptTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  cost: number | null;
}[];
type Pricing = { prompt: number; read: number; write: number };

type SessionRun = {
  events: ReceivedEvent[];
  ledger: Ledger;
  finalText: string;
  lastRequest: string;
  seconds: number;
};

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function turn(stack: Stack, chatId: string, content: string): Promise<ReceivedEvent[]> {
  const response = await fetch(`${stack.url}/api/chats/${chatId}/messages/stream`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ content }),
  });
  if (!response.ok) throw new Error(`turn refused: ${response.status} ${await response.text()}`);
  return readEvents(response);
}

async function session(
  stack: Stack,
  gateway: FakeGateway,
  steps: number,
  options: { managed: boolean },
): Promise<SessionRun> {
  await json(
    await stack.api("PATCH", "/api/settings/app", {
      chat: { maxSteps: 1000, promptCaching: options.managed, compaction: { auto: options.managed } },
    }),
  );
  const [project] = await json<{ id: string }[]>(await stack.api("GET", "/api/projects"));
  const chat = await json<{ id: string }>(
    await stack.api("POST", `/api/projects/${project!.id}/chats`, { modelId: MODEL }),
  );
  const started = performance.now();
  await turn(stack, chat.id, `shell: ${NEEDLE_COMMAND}`);
  const events = await turn(stack, chat.id, `long: ${steps} ${KB}\nneedle: ${NEEDLE_IN_MESSAGE}`);
  const seconds = (performance.now() - started) / 1000;
  const ledger = await json<Ledger>(await stack.api("GET", `/api/chats/${chat.id}/requests`));
  const finalText = events
    .filter((e) => e.event === "text.delta")
    .map((e) => e.data.text as string)
    .join("");
  const lastRequest = JSON.stringify(gateway.completions.at(-1)?.body ?? {});
  return { events, ledger, finalText, lastRequest, seconds };
}

/** Prompt tokens as billed at the full prompt price: cache reads and writes at their own prices. */
function billedPromptTokens(ledger: Ledger, pricing: Pricing): number {
  let billed = 0;
  for (const r of ledger) {
    const plain = Math.max(0, r.promptTokens - r.cachedTokens - r.cacheWriteTokens);
    billed += plain + (r.cachedTokens * pricing.read + r.cacheWriteTokens * pricing.write) / pricing.prompt;
  }
  return billed;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const errorsOf = (events: ReceivedEvent[]) => events.filter((e) => e.event === "error");

async function longSession(steps: number): Promise<void> {
  const gateway = await new FakeGateway().start();
  gateway.keepRequests = 4;
  const stack = await startStack({ gatewayBaseUrl: gateway.baseUrl });
  try {
    await json(
      await stack.api("PATCH", "/api/settings/app", {
        providers: [{ id: "gateway", apiKey: "sk-fake-bench" }],
        toolGates: { file: "allow", shell: "allow" },
      }),
    );
    const catalog = await json<{ id: string; pricing: Record<string, number | null> }[]>(
      await stack.api("GET", "/api/providers/gateway/models"),
    );
    const listed = catalog.find((m) => m.id === MODEL)!.pricing;
    const pricing: Pricing = {
      prompt: Number(listed.prompt),
      read: Number(listed.inputCacheRead ?? listed.input_cache_read ?? listed.prompt),
      write: Number(listed.inputCacheWrite ?? listed.input_cache_write ?? listed.prompt),
    };

    const managed = await session(stack, gateway, steps, { managed: true });
    const compactions = managed.events.filter((e) => e.event === "compaction").map((e) => e.data);
    const maxEstimate = Math.max(...managed.events.filter((e) => e.event === "context").map((e) => e.data.used));
    const finished = managed.finalText.includes(`Done: ${steps} steps`);
    report({
      bench: "sessions.long_session",
      steps,
      kbPerStep: KB,
      window: WINDOW,
      finished,
      upstreamErrors: errorsOf(managed.events).length,
      compactions: compactions.length,
      summaries: compactions.filter((c) => c.summary).length,
      maxEstimateTokens: maxEstimate,
      requests: managed.ledger.length,
      seconds: round(managed.seconds, 1),
      pass: finished && errorsOf(managed.events).length === 0 && maxEstimate <= WINDOW,
    });

    // The needles, on the last request the fake received (after the session's compactions).
    const ownerVisible = managed.finalText.includes(`Needle "${NEEDLE_IN_MESSAGE}": visible`);
    const outputNeedleVisible = managed.lastRequest.includes(NEEDLE_IN_OUTPUT);
    const outputStillWhole = managed.lastRequest.includes("00000000000000000000000000");
    report({
      bench: "sessions.needles",
      compactions: compactions.length,
      inFirstMessage: ownerVisible,
      inPrunedOutput: outputNeedleVisible,
      prunedOutputStillSent: outputStillWhole,
      pass: compactions.length >= 3 && ownerVisible && outputNeedleVisible && !outputStillWhole,
    });

    // The cache, from the third request of the session on.
    const cached = managed.ledger.filter((r) => r.cause !== "compaction").slice(2);
    const hit = sum(cached.map((r) => r.cachedTokens)) / Math.max(1, sum(cached.map((r) => r.promptTokens)));
    report({
      bench: "sessions.cache_hit",
      requests: cached.length,
      promptTokens: sum(cached.map((r) => r.promptTokens)),
      cachedTokens: sum(cached.map((r) => r.cachedTokens)),
      hitRate: round(hit),
      target: TARGET_CACHE_HIT,
      pass: hit >= TARGET_CACHE_HIT,
    });

    // The same session with neither: the fake's window lifted so it can finish, to know its bill.
    gateway.contextLengths.set(MODEL, 1_000_000_000);
    const naive = await session(stack, gateway, steps, { managed: false });
    const billed = billedPromptTokens(managed.ledger, pricing);
    const naiveBilled = billedPromptTokens(naive.ledger, pricing);
    report({
      bench: "sessions.billed_prompt_tokens",
      steps,
      billedPromptTokens: Math.round(billed),
      naiveBilledPromptTokens: Math.round(naiveBilled),
      naiveFinished: naive.finalText.includes(`Done: ${steps} steps`),
      ratio: round(billed / naiveBilled, 4),
      costUsd: round(sum(managed.ledger.map((r) => r.cost ?? 0)), 4),
      naiveCostUsd: round(sum(naive.ledger.map((r) => r.cost ?? 0)), 4),
      target: TARGET_BILLED_RATIO,
      pass: billed <= TARGET_BILLED_RATIO * naiveBilled,
    });

    // And naive on the model's real window: where the request first overflows (the overflow answer
    // is still compacted and sent again, contract 7.3, so the session goes on).
    gateway.contextLengths.delete(MODEL);
    const dies = await session(stack, gateway, steps, { managed: false });
    const overflow = dies.events.findIndex((e) => e.event === "compaction" && e.data.reason === "overflow");
    report({
      bench: "sessions.naive_on_real_window",
      steps,
      overflowAtStep: overflow < 0 ? null : dies.events.slice(0, overflow).filter((e) => e.event === "usage").length,
      rescuedByOverflowCompaction: dies.finalText.includes(`Done: ${steps} steps`),
      // Informational: what the managed session is measured against.
      pass: true,
    });
  } finally {
    await stack.stop();
    await gateway.stop();
  }
}

/**
 * Parley's own time per step at 100k tokens of history: the compaction check and the meter each
 * measure the request (memoized counts), against serialising the same request to send it.
 */
async function stepOverhead(samples: number): Promise<void> {
  const counter = await TokenCounter.load();
  const line = (n: number) =>
    `parley-long line ${String(n).padStart(6, "0")}: the quick brown fox jumps over the lazy dog\n`;
  const output = (step: number) => Array.from({ length: 320 }, (_, i) => line(step * 320 + i)).join("");
  const messages: UpstreamMessage[] = [
    { role: "system", content: "You are a careful assistant.".repeat(20) },
    { role: "user", content: "long: 200 20" },
  ];
  let step = 0;
  const addStep = () => {
    step++;
    const id = `call_${step}`;
    messages.push({
      role: "assistant",
      content: `Step ${step}. `,
      tool_calls: [
        { id, type: "function", function: { name: "file", arguments: `{"action":"read","offset":${step}}` } },
      ],
    });
    messages.push({ role: "tool", tool_call_id: id, content: output(step) });
  };
  while (counter.countMessage({ content: JSON.stringify(messages) }) < 100_000) addStep();
  const meter = new ContextMeter(counter, WINDOW, []);
  const budget = compactionBudget({ window: WINDOW, threshold: 0.8, keepRecentTokens: 20_000 });
  meter.measure(messages, []);
  const parley: number[] = [];
  const serialise: number[] = [];
  let over = 0;
  for (let i = 0; i < samples; i++) {
    addStep();
    messages.splice(2, 2); // stays at about 100k tokens
    const started = performance.now();
    if (meter.measure(messages, []).used > budget) over++;
    meter.measure(messages, []);
    parley.push(performance.now() - started);
    const before = performance.now();
    JSON.stringify({ model: MODEL, messages, stream: true });
    serialise.push(performance.now() - before);
  }
  const perStep = median(parley);
  report({
    bench: "sessions.count_per_step",
    historyTokens: meter.measure(messages, []).used,
    samples,
    parleyMedianMs: round(perStep),
    serialiseRequestMedianMs: round(median(serialise)),
    overBudgetSteps: over,
    targetMs: TARGET_STEP_MS,
    pass: perStep < TARGET_STEP_MS,
  });
}

export async function runSessionsBench(): Promise<void> {
  await stepOverhead(Number(process.env.BENCH_SAMPLES ?? 100));
  await longSession(Number(process.env.BENCH_SESSION_STEPS ?? 200));
}
