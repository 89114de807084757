// Why a call asks even when its tool is allowed (contract 7.5), in words for the approval: the turn
// read untrusted input (an MCP tool's output, a web page), or the call writes a file that something
// runs later. Pure.
import type { ApprovalReason, ProtectedPathRule } from "$shared/approval-reasons";
import { mcpToolParts, toolTitle, type ServerNames } from "./tool-titles";

/** What runs the file, after "which …". */
const RUNS: Record<Exclude<ProtectedPathRule, "package_scripts">, string> = {
  editor: "VS Code uses to run tasks and apply settings",
  ci: "GitHub runs with the repository's secrets",
  git_hooks: "runs as a git hook on commit or push",
  shell_startup: "a shell runs when it starts",
  package_manager: "decides what npm or yarn runs",
};

function protectedWords(file: string, rule: ProtectedPathRule): string {
  if (rule === "package_scripts") return `Asks because it changes ${file} scripts, which run on npm install/test.`;
  const runs = rule === "shell_startup" && /(^|\/)\.envrc$/i.test(file) ? "direnv runs in its folder" : RUNS[rule];
  return `Asks because it changes ${file}, which ${runs}.`;
}

/** One reason as a sentence: "Asks because this turn read the output of calc › sum (an MCP tool)." */
export function approvalReasonText(reason: ApprovalReason, names?: ServerNames): string {
  if (reason.kind === "protected_path") return protectedWords(reason.path, reason.rule);
  const { tool } = reason.source;
  const what = mcpToolParts(tool) ? "an MCP tool" : tool === "web_fetch" ? "a web page" : "outside Parley";
  return `Asks because this turn read the output of ${toolTitle(tool, names)} (${what}).`;
}

/** Every reason of an approval, as sentences (none when only the gate asks). */
export function approvalReasonTexts(reasons: readonly ApprovalReason[] | undefined, names?: ServerNames): string[] {
  return (reasons ?? []).map((reason) => approvalReasonText(reason, names));
}
