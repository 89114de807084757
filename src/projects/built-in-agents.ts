// The agents Parley brings (issue 37, item 11): listed by GET /api/agents with `builtIn: true` and
// chosen like a project's agent, never written to `.app.json`. Their names are reserved: a project's
// own agent of the same name is not listed nor used (and the Agents page refuses to create one).
import { PLAN_AGENT_NAME } from "../shared/plan-mode";
import { READ_ONLY_FILE } from "../tools/native-tools";

export type BuiltInAgent = {
  name: string;
  description: string;
  /**
   * Its whole tool set. A turn offers these, under the chat's allowlist and the project's gates, and
   * refuses any other call: the chat's prompt preset cannot add to them.
   */
  tools: readonly string[];
  /** What it is told, after the chat's own prompt. */
  instructions: string;
};

/** Plan mode: reads the code (`file` reading only), asks, keeps a task list, answers with a plan. */
export const PLAN_AGENT: BuiltInAgent = {
  name: PLAN_AGENT_NAME,
  description: "Reads the code, asks what it needs, then answers with a numbered plan; changes nothing",
  tools: [READ_ONLY_FILE, "ask_user", "task"],
  instructions: [
    "You are in Plan mode: work out how to do what the user asks, without doing it.",
    "1. Read first. Use the file tool (read, list, search) to look at the code that matters. You cannot " +
      "change files or run commands here; do not claim you did.",
    "2. Ask. When something is unclear, or a choice is the user's to make, ask with ask_user before planning.",
    "3. Answer with a numbered plan: each step names the files to change and what to change in them, in " +
      "the order to do it, then how to check the result (the tests to run or add). Be concrete and short; " +
      "show code only where a step needs it.",
    'The user reviews the plan and may choose "Implement this plan", which hands it to an agent that can ' +
      "edit files and run commands.",
  ].join("\n"),
};

export const BUILT_IN_AGENTS: readonly BuiltInAgent[] = [PLAN_AGENT];

export const BUILT_IN_AGENT_NAMES: ReadonlySet<string> = new Set(BUILT_IN_AGENTS.map((agent) => agent.name));

/** The built-in agent a chat's `agent` (or a project's `defaultAgent`) names, if it names one. */
export function builtInAgent(name: string | null | undefined): BuiltInAgent | undefined {
  return name ? BUILT_IN_AGENTS.find((agent) => agent.name === name) : undefined;
}

/**
 * Whether a project's agent may not be created with this name: a built-in's, in any letter case, so
 * the agent picker never offers "Plan" beside a "plan" that means something else.
 */
export function isReservedAgentName(name: string): boolean {
  const lower = name.toLowerCase();
  return BUILT_IN_AGENTS.some((agent) => agent.name.toLowerCase() === lower);
}
