// What Enter in the composer does with a text (spec: "Direct agent invocation", "Direct tool
// invocation"; contract 6.6): run a defined agent, dispatch a tool, run a saved action, or send the
// text to the model. Pure and total: it never throws, and anything it cannot read with certainty goes
// to the model rather than being guessed at.
import { nativeTool } from "../tools/native-tools";

export type ComposerRoute =
  | { kind: "agent"; agent: string; task: string }
  | { kind: "tool"; tool: string; arguments: Record<string, unknown> }
  | { kind: "action"; action: string }
  | { kind: "message" };

export type RouteContext = {
  /** Names of the project's defined agents. */
  agents: readonly string[];
  /** Ids of the project's custom actions. */
  actions: readonly string[];
};

/** Native file tools (and their common aliases) never run from the composer: the text goes to the model. */
const FILE_TOOLS = new Set(["file", "read_file", "list_files", "search_files", "write_file", "edit_file"]);
const MCP_TOOL = /^mcp__[a-z0-9-]{1,32}__[^\s:]+$/;

const MESSAGE: ComposerRoute = { kind: "message" };

/** `shell`, `web_fetch` (the native tools that run from the composer) and MCP tools. */
function isDirectTool(name: string): boolean {
  return !FILE_TOOLS.has(name) && (nativeTool(name)?.directlyInvocable === true || MCP_TOOL.test(name));
}

export function routeComposerText(text: string, context: RouteContext): ComposerRoute {
  try {
    return route(text, context);
  } catch {
    return MESSAGE;
  }
}

function route(text: string, context: RouteContext): ComposerRoute {
  const head = /^@([^\s:@`]+)(:?)/.exec(text);
  if (!head) return MESSAGE;
  const name = head[1]!;
  const picker = head[2] === ":";
  const rest = text.slice(head[0].length);

  if (!picker && rest.trim() === "" && context.actions.includes(name)) return { kind: "action", action: name };
  if (!picker && context.agents.includes(name) && /^\s/.test(rest) && rest.trim() !== "")
    return { kind: "agent", agent: name, task: rest.trim() };
  if (!isDirectTool(name)) return MESSAGE;

  const args = picker ? parsePicker(rest) : parseArguments(rest, nativeTool(name)?.positional);
  return args ? { kind: "tool", tool: name, arguments: args } : MESSAGE;
}

/** `key=`value` key2=`v 2``: backticked values may hold spaces; nothing else may stand between pairs. */
export function parsePicker(text: string): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  const pair = /\s*([A-Za-z_][\w.-]*)=`([^`]*)`/y;
  let at = 0;
  let count = 0;
  while (at < text.length) {
    if (text.slice(at).trim() === "") break;
    pair.lastIndex = at;
    const match = pair.exec(text);
    if (!match) return undefined;
    Object.defineProperty(args, match[1]!, {
      value: coerce(match[2]!, false),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    at = pair.lastIndex;
    count++;
  }
  return count > 0 ? args : undefined;
}

/**
 * JSON object first; then `key=value` pairs; then, for a tool that has one, the whole text as its
 * positional argument (`shell`'s `cmd`, `web_fetch`'s `url`).
 */
export function parseArguments(text: string, positional?: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  if (trimmed.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {
      // not JSON: try the other forms
    }
  }
  const words = tokenize(trimmed);
  // Unbalanced quotes: the text cannot be read with certainty, so it goes to the model.
  if (!words) return undefined;
  const pairs = keyValues(words);
  if (pairs) return pairs;
  return positional ? { [positional]: trimmed } : undefined;
}

type Word = { text: string; quoted: boolean; raw: string };

/** Splits on spaces outside quotes; `"…"` and `'…'` keep spaces (`\"` and `\\` inside double quotes). */
function tokenize(text: string): Word[] | undefined {
  const words: Word[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    let value = "";
    let quoted = false;
    const start = i;
    while (i < text.length && !/\s/.test(text[i]!)) {
      const ch = text[i]!;
      if (ch === '"' || ch === "'") {
        quoted = true;
        const close = ch;
        i++;
        let closed = false;
        while (i < text.length) {
          const c = text[i]!;
          if (close === '"' && c === "\\" && i + 1 < text.length) {
            value += text[i + 1];
            i += 2;
            continue;
          }
          if (c === close) {
            closed = true;
            i++;
            break;
          }
          value += c;
          i++;
        }
        if (!closed) return undefined;
      } else {
        value += ch;
        i++;
      }
    }
    words.push({ text: value, quoted, raw: text.slice(start, i) });
  }
  return words;
}

/** Every word `key=value` (the value quoted or bare), or undefined. */
function keyValues(words: Word[]): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  for (const word of words) {
    const match = /^([A-Za-z_][\w.-]*)=/.exec(word.raw);
    if (!match) return undefined;
    const key = match[1]!;
    const valueRaw = word.raw.slice(match[0].length);
    const quoted = /^["']/.test(valueRaw);
    const value = word.text.slice(key.length + 1);
    Object.defineProperty(args, key, {
      value: coerce(value, quoted),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return words.length > 0 ? args : undefined;
}

/** Bare `true`, `false`, `null` and numbers become JSON values; quoted values stay strings. */
function coerce(value: string, quoted: boolean): unknown {
  if (quoted) return value;
  if (value === "true") return true;
  if (value === "false") return false;
  if (value === "null") return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value)) {
    const number = Number(value);
    if (Number.isFinite(number)) return number;
  }
  return value;
}

/** How a client writes a value so that `key=value` parsing gives it back exactly. */
export function quoteValue(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}
