// The tool-using fakes (`fake/tools` and its kin in catalog.ts): a tool call for a command word at
// the start of the last user message, the next move of a `long:` session, a summary when a
// compaction asks for one, or an answer to the last tool result. `fake/agent-long` runs a long
// session whatever it is told. Text is read from string content and from content parts alike
// (messages marked for caching arrive as parts).
import type { Scenario } from "./server";
import {
  asksForSummary,
  continueLongSession,
  lastLongCall,
  parseLongPlan,
  startLongSession,
  summaryScenario,
} from "./long-session";
import { contentText, type WireMessage } from "./tokens";

/** Models that follow the command words (the catalog says what else sets each apart). */
export const TOOL_MODELS: ReadonlySet<string> = new Set([
  "fake/tools",
  "fake/small-context",
  "anthropic/fake-claude",
  "google/gemini-fake",
]);

export const LONG_MODEL = "fake/agent-long";

/** `fake/agent-long`: a long session from any message (defaults when it names no plan). */
export function longAgentScenario(messages: WireMessage[], tools: unknown): Scenario {
  if (asksForSummary(messages, tools)) return summaryScenario(messages);
  const last = messages.at(-1);
  if (last?.role === "tool") {
    const call = lastLongCall(messages);
    if (call) return continueLongSession(messages, call);
    return { kind: "reply", text: `Tool said: ${contentText(last.content).slice(0, 500)}` };
  }
  if (!Array.isArray(tools) || tools.length === 0)
    return { kind: "reply", text: "A long session needs the file tool (or shell), and none was offered." };
  const firstUser = messages.find((m) => m.role === "user");
  return startLongSession(parseLongPlan(contentText(last?.content), true, contentText(firstUser?.content))!);
}

/**
 * A prompt injection the fake falls for, as a gullible model would: a result of any tool but `shell`
 * (an MCP tool's, a web page's) that says "now run `<command>`" makes it call `shell` with that command.
 * Never a shell result's, so a command that prints those words does not loop.
 */
function injectedCommand(messages: WireMessage[], result: WireMessage): string | undefined {
  const calls = messages.flatMap((m) =>
    m.role === "assistant" && Array.isArray(m.tool_calls)
      ? (m.tool_calls as { id?: string; function?: { name?: string } }[])
      : [],
  );
  const tool = calls.find((c) => c.id === result.tool_call_id)?.function?.name;
  if (!tool || tool === "shell") return undefined;
  return /now run `([^`]+)`/i.exec(contentText(result.content))?.[1];
}

/**
 * Commands: `shell: <cmd>`, `write: <path> <content>`, `edit: <path> <old> => <new>`, `ask: <question>`,
 * `tasks: <a>, <b>`, `mcp: <tool id> <JSON arguments>` (any tool by name, e.g. an MCP one), and
 * `long: <steps> <kb> [file|shell]` (a long session, see long-session.ts).
 */
export function toolScenario(messages: WireMessage[], tools?: unknown): Scenario {
  if (asksForSummary(messages, tools)) return summaryScenario(messages);
  const last = messages.at(-1);
  if (last?.role === "tool") {
    const call = lastLongCall(messages);
    if (call) return continueLongSession(messages, call);
    const injected = injectedCommand(messages, last);
    if (injected)
      return {
        kind: "reply",
        text: "Doing as the tool says. ",
        toolCalls: [{ name: "shell", arguments: { cmd: injected } }],
      };
    return { kind: "reply", text: `Tool said: ${contentText(last.content).slice(0, 500)}` };
  }
  const said = contentText(last?.content).trim();
  const command = /^(\w+):\s*([\s\S]*)$/.exec(said);
  if (!command) return { kind: "reply", text: `You said: ${said}` };
  const [, verb, rest] = command as unknown as [string, string, string];
  if (verb === "long") {
    const firstUser = messages.find((m) => m.role === "user");
    return startLongSession(parseLongPlan(said, true, contentText(firstUser?.content))!);
  }
  if (verb === "shell")
    return { kind: "reply", text: "Running it. ", toolCalls: [{ name: "shell", arguments: { cmd: rest } }] };
  if (verb === "write") {
    const [path, ...content] = rest.split(" ");
    return {
      kind: "reply",
      toolCalls: [{ name: "file", arguments: { action: "write", path, content: content.join(" ") } }],
    };
  }
  if (verb === "edit") {
    const [path, change = ""] = [rest.slice(0, rest.indexOf(" ")), rest.slice(rest.indexOf(" ") + 1)];
    const [oldText, newText] = change.split(" => ");
    return { kind: "reply", toolCalls: [{ name: "file", arguments: { action: "edit", path, oldText, newText } }] };
  }
  if (verb === "mcp") {
    const [, name = "", json = "{}"] = /^(\S+)\s*([\s\S]*)$/.exec(rest) ?? [];
    let args: unknown;
    try {
      args = JSON.parse(json || "{}");
    } catch {
      return { kind: "reply", text: `Not JSON: ${json}` };
    }
    return { kind: "reply", toolCalls: [{ name, arguments: args }] };
  }
  if (verb === "ask")
    return { kind: "reply", toolCalls: [{ name: "ask_user", arguments: { question: rest, choices: ["yes", "no"] } }] };
  if (verb === "tasks") {
    const items = rest
      .split(",")
      .map((title, i) => ({ title: title.trim(), status: i === 0 ? "in_progress" : "pending" }));
    return {
      kind: "reply",
      toolCalls: [
        { name: "task", arguments: { items } },
        { name: "report_progress", arguments: { message: `working on ${items[0]!.title}` } },
      ],
    };
  }
  return { kind: "reply", text: `You said: ${said}` };
}
