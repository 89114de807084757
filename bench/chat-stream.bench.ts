// Chat streaming through Parley against the same request made directly to the fake gateway:
// time to first token, chunks per second through one stream, and 100 concurrent streams checked
// for order and loss; and how long a gateway body that never ends after [DONE] holds the closing of
// the connection pool (a shutdown). Prints one JSON line per result.
import path from "node:path";
import { createParser } from "eventsource-parser";
import { AFTER_DONE_MS } from "../src/gateway/chat-completions";
import { closeGatewayDispatcher } from "../src/gateway/http";
import { numberedPieces } from "../test/fake-gateway/server";
import { newChat as newFixtureChat, send, startChatFixture } from "../test/helpers/chat-fixture";
import { until } from "../test/helpers/poll";
import { readEvents } from "../test/helpers/sse";
import { startStack as startProcesses } from "../test/helpers/stack";
import { median, percentile, report, round } from "./stats";

/** Parley and the fake gateway as separate processes, with a key set and the project's id. */
async function startStack() {
  const stack = await startProcesses();
  await stack.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: "sk-fake-bench" }] });
  const [project] = (await (await stack.api("GET", "/api/projects")).json()) as { id: string }[];
  return { ...stack, gatewayBaseUrl: stack.gateway.baseUrl, parleyUrl: stack.url, projectId: project!.id };
}
type Stack = Awaited<ReturnType<typeof startStack>>;
type Timing = { firstTokenMs: number; doneMs: number; text: string; chunks: number };

/** Reads an SSE response, timing the first text and the end; works for both wire formats. */
async function timeStream(
  started: number,
  response: Response,
  textOf: (event: string | undefined, data: string) => string | undefined,
): Promise<Timing> {
  let firstTokenMs = NaN;
  let text = "";
  let chunks = 0;
  const parser = createParser({
    onEvent(e) {
      const piece = textOf(e.event, e.data);
      if (piece === undefined) return;
      if (Number.isNaN(firstTokenMs)) firstTokenMs = performance.now() - started;
      text += piece;
      chunks++;
    },
  });
  const decoder = new TextDecoder();
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>)
    parser.feed(decoder.decode(bytes, { stream: true }));
  return { firstTokenMs, doneMs: performance.now() - started, text, chunks };
}

const parleyText = (event: string | undefined, data: string) =>
  event === "text.delta" ? (JSON.parse(data) as { text: string }).text : undefined;
const directText = (_event: string | undefined, data: string) => {
  if (data === "[DONE]") return undefined;
  const content = (JSON.parse(data) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content;
  return content ? content : undefined;
};

/** The `tools` Parley offers upstream, as it sends them: the baseline request carries the same. */
type OfferedTool = { type: "function"; function: { name: string; description: string; parameters: unknown } };

async function offeredTools(stack: Stack): Promise<OfferedTool[]> {
  const query = `projectDir=${encodeURIComponent(stack.projectDir)}`;
  const catalog = (await (await stack.api("GET", `/api/tools/catalog?${query}`)).json()) as {
    name: string;
    description: string;
    parameters?: Record<string, unknown>;
    gate: string;
  }[];
  return catalog
    .filter((t) => t.gate !== "off" && t.name !== "subagent")
    .map((t) => {
      const { $schema: _meta, ...parameters } = t.parameters ?? { type: "object", properties: {} };
      return { type: "function", function: { name: t.name, description: t.description, parameters } };
    });
}

async function direct(stack: Stack, model: string, tools: OfferedTool[] = []): Promise<Timing> {
  const started = performance.now();
  const response = await fetch(`${stack.gatewayBaseUrl}/chat/completions`, {
    method: "POST",
    headers: {
      authorization: "Bearer sk-fake-bench",
      "content-type": "application/json",
      "http-referer": "http://127.0.0.1/parley",
      "x-title": "Parley",
    },
    body: JSON.stringify({
      model,
      stream: true,
      messages: [{ role: "user", content: "hi" }],
      ...(tools.length > 0 ? { tools } : {}),
    }),
  });
  return timeStream(started, response, directText);
}

async function newChat(stack: Stack, model: string): Promise<string> {
  return (
    (await (await stack.api("POST", `/api/projects/${stack.projectId}/chats`, { modelId: model })).json()) as {
      id: string;
    }
  ).id;
}

async function throughParley(stack: Stack, chatId: string): Promise<Timing> {
  const started = performance.now();
  const response = await fetch(`${stack.parleyUrl}/api/chats/${chatId}/messages/stream`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ content: "hi" }),
  });
  return timeStream(started, response, parleyText);
}

async function firstToken(stack: Stack, samples: number, bench = "chat.first_token", extra = {}): Promise<void> {
  const chats = await Promise.all(Array.from({ length: samples + 20 }, () => newChat(stack, "fake/fast")));
  const tools = await offeredTools(stack);
  const parley: number[] = [];
  const straight: number[] = [];
  for (let i = 0; i < chats.length; i++) {
    // Alternate the two paths so drift on a shared machine hits both alike; skip 20 warm-up rounds.
    const viaParley = await throughParley(stack, chats[i]!);
    const viaDirect = await direct(stack, "fake/fast", tools);
    if (i >= 20) {
      parley.push(viaParley.firstTokenMs);
      straight.push(viaDirect.firstTokenMs);
    }
  }
  report({
    bench,
    samples,
    toolsOffered: tools.length,
    ...extra,
    parleyMedianMs: round(median(parley)),
    directMedianMs: round(median(straight)),
    addedMedianMs: round(median(parley) - median(straight)),
    meetsTarget: median(parley) - median(straight) < 2,
    parleyP95Ms: round(percentile(parley, 95)),
    directP95Ms: round(percentile(straight, 95)),
    targetAddedMedianMs: 2,
  });
}

