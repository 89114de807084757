// One tool call, start to end (contract 6.1 to 6.3): `tool.call`, the checks (in the turn's tool set,
// not `off`, known, arguments valid), the gate (`ask`: `tool.approval` and wait), the run, and
// `tool.result`. Whatever goes wrong becomes a failed result the model can read; nothing here throws.
import type { z } from "zod";
import type { StreamEvent } from "../shared/stream-events";
import type { ToolGate } from "../shared/settings";
import { planWrite, runFileTool, type FileArgs, type PlannedWrite, type WriteRecorder } from "./file-tool";
import { needsApproval, toolGate } from "./gate";
import type { PendingInteractions } from "./interactions";
import {
  askUserArgsSchema,
  fileArgsSchema,
  fileIsReadOnly,
  grantedTool,
  nativeTool,
  READ_ONLY_FILE,
  reportProgressArgsSchema,
  shellArgsSchema,
  subagentArgsSchema,
  taskArgsSchema,
  webFetchArgsSchema,
} from "./native-tools";
import type { Usage } from "../shared/usage";
import type { ApprovalReason } from "../shared/approval-reasons";
import { changesState, type UntrustedInput } from "./untrusted-input";
import { protectedWrite } from "./protected-paths";

/** A subagent's answer: failed or not on its own terms, with its usage for the calling turn. */
class SubagentResult {
  constructor(
    readonly ok: boolean,
    readonly output: string,
    readonly usage?: Usage,
  ) {}
}
import { runShell, type ShellSandbox } from "./shell";
import { unifiedDiff } from "./unified-diff";
import { ToolError } from "./tool-error";
import { TOOL_SEARCH, toolSearchArgsSchema } from "./tool-search";
import { webFetch } from "./web-fetch/web-fetch";
import type { WebFetchSettings } from "../shared/web-fetch";

export type ToolCallRequest = { id: string; name: string; arguments: string };
/** `usage`: what a subagent's own steps cost, counted in the calling turn. */
export type ToolOutcome = { ok: boolean; output: unknown; arguments: unknown; diff?: string; usage?: Usage };

/** A subagent run for a `subagent` call: its final text, and its usage. */
export type SubagentRunner = (
  args: { agent: string; task: string },
  callId: string,
  signal: AbortSignal,
) => Promise<{ ok: boolean; output: string; usage?: Usage }>;

export type ToolRunContext = {
  chatId: string;
  /** The project's real path. */
  root: string;
  signal: AbortSignal;
  /** The turn's effective tool set (allowlist, preset, gates); anything else is refused. */
  tools: ReadonlySet<string>;
  gates: Record<string, ToolGate>;
  emit: (event: StreamEvent) => void;
  interactions: PendingInteractions;
  recordWrite: WriteRecorder;
  /** `remember` on an approval: the project's gate for the tool becomes `allow`. */
  rememberAllow: (name: string) => Promise<void>;
  logError: (line: string) => void;
  /** Runs an MCP tool (`mcp__<server>__<tool>`): validated against its schema, bounded by timeout and cancel. */
  mcpCall?: (name: string, args: unknown, signal: AbortSignal) => Promise<{ ok: boolean; output: string }>;
  /** Runs a `subagent` call; absent inside a subagent (no nesting) and where subagents cannot run. */
  runSubagent?: SubagentRunner;
  /** Checks an MCP tool's arguments against its schema (the reasons, or undefined when they fit). */
  mcpValidate?: (name: string, args: unknown) => string[] | undefined;
  /** Set for the calls a subagent makes. */
  parentCallId?: string;
  /** What the turn has read from outside (shared with its subagents): later state changes ask (contract 7.5). */
  untrusted: UntrustedInput;
  /** Runs `tool_search` when the turn's MCP tools are held back by the tool budget (contract 7.3). */
  toolSearch?: (args: z.infer<typeof toolSearchArgsSchema>) => unknown;
  /** Wraps `shell` commands in the project's sandbox (contract 7.5); absent, they run unconfined. */
  sandbox?: ShellSandbox;
  /** The app's `webFetch` setting: which private addresses `web_fetch` may reach (none when absent). */
  webFetch?: WebFetchSettings;
};

