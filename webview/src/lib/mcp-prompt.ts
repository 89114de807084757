// An MCP prompt picked in the @ popup: the arguments its form asks for (required ones first to be
// checked), the body the server takes, and where its text goes in the composer (in place of the `@`
// token that picked it, the rest of the draft kept).
import type { MentionMcp } from "$shared/mentions";
import type { TextEdit } from "./mention-insert";
import type { MentionToken } from "./mention-token";

export type PromptArgument = { name: string; description?: string; required?: boolean };

/** A prompt picked from the popup: what to ask the server for, and the token it came from. */
export type PromptPick = {
  serverId: string;
  name: string;
  /** The row's label, the form's title (`everything › Arguments Prompt`). */
  label: string;
  arguments: PromptArgument[];
  /** Where the `@` token stood and what it said, so the prompt's text takes its place. */
  token: { start: number; end: number; text: string };
};

export function promptPick(
  mcp: Extract<MentionMcp, { kind: "prompt" }>,
  label: string,
  text: string,
  token: Pick<MentionToken, "start" | "end">,
): PromptPick {
  return {
    serverId: mcp.serverId,
    name: mcp.name,
    label,
    arguments: mcp.arguments ?? [],
    token: { start: token.start, end: token.end, text: text.slice(token.start, token.end) },
  };
}

/**
 * The arguments to send: each value trimmed, empty optional ones left out; or the required ones
 * still empty, in the prompt's order.
 */
export function promptArguments(
  args: readonly PromptArgument[],
  values: Readonly<Record<string, string>>,
): { arguments: Record<string, string> } | { missing: string[] } {
  const missing = args.filter((a) => a.required && !(values[a.name] ?? "").trim()).map((a) => a.name);
  if (missing.length > 0) return { missing };
  const out: Record<string, string> = {};
  for (const a of args) {
    const value = (values[a.name] ?? "").trim();
    if (value) out[a.name] = value;
  }
  return { arguments: out };
}

/** "Fill in city." / "Fill in city and state." / "Fill in a, b and c." */
export function missingMessage(missing: readonly string[]): string {
  const list = missing.length <= 1 ? (missing[0] ?? "") : `${missing.slice(0, -1).join(", ")} and ${missing.at(-1)}`;
  return `Fill in ${list}.`;
}

/**
 * The composer with the prompt's text in place of the `@` token that picked it. If the draft changed
 * there meanwhile, the text goes at the end instead. The caret ends after the text.
 */
export function withPromptText(draft: string, token: PromptPick["token"], promptText: string): TextEdit {
  const text = promptText.trim();
  if (draft.slice(token.start, token.end) !== token.text) {
    const base = draft.replace(/\s+$/, "");
    const next = base ? `${base} ${text}` : text;
    return { text: next, caret: next.length };
  }
  const before = draft.slice(0, token.start);
  const after = draft.slice(token.end);
  const gap = after === "" || /^\s/.test(after) ? "" : " ";
  return { text: before + text + gap + after, caret: before.length + text.length };
}