async function throughput(stack: Stack): Promise<void> {
  const expected = numberedPieces(2000).join("");
  const viaParley = await throughParley(stack, await newChat(stack, "fake/burst"));
  const viaDirect = await direct(stack, "fake/burst");
  const perSecond = (t: Timing) => t.chunks / ((t.doneMs - t.firstTokenMs) / 1000);
  report({
    bench: "chat.chunks_per_second",
    chunks: viaParley.chunks,
    parleyChunksPerSecond: Math.round(perSecond(viaParley)),
    directChunksPerSecond: Math.round(perSecond(viaDirect)),
    lossless: viaParley.text === expected && viaDirect.text === expected,
  });
}

async function concurrent(stack: Stack, streams: number): Promise<void> {
  const expected = numberedPieces(20).join("");
  const chats = await Promise.all(Array.from({ length: streams }, () => newChat(stack, "fake/fast")));
  const started = performance.now();
  const results = await Promise.all(chats.map((chat) => throughParley(stack, chat)));
  const inOrder = results.filter((r) => r.text === expected).length;
  report({
    bench: "chat.concurrent_streams",
    streams,
    chunksEach: 20,
    streamsComplete: inOrder,
    chunksLost: results.reduce((lost, r) => lost + (20 - r.chunks), 0),
    allInOrder: inOrder === streams,
    wallMs: round(performance.now() - started, 1),
    firstTokenP95Ms: round(
      percentile(
        results.map((r) => r.firstTokenMs),
        95,
      ),
    ),
  });
}

/** Slack over AFTER_DONE_MS for closing the connections' sockets. */
const CLOSE_SLACK_MS = 250;

/**
 * From the end of a turn whose gateway body never ends after [DONE] to the connection pool closed
 * (what a shutdown waits for), against the same close after a body that ended. Parley runs in this
 * process here: the pool is its module's.
 */
async function closeAfterDone(samples: number): Promise<void> {
  const f = await startChatFixture();
  try {
    const chat = await newFixtureChat(f, { modelId: "fake/fast" });
    const hanging: number[] = [];
    const ended: number[] = [];
    for (let i = 0; i < samples; i++) {
      for (const hang of [true, false]) {
        const endedBefore = f.gateway.streamsEnded;
        f.gateway.enqueue({ kind: "reply", pieces: ["a", "b"], ...(hang ? { endAfterDoneMs: 30_000 } : {}) });
        await readEvents(await send(f, chat.id, { content: `turn ${i}` }));
        if (!hang)
          await until(
            () => f.gateway.streamsEnded,
            (n) => n > endedBefore,
            "the body ended",
          );
        const started = performance.now();
        await closeGatewayDispatcher();
        (hang ? hanging : ended).push(performance.now() - started);
      }
    }
    const worst = Math.max(...hanging);
    report({
      bench: "chat.close_after_done",
      samples,
      hangingMedianMs: round(median(hanging), 1),
      hangingMaxMs: round(worst, 1),
      bodyEndedMedianMs: round(median(ended), 1),
      bodyEndedMaxMs: round(Math.max(...ended), 1),
      afterDoneMs: AFTER_DONE_MS,
      targetMaxMs: AFTER_DONE_MS + CLOSE_SLACK_MS,
      meetsTarget: worst < AFTER_DONE_MS + CLOSE_SLACK_MS,
    });
  } finally {
    await f.stop();
  }
}

/**
 * Nine MCP servers from npm as app servers (server-everything, server-filesystem, context7), all
 * ready: the first token's added time with their tools offered on every request.
 */
async function withMcpServers(stack: Stack): Promise<number> {
  const node = process.execPath;
  const everything = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  const filesystem = path.resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
  const context7 = path.resolve("node_modules/@upstash/context7-mcp/dist/index.js");
  const servers = [
    ...[1, 2, 3].map((n) => ({
      id: `everything-${n}`,
      transport: "stdio",
      command: node,
      args: [everything, "stdio"],
    })),
    ...[1, 2].map((n) => ({
      id: `files-${n}`,
      transport: "stdio",
      command: node,
      args: [filesystem, stack.projectDir],
    })),
    ...[1, 2, 3, 4].map((n) => ({ id: `context7-${n}`, transport: "stdio", command: node, args: [context7] })),
  ];
  await stack.api("PATCH", "/api/settings/app", { mcpServers: servers });
  const query = `projectDir=${encodeURIComponent(stack.projectDir)}`;
  await until(
    async () => (await (await stack.api("GET", `/api/mcp/servers?${query}`)).json()) as { status: string }[],
    (list) => list.length === servers.length && list.every((s) => s.status === "ready"),
    "the nine MCP servers to be ready",
    60_000,
  );
  return servers.length;
}

export async function runChatStreamBench(): Promise<void> {
  const stack = await startStack();
  try {
    const samples = Number(process.env.BENCH_SAMPLES ?? 200);
    await firstToken(stack, samples);
    await throughput(stack);
    await concurrent(stack, 100);
    const servers = await withMcpServers(stack);
    await firstToken(stack, samples, "chat.first_token_with_mcp", { mcpServers: servers });
  } finally {
    await stack.stop();
  }
  await closeAfterDone(5);
}