export const DENIED_OUTPUT = "The user denied this call.";

function parseArguments(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ToolError("the arguments are not valid JSON");
  }
}

function validate<S extends z.ZodType>(schema: S, args: unknown, name: string): z.infer<S> {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const reasons = parsed.error.issues
    .map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`)
    .join("; ");
  throw new ToolError(`the arguments do not fit ${name}'s schema: ${reasons}`);
}

export async function runToolCall(call: ToolCallRequest, ctx: ToolRunContext): Promise<ToolOutcome> {
  const parent = ctx.parentCallId ? { parentCallId: ctx.parentCallId } : {};
  let args: unknown = call.arguments;
  let outcome: { ok: boolean; output: unknown; usage?: Usage };
  // The call's writes, as a diff for the file change card.
  const diffs: string[] = [];
  const record = ctx.recordWrite;
  ctx = {
    ...ctx,
    recordWrite: async (relPath, before, after) => {
      await record(relPath, before, after);
      diffs.push(unifiedDiff(relPath, before, after));
    },
  };
  try {
    args = parseArguments(call.arguments);
  } catch {
    // Shown as sent; the failure is reported below.
  }
  ctx.emit({ event: "tool.call", data: { callId: call.id, name: call.name, arguments: args, ...parent } });
  try {
    const ran = await checkAndRun(call, ctx, parent);
    outcome =
      ran instanceof SubagentResult
        ? { ok: ran.ok, output: ran.output, ...(ran.usage ? { usage: ran.usage } : {}) }
        : { ok: true, output: ran };
  } catch (error) {
    if (error instanceof ToolError) outcome = { ok: false, output: error.message };
    else {
      ctx.logError(`tool ${call.name} failed unexpectedly: ${(error as Error).stack ?? String(error)}`);
      outcome = { ok: false, output: `the tool failed: ${(error as Error).message}` };
    }
  }
  const diff = outcome.ok && diffs.length > 0 ? diffs.join("") : undefined;
  ctx.emit({
    event: "tool.result",
    data: {
      callId: call.id,
      name: call.name,
      ok: outcome.ok,
      output: outcome.output,
      ...(diff ? { diff } : {}),
      ...parent,
    },
  });
  return { ...outcome, arguments: args, ...(diff ? { diff } : {}) };
}

async function checkAndRun(
  call: ToolCallRequest,
  ctx: ToolRunContext,
  parent: { parentCallId?: string },
): Promise<unknown> {
  // It reads only the tools' own descriptions: no gate, nothing to approve.
  if (call.name === TOOL_SEARCH && ctx.toolSearch)
    return ctx.toolSearch(validate(toolSearchArgsSchema, parseArguments(call.arguments), call.name));
  // `file:read` grants `file` for reading only (Plan mode): its schema knows no writing action.
  const readOnly = call.name === "file" && fileIsReadOnly(ctx.tools);
  const tool = readOnly ? grantedTool(READ_ONLY_FILE) : nativeTool(call.name);
  const gate = toolGate(call.name, ctx.gates);
  const granted = ctx.tools.has(call.name) || readOnly;
  if (!granted || gate === "off" || (call.name === "subagent" && !ctx.runSubagent)) {
    throw new ToolError(`the tool "${call.name}" is not available in this chat`);
  }
  const isMcp = !tool && call.name.startsWith("mcp__") && ctx.mcpCall !== undefined;
  if (!tool && !isMcp) throw new ToolError(`unknown tool "${call.name}"`);
  if (readOnly) refuseWrites(parseArguments(call.arguments));
  // MCP arguments are checked against the server's JSON Schema by the manager, before the call.
  const args = tool ? validate(tool.args, parseArguments(call.arguments), call.name) : parseArguments(call.arguments);
  // MCP arguments are checked first too (contract 6.4): an invalid call is never put to the user.
  const problems = isMcp ? ctx.mcpValidate?.(call.name, args) : undefined;
  if (problems) throw new ToolError(`the arguments do not fit ${call.name}'s schema: ${problems.join("; ")}`);
  if (ctx.signal.aborted) throw new ToolError("the turn was cancelled");
  // A write is worked out before anyone is asked: its refusals never reach the user, and what a
  // protected path's approval shows is what gets written.
  const planned =
    call.name === "file" && changesState(call.name, args) ? await planWrite(args as FileArgs, ctx.root) : undefined;
  // Reasons to ask whatever the gate says (contract 7.5). "Always allow" on such a call sets the gate
  // for later turns; these reasons still ask, in this turn and any other that meets them.
  const reasons = [ctx.untrusted.reasonFor(call.name, args), planned && protectedWrite(planned)].filter(
    (reason): reason is ApprovalReason => reason !== undefined,
  );
  if (needsApproval(call.name, gate, args) || reasons.length > 0) {
    ctx.emit({
      event: "tool.approval",
      data: {
        callId: call.id,
        name: call.name,
        arguments: args,
        ...parent,
        ...(reasons.length > 0 ? { reasons } : {}),
      },
    });
    const approval = await ctx.interactions.waitForApproval(ctx.chatId, call.id, ctx.signal, {
      kind: "approval",
      callId: call.id,
      name: call.name,
      arguments: args,
      ...(reasons.length > 0 ? { reasons } : {}),
    });
    if (approval.decision === "deny") throw new ToolError(DENIED_OUTPUT);
    if (approval.remember) await ctx.rememberAllow(call.name);
  }
  try {
    return await execute(call, args, ctx, parent, planned);
  } finally {
    // Its output, or its error in the server's words, reaches the model: from here on the turn is steered by it.
    ctx.untrusted.read(call.name, call.id);
  }
}

