// What a turn sends besides the transcript. The prompt: the chat's `promptId`, else the selected
// agent's prompt (a prompt that no longer exists is ignored). Its preset builds the effective chat,
// the project gate has the last word, and agent files and skills are injected when it allows. A
// built-in agent (Plan) adds its instructions and narrows the tools to its own set; a plan the chat
// implements is sent last, pinned.
import type { OfferableMcpTool } from "../tools/offered-tools";
import { effectiveChat } from "./effective-chat";
import { grantedToolName, NATIVE_TOOLS } from "../tools/native-tools";
import { builtInAgent } from "../projects/built-in-agents";
import { pinnedPlanText } from "./plan/plan-pins";
import type { Chat } from "../shared/chats";
import type { UpstreamMessage } from "../gateway/chat-completions";
import type { TurnContext, TurnContextProvider } from "./chat-turn";
import { agentFilesMessage, readAgentFiles, scanSkills, skillsMessage } from "../prompts/instruction-files";
import type { ProjectSnapshot } from "../projects/project-snapshot";
import type { PromptService } from "../prompts/prompt-service";
import type { ContextLayer } from "./context/context-layers";
import { currentEnvironment, environmentText } from "./context/environment";

export class PromptTurnContext implements TurnContextProvider {
  constructor(
    private readonly prompts: PromptService,
    /** The MCP tools the project's servers offer (none without a manager). */
    private readonly mcpTools: (snapshot: ProjectSnapshot) => OfferableMcpTool[] = () => [],
    /**
     * The text of the plan the chat implements (pinned by "Implement this plan"), if any, for a turn
     * whose rows go under `under` (the chat's leaf when undefined; see TurnContextProvider.build).
     */
    private readonly pinnedPlan: (chat: Chat, under?: string | null) => string | undefined = () => undefined,
  ) {}

  /** `dir`: the chat's working folder when it is not the project's (a worktree chat's). */
  async build(
    chat: Chat,
    snapshot: ProjectSnapshot,
    dir = snapshot.project.dir,
    under?: string | null,
  ): Promise<TurnContext> {
    const { settings } = snapshot;
    const mcpTools = this.mcpTools(snapshot);
    // Every tool the project offers: native tools and the MCP tools of its servers.
    const projectTools = [...NATIVE_TOOLS.map((t) => t.name), ...mcpTools.map((t) => t.id)];
    const agentName = chat.agent ?? settings.defaultAgent;
    // A built-in agent's name is reserved: a project's agent of that name is not the one that runs.
    const builtIn = builtInAgent(agentName);
    const agent = agentName && !builtIn ? snapshot.agents.agents.find((a) => a.name === agentName) : undefined;
    const promptId = chat.promptId ?? agent?.promptId;
    const prompt = promptId ? this.prompts.resolve(snapshot, promptId) : undefined;

    const effective = effectiveChat(
      { tools: chat.tools, agentFiles: chat.agentFiles, skills: chat.skills },
      prompt?.preset ?? null,
      {
        gates: snapshot.gates,
        agentFiles: settings.agentFiles !== false,
        skills: settings.skills !== false,
      },
      projectTools,
    );
    // A built-in agent gets its own tools and nothing more: the chat's allowlist and the gates may
    // still take some away, a preset never adds one (Plan never writes, whatever the prompt says).
    const tools = builtIn
      ? builtIn.tools.filter((name) => effective.tools.includes(grantedToolName(name)))
      : effective.tools;

    const systemMessages: UpstreamMessage[] = [];
    const systemLayers: ContextLayer[] = [];
    const push = (content: string, layer: ContextLayer) => {
      systemMessages.push({ role: "system", content });
      systemLayers.push(layer);
    };
    const agentFileNames = settings.agentFileNames ?? ["AGENTS.md"];
    const [agentFiles, skills] = await Promise.all([
      effective.agentFiles ? readAgentFiles(dir, agentFileNames) : [],
      effective.skills ? scanSkills(dir) : [],
    ]);
    const environment = settings.chat?.environment === false ? undefined : currentEnvironment(dir);
    // The prompt stays first; the environment follows it (contract 7.3).
    if (prompt) push(prompt.content, "system");
    if (builtIn) push(builtIn.instructions, "system");
    if (environment) push(environmentText(environment), "system");
    if (agentFiles.length > 0) push(agentFilesMessage(agentFiles), "instructions");
    if (skills.length > 0) push(skillsMessage(skills), "instructions");
    // Pinned: compaction never touches the instructions layer, so the plan outlives any summary.
    const plan = this.pinnedPlan(chat, under);
    if (plan) push(pinnedPlanText(plan), "instructions");

    return {
      systemMessages,
      systemLayers,
      tools,
      mcpTools,
      receipt: {
        prompt: prompt ? { id: prompt.id, scope: prompt.scope, title: prompt.title } : null,
        agent: builtIn?.name ?? agent?.name ?? null,
        tools,
        agentFiles: agentFiles.map((f) => f.path),
        skills: skills.map((s) => s.name),
      },
    };
  }
}
