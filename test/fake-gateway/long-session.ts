// A long agent session, scripted: `fake/agent-long` (and the `long:` command word of the tool-using
// fakes) runs N steps that each read about K KB through a tool, then answers, so anyone can watch a
// long session (context meter, compaction, caching) on their own machine without a real model.
// The plan travels in the tool calls themselves (the path read, or the command run): the fake keeps
// no state, and still knows where it is after Parley pruned or summarised the history before.
//
//   long: <steps> <kb> [file|shell]     (defaults: 5 steps of 4 KB, through the `file` tool)
//   needle: <fact>                      (optional, its own line; else the first user message's)
//
// With `file`: one write of `.parley-long/<steps>x<kb>kb[-<needle>].txt` (numbered lines), then
// step k reads it from line k, about K KB each. With `shell`: step k prints K KB with `yes | head`.
// The final answer says whether the needle's text is still visible anywhere in the request.
import type { Scenario } from "./server";
import { contentText, toolCallTexts, type WireMessage } from "./tokens";

export type LongPlan = { steps: number; kb: number; via: "file" | "shell"; needle?: string };

export const LONG_DEFAULTS = { steps: 5, kb: 4 } as const;
/** Parley caps a tool's output at 64 KiB; a step must fit. */
export const LONG_MAX_KB = 60;
export const LONG_MAX_STEPS = 1_000;
/** Longer needles are cut: the needle rides in a file name. */
export const NEEDLE_MAX_CHARS = 120;

const LINE_BYTES = 64;
const FILLER = "the quick brown fox jumps over the lazy dog, again and again";
const PATH = /^\.parley-long\/(\d+)x(\d+(?:\.\d+)?)kb(?:-([A-Za-z0-9_-]+))?\.txt$/;
const SHELL =
  /^yes 'parley-long step (\d+)\/(\d+):[^']*' \| head -c \d+ # parley-long (\d+(?:\.\d+)?)kb(?: needle=([A-Za-z0-9_-]+))?$/;

/** The plan a message asks for: `long: …` on its first line (or always, `force`), `needle: …` on any. */
export function parseLongPlan(text: string, force: boolean, fallbackNeedleText = ""): LongPlan | undefined {
  const command = /^\s*long:\s*(\d+)?\s*(\d+(?:\.\d+)?)?\s*(file|shell)?/i.exec(text);
  if (!command && !force) return undefined;
  const steps = Math.min(LONG_MAX_STEPS, Math.max(1, Number(command?.[1] ?? LONG_DEFAULTS.steps)));
  const kb = Math.min(LONG_MAX_KB, Math.max(0.1, Number(command?.[2] ?? LONG_DEFAULTS.kb)));
  const via = command?.[3]?.toLowerCase() === "shell" ? "shell" : "file";
  const needle = needleIn(text) ?? needleIn(fallbackNeedleText);
  return { steps, kb, via, ...(needle ? { needle } : {}) };
}

function needleIn(text: string): string | undefined {
  const found = /^\s*needle:\s*(.+?)\s*$/im.exec(text)?.[1];
  return found ? found.slice(0, NEEDLE_MAX_CHARS) : undefined;
}

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const unb64 = (text: string | undefined) => (text ? Buffer.from(text, "base64url").toString("utf8") : undefined);

export function longPath(plan: LongPlan): string {
  return `.parley-long/${plan.steps}x${plan.kb}kb${plan.needle ? `-${b64(plan.needle)}` : ""}.txt`;
}

const linesPerRead = (kb: number) => Math.max(1, Math.round((kb * 1024) / LINE_BYTES));

/** The file the steps read: numbered lines of LINE_BYTES, enough for step N to read from line N. */
export function longFileContent(plan: LongPlan): string {
  const count = linesPerRead(plan.kb) + plan.steps - 1;
  let out = "";
  for (let n = 1; n <= count; n++) {
    const head = `parley-long line ${String(n).padStart(6, "0")}: `;
    out += `${(head + FILLER).slice(0, LINE_BYTES - 1)}\n`;
  }
  return out;
}

function stepCall(plan: LongPlan, step: number): { name: string; arguments: unknown } {
  if (plan.via === "file")
    return {
      name: "file",
      arguments: { action: "read", path: longPath(plan), offset: step, limit: linesPerRead(plan.kb) },
    };
  const bytes = Math.round(plan.kb * 1024);
  const needle = plan.needle ? ` needle=${b64(plan.needle)}` : "";
  return {
    name: "shell",
    arguments: {
      cmd: `yes 'parley-long step ${step}/${plan.steps}: ${FILLER}' | head -c ${bytes} # parley-long ${plan.kb}kb${needle}`,
    },
  };
}

/** The first move of a session: prepare the file (file) or run step 1 (shell). */
export function startLongSession(plan: LongPlan): Scenario {
  if (plan.via === "shell") return { kind: "reply", text: `Step 1 of ${plan.steps}. `, toolCalls: [stepCall(plan, 1)] };
  return {
    kind: "reply",
    text: `Preparing ${plan.steps} reads of about ${plan.kb} KB. `,
    toolCalls: [{ name: "file", arguments: { action: "write", path: longPath(plan), content: longFileContent(plan) } }],
  };
}

