// The fake's scripted long session, driven without a server: each step's tool call is played by a
// stand-in for Parley's tools, and the plan must survive only in the calls (as after a compaction).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { longAgentScenario, toolScenario } from "../../fake-gateway/tool-script";
import { longFileContent, parseLongPlan, summaryScenario } from "../../fake-gateway/long-session";
import type { Scenario } from "../../fake-gateway/server";
import type { WireMessage } from "../../fake-gateway/tokens";

const TOOLS = [{ type: "function", function: { name: "file" } }];

/** Parley's `file` read, as the model sees it: numbered lines from `offset`, `limit` of them. */
function readLines(content: string, offset: number, limit: number): string {
  const lines = content.split("\n");
  return lines
    .slice(offset - 1, offset - 1 + limit)
    .map((line, i) => `${String(offset + i).padStart(4)}\t${line}\n`)
    .join("");
}

/** Plays a session to its end: `files` stands for the project, `shell` runs commands for real. */
function play(first: WireMessage[], next: (messages: WireMessage[]) => Scenario, edit = (m: WireMessage[]) => m) {
  let messages = [...first];
  const files = new Map<string, string>();
  const outputs: string[] = [];
  for (let turn = 0; turn < 50; turn++) {
    const scenario = next(messages);
    assert.equal(scenario.kind, "reply");
    if (scenario.kind !== "reply") throw new Error("not a reply");
    if (!scenario.toolCalls?.length) return { answer: scenario.text ?? "", outputs, files, requests: turn + 1 };
    const calls = scenario.toolCalls.map((call, i) => ({
      id: `call_${turn}_${i}`,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
    messages.push({ role: "assistant", content: scenario.text ?? null, tool_calls: calls });
    for (const call of scenario.toolCalls) {
      const args = call.arguments as Record<string, any>;
      let output: string;
      if (call.name === "file" && args.action === "write") {
        files.set(args.path, args.content);
        output = JSON.stringify({ path: args.path, bytesBefore: 0, bytesAfter: args.content.length });
      } else if (call.name === "file") output = readLines(files.get(args.path) ?? "", args.offset, args.limit);
      else output = execFileSync("/bin/sh", ["-c", args.cmd], { encoding: "utf8" });
      outputs.push(output);
      messages.push({ role: "tool", tool_call_id: calls[scenario.toolCalls.indexOf(call)]!.id, content: output });
    }
    messages = edit(messages);
  }
  throw new Error("the session did not end");
}

describe("fake gateway: the scripted long session", () => {
  it("prepares a file, reads about K KB in each of N steps, then answers that the needle is visible", () => {
    const user = { role: "user", content: "long: 3 2\nneedle: the owl is named Ada" };
    const run = play([user], (m) => longAgentScenario(m, TOOLS));
    assert.equal(run.requests, 5); // the write, three reads, the answer
    assert.equal(
      run.answer,
      'Done: 3 steps, each reading about 2 KB. Needle "the owl is named Ada": visible in this request.',
    );
    const reads = run.outputs.slice(1);
    assert.equal(reads.length, 3);
    for (const [i, out] of reads.entries()) {
      assert.ok(out.length > 1_900 && out.length < 2_400, `step ${i + 1}: ${out.length} bytes`);
      assert.match(out, new RegExp(`^ +${i + 1}\\tparley-long line 0+${i + 1}: `));
    }
    assert.deepEqual([...run.files.keys()], [".parley-long/3x2kb-dGhlIG93bCBpcyBuYW1lZCBBZGE.txt"]);
  });

  it("knows its plan from the calls alone, and says so when the needle left the request", () => {
    // Each request keeps only the newest call and its result, as a compaction that dropped the rest would.
    const keepRecent = (m: WireMessage[]) => m.slice(-2);
    const user = { role: "user", content: "long: 4 1\nneedle: the owl is named Ada" };
    const run = play([user], (m) => longAgentScenario(m, TOOLS), keepRecent);
    assert.equal(run.outputs.length, 5);
    assert.equal(
      run.answer,
      'Done: 4 steps, each reading about 1 KB. Needle "the owl is named Ada": not visible in this request.',
    );
  });

  it("prints K KB with shell in each step when told `shell`, and answers without a needle", () => {
    const run = play([{ role: "user", content: "long: 2 1 shell" }], (m) => toolScenario(m, TOOLS));
    assert.deepEqual(
      run.outputs.map((o) => o.length),
      [1024, 1024],
    );
    assert.match(run.outputs[1]!, /^parley-long step 2\/2: /);
    assert.equal(run.answer, "Done: 2 steps, each reading about 1 KB.");
  });

  it("takes the needle from the first user message when a later turn starts the session", () => {
    const messages = [
      { role: "user", content: "needle: blue door" },
      { role: "assistant", content: "noted" },
      { role: "user", content: "long: 1 1" },
    ];
    const run = play(messages, (m) => toolScenario(m, TOOLS));
    assert.match(run.answer, /Needle "blue door": visible/);
  });

  it("runs five steps of 4 KB by default, and stops when a tool fails", () => {
    const start = longAgentScenario([{ role: "user", content: "go" }], TOOLS);
    assert.equal(start.kind === "reply" && (start.toolCalls![0]!.arguments as any).path, ".parley-long/5x4kb.txt");
    assert.deepEqual(parseLongPlan("long: 5000 999", false), { steps: 1000, kb: 60, via: "file" });
    assert.equal(parseLongPlan("hello", false), undefined);
    const refused = longAgentScenario(
      [
        { role: "user", content: "long: 2 1" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "c1",
              type: "function",
              function: {
                name: "file",
                arguments: JSON.stringify({ action: "write", path: ".parley-long/2x1kb.txt" }),
              },
            },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "the user denied this call" },
      ],
      TOOLS,
    );
    assert.deepEqual(refused, { kind: "reply", text: "Could not prepare the file: the user denied this call" });
  });

  it("lays the file out so that step N still reads a full K KB", () => {
    const content = longFileContent({ steps: 10, kb: 1, via: "file" });
    assert.equal(content.split("\n").length - 1, 16 + 9);
    assert.ok(content.split("\n").every((line) => line.length <= 63));
  });

  it("answers a compaction's summary request with the task, the needle facts and the progress", () => {
    const messages: WireMessage[] = [
      { role: "user", content: "long: 3 1\nneedle: the owl is named Ada" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "c1",
            type: "function",
            function: {
              name: "file",
              arguments: JSON.stringify({ action: "read", path: ".parley-long/3x1kb.txt", offset: 2, limit: 16 }),
            },
          },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "   2\tparley-long line 000002: …" },
      { role: "user", content: "Summarize the conversation so far for a handoff." },
    ];
    const scenario = longAgentScenario(messages, undefined);
    assert.deepEqual(scenario, summaryScenario(messages));
    assert.equal(
      scenario.kind === "reply" && scenario.text,
      "Summary of the session so far.\nTask: long: 3 1\nFacts: needle: the owl is named Ada\nProgress: step 2 of 3 done.",
    );
  });

  it("reads command words from content parts, as messages marked for caching arrive", () => {
    const scenario = toolScenario(
      [{ role: "user", content: [{ type: "text", text: "shell: ls", cache_control: { type: "ephemeral" } }] }],
      TOOLS,
    );
    assert.deepEqual(scenario, {
      kind: "reply",
      text: "Running it. ",
      toolCalls: [{ name: "shell", arguments: { cmd: "ls" } }],
    });
  });
});
