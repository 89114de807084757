// Why a call asks even under an `allow` gate (contract 7.5), as the `tool.approval` event carries it:
// the turn read untrusted input (an MCP tool's or web_fetch's output) before this state-changing call,
// or the call writes a protected path. Words are the UI's business; this is the shape.
import { z } from "zod";

/**
 * What a protected write touches: `editor` (.vscode/: tasks and settings VS Code runs), `ci` (GitHub
 * workflows, run with the repository's secrets), `git_hooks` (.husky/), `shell_startup` (shell rc
 * files, direnv's .envrc), `package_manager` (.npmrc, .yarnrc: what npm and yarn run, and how) and
 * `package_scripts` (a package.json whose `scripts` change).
 */
export const PROTECTED_PATH_RULES = [
  "editor",
  "ci",
  "git_hooks",
  "shell_startup",
  "package_manager",
  "package_scripts",
] as const;
export type ProtectedPathRule = (typeof PROTECTED_PATH_RULES)[number];

export const approvalReasonSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("untrusted_input"),
    /** The call whose output the turn read first: an MCP tool (`mcp__<server>__<tool>`) or `web_fetch`. */
    source: z.object({ tool: z.string(), callId: z.string() }),
  }),
  z.object({
    kind: z.literal("protected_path"),
    /** Project-relative, as resolved (symlinks followed). */
    path: z.string(),
    rule: z.enum(PROTECTED_PATH_RULES),
  }),
]);
export type ApprovalReason = z.infer<typeof approvalReasonSchema>;