type SessionCall = { plan: LongPlan; step: number; id: string };

/** The session's last call in the request (step 0: the file's write), if the last call was one. */
export function lastLongCall(messages: readonly WireMessage[]): SessionCall | undefined {
  const assistant = [...messages].reverse().find((m) => m.role === "assistant" && Array.isArray(m.tool_calls));
  const calls = (assistant?.tool_calls ?? []) as { id?: string; function?: { name?: string; arguments?: string } }[];
  const call = calls.at(-1);
  if (!call?.function) return undefined;
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(call.function.arguments ?? "{}") as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const id = String(call.id ?? "");
  if (call.function.name === "file") {
    const match = PATH.exec(String(args.path ?? ""));
    if (!match) return undefined;
    const needle = unb64(match[3]);
    const plan: LongPlan = {
      steps: Number(match[1]),
      kb: Number(match[2]),
      via: "file",
      ...(needle ? { needle } : {}),
    };
    return { plan, step: args.action === "write" ? 0 : Number(args.offset ?? 1), id };
  }
  if (call.function.name === "shell") {
    const match = SHELL.exec(String(args.cmd ?? ""));
    if (!match) return undefined;
    const needle = unb64(match[4]);
    const plan: LongPlan = {
      steps: Number(match[2]),
      kb: Number(match[3]),
      via: "shell",
      ...(needle ? { needle } : {}),
    };
    return { plan, step: Number(match[1]), id };
  }
  return undefined;
}

/** The next move after a session's call came back: the next step, the final answer, or a stop. */
export function continueLongSession(messages: readonly WireMessage[], last: SessionCall): Scenario {
  const result = messages.find((m) => m.role === "tool" && m.tool_call_id === last.id);
  const said = contentText(result?.content);
  const { plan, step } = last;
  if (step === 0 && !said.includes("bytesAfter"))
    return { kind: "reply", text: `Could not prepare the file: ${said.slice(0, 300)}` };
  if (step > 0 && !said.includes("parley-long"))
    return { kind: "reply", text: `Stopped at step ${step} of ${plan.steps}: the tool said: ${said.slice(0, 300)}` };
  if (step < plan.steps)
    return { kind: "reply", text: `Step ${step + 1} of ${plan.steps}. `, toolCalls: [stepCall(plan, step + 1)] };
  let text = `Done: ${plan.steps} steps, each reading about ${plan.kb} KB.`;
  if (plan.needle)
    text += ` Needle "${plan.needle}": ${needleVisible(messages, plan.needle) ? "visible" : "not visible"} in this request.`;
  return { kind: "reply", text };
}

const normalized = (text: string) => text.toLowerCase().replace(/\s+/g, " ");

/** Whether the fact's text appears in any message's text or tool call (case and spacing aside). */
export function needleVisible(messages: readonly WireMessage[], needle: string): boolean {
  const wanted = normalized(needle);
  return messages.some(
    (m) =>
      normalized(contentText(m.content)).includes(wanted) ||
      toolCallTexts(m).some((text) => normalized(text).includes(wanted)),
  );
}

/**
 * Whether a request asks for a summary (a compaction): no tools offered, and the last message or a
 * system message speaks of summarising.
 */
export function asksForSummary(messages: readonly WireMessage[], tools: unknown): boolean {
  if (Array.isArray(tools) && tools.length > 0) return false;
  const candidates = [...messages.filter((m) => m.role === "system"), messages.at(-1)];
  return candidates.some((m) => m !== undefined && /summar/i.test(contentText(m.content)));
}

/** A handoff summary a compaction can keep: the task, the facts stated as `needle:` lines, the progress. */
export function summaryScenario(messages: readonly WireMessage[]): Scenario {
  // Parley sends the conversation as text: the task is the previous summary's, else the first user
  // section's first line; a plain request's first user message otherwise.
  const said = contentText(messages.find((m) => m.role === "user")?.content);
  const task = (/^Task: (.+)$/m.exec(said)?.[1] ?? /### User\n(.+)/.exec(said)?.[1] ?? said.split("\n")[0]!).slice(
    0,
    300,
  );
  const facts = new Set<string>();
  for (const m of messages)
    for (const match of contentText(m.content).matchAll(/needle:\s*([^\n;]+)/gi))
      if (facts.size < 20) facts.add(`needle: ${match[1]!.trim()}`);
  const last = lastLongCall(messages.slice(0, -1));
  const progress = last ? `step ${last.step} of ${last.plan.steps} done` : "no tool steps yet";
  const lines = [
    "Summary of the session so far.",
    `Task: ${task || "(none stated)"}`,
    ...(facts.size > 0 ? [`Facts: ${[...facts].join("; ")}`] : []),
    `Progress: ${progress}.`,
  ];
  return { kind: "reply", text: lines.join("\n") };
}