/** A write through `file:read` is refused in words, before its arguments are checked. */
function refuseWrites(args: unknown): void {
  const action = (args as { action?: unknown } | null)?.action;
  if (action === "write" || action === "edit")
    throw new ToolError(
      `the file tool only reads in this chat (read, list, search): "${action}" is not allowed, nothing was changed`,
    );
}

async function execute(
  call: ToolCallRequest,
  args: unknown,
  ctx: ToolRunContext,
  parent: { parentCallId?: string },
  planned?: PlannedWrite,
): Promise<unknown> {
  if (call.name.startsWith("mcp__") && ctx.mcpCall) {
    const result = await ctx.mcpCall(call.name, args, ctx.signal);
    if (!result.ok) throw new ToolError(result.output || "the MCP tool reported an error");
    return result.output;
  }
  switch (call.name) {
    case "shell":
      return runShell(args as z.infer<typeof shellArgsSchema>, {
        root: ctx.root,
        signal: ctx.signal,
        ...(ctx.sandbox ? { sandbox: ctx.sandbox } : {}),
      });
    case "file":
      return runFileTool(args as z.infer<typeof fileArgsSchema>, {
        root: ctx.root,
        recordWrite: ctx.recordWrite,
        readOnly: fileIsReadOnly(ctx.tools),
        ...(planned ? { planned } : {}),
      });
    case "report_progress":
      ctx.emit({ event: "progress", data: { message: (args as z.infer<typeof reportProgressArgsSchema>).message } });
      return "ok";
    case "task":
      ctx.emit({ event: "task.update", data: { items: (args as z.infer<typeof taskArgsSchema>).items } });
      return "ok";
    case "subagent": {
      const result = await ctx.runSubagent!(args as z.infer<typeof subagentArgsSchema>, call.id, ctx.signal);
      return new SubagentResult(result.ok, result.output, result.usage);
    }
    case "web_fetch":
      return webFetch(args as z.infer<typeof webFetchArgsSchema>, {
        signal: ctx.signal,
        ...(ctx.webFetch ? { settings: ctx.webFetch } : {}),
      });
    case "ask_user": {
      const { question, choices } = args as z.infer<typeof askUserArgsSchema>;
      ctx.emit({
        event: "tool.question",
        data: { callId: call.id, question, ...(choices ? { choices } : {}), ...parent },
      });
      return ctx.interactions.waitForAnswer(ctx.chatId, call.id, ctx.signal, {
        kind: "question",
        callId: call.id,
        question,
        ...(choices ? { choices } : {}),
      });
    }
    default:
      throw new ToolError(`the tool "${call.name}" cannot run here`);
  }
}
