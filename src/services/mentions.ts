// The @ popup's data: scanned and tagged files, agents, actions, native and MCP tools, the model.
import { NATIVE_TOOLS, type NativeTool } from "../core/native-tools";
import { fileCatalog, fileFolder, FileMentions, rankMentions } from "../core/mention-search";
import { isPlainObject } from "../core/settings-merge";
import type { MentionCategory, MentionItem, RankedMention } from "../shared/mentions";
import type { ChatsRepo } from "../store/chats-repo";
import type { ProjectRow } from "../store/projects-repo";
import type { RecentModelsRepo } from "../store/recent-models-repo";
import type { ProjectAgents } from "./project-agents";
import type { ProjectScanner } from "./project-scan";
import type { SettingsService } from "./settings-service";
import type { ToolCatalog } from "./tool-catalog";

export type MentionDeps = {
  scanner: ProjectScanner;
  settings: SettingsService;
  projectAgents: ProjectAgents;
  toolCatalog: ToolCatalog;
  chats: ChatsRepo;
  recentModels: RecentModelsRepo;
};

/** `@tool:firstArg=` and a pair of backticks for tools with known parameters (rule 17). */
function toolInsertText(name: string, parameters: unknown): string {
  const schema = parameters as NativeTool["parameters"] | undefined;
  const first = schema?.required?.[0] ?? Object.keys(schema?.properties ?? {})[0];
  return first ? `@${name}:${first}=\`\`` : `@${name}`;
}

function samePaths(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class Mentions {
  private readonly indexes = new Map<string, { scanAt: number; tagsKey: string; paths: readonly string[]; files: FileMentions }>();

  constructor(private readonly deps: MentionDeps) {}

  async tags(project: ProjectRow): Promise<{ path: string; tags: string[] }[]> {
    const layer = await this.deps.settings.readProjectLayer(project);
    const fileTags = isPlainObject(layer.value.fileTags) ? (layer.value.fileTags as Record<string, string[]>) : {};
    return Object.entries(fileTags).map(([path, tags]) => ({ path, tags }));
  }

  /** The file side of the catalog, indexed once per scan (and again only when tags change). */
  async files(project: ProjectRow): Promise<FileMentions> {
    const [scan, tags] = await Promise.all([this.deps.scanner.scan(project.id, project.dir), this.tags(project)]);
    const tagsKey = JSON.stringify(tags);
    const cached = this.indexes.get(project.id);
    if (cached && cached.tagsKey === tagsKey && (cached.scanAt === scan.at || samePaths(cached.paths, scan.paths))) {
      cached.scanAt = scan.at;
      return cached.files;
    }
    // Building the index costs about 2 s at a million paths: only when the files or tags changed.
    const files = new FileMentions(fileCatalog(tags, scan.paths));
    this.indexes.set(project.id, { scanAt: scan.at, tagsKey, paths: scan.paths, files });
    return files;
  }

  async others(project: ProjectRow, chatId?: string): Promise<MentionItem[]> {
    const [{ agents }, { actions }] = await Promise.all([this.deps.projectAgents.agents(project), this.deps.projectAgents.actions(project)]);
    const items: MentionItem[] = [
      ...agents.map((a) => ({ category: "agents" as const, label: a.name, detail: a.model ?? a.description, insertText: `@${a.name} `, searchText: a.description })),
      ...actions.map((a) => ({ category: "actions" as const, label: a.label, detail: a.description, insertText: `@${a.id}`, searchText: `${a.id} ${a.description}` })),
      ...NATIVE_TOOLS.map((t) => ({ category: "tools" as const, label: t.name, detail: t.description, insertText: toolInsertText(t.name, t.parameters), searchText: t.description, parameters: t.parameters })),
      ...this.deps.toolCatalog.mcpTools().map((t) => ({
        category: "mcp" as const,
        label: t.tool,
        detail: t.description ? `${t.serverId} · ${t.description}` : t.serverId,
        insertText: toolInsertText(t.id, t.parameters),
        searchText: `${t.serverId} ${t.description} ${t.id}`,
        parameters: t.parameters,
      })),
    ];
    const model = await this.currentModel(project, chatId);
    if (model) items.push({ category: "model", label: model, detail: "Current model", insertText: `@${model}` });
    return items;
  }

  async catalog(project: ProjectRow, chatId?: string) {
    const [files, others, tags] = await Promise.all([this.files(project), this.others(project, chatId), this.tags(project)]);
    const tagsOf = new Map(tags.map((t) => [t.path, t.tags]));
    const of = (category: MentionCategory) => others.filter((o) => o.category === category);
    return {
      files: files.files.map((f) => ({ path: f.path, name: f.path.slice(f.path.lastIndexOf("/") + 1), folder: fileFolder(f.path), ...(tagsOf.has(f.path) ? { tags: tagsOf.get(f.path) } : {}) })),
      agents: of("agents"),
      actions: of("actions"),
      tools: of("tools"),
      mcp: of("mcp"),
      model: of("model")[0]?.label ?? null,
    };
  }

  async search(project: ProjectRow, query: string, options: { category?: MentionCategory; limit?: number; chatId?: string }): Promise<RankedMention[]> {
    const [files, others] = await Promise.all([this.files(project), this.others(project, options.chatId)]);
    return rankMentions(files, others, query, options);
  }

  private async currentModel(project: ProjectRow, chatId?: string): Promise<string | undefined> {
    const chat = chatId ? this.deps.chats.byId(chatId) : undefined;
    if (chat?.modelId && chat.projectId === project.id) return chat.modelId;
    const settings = await this.deps.settings.resolvedUnredacted(project);
    if (typeof settings.defaultModel === "string") return settings.defaultModel;
    return this.deps.recentModels.list(1)[0]?.modelId;
  }
}
