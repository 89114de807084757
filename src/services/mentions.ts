// The @ popup's data: scanned and tagged files, agents, actions, native and MCP tools, the model.
import { NATIVE_TOOLS, type ToolParameters } from "../tools/native-tools";
import { fileCatalog, fileFolder, FileMentions, rankMentions } from "../core/mention-search";
import type { MentionCategory, MentionItem, RankedMention } from "../shared/mentions";
import type { ChatsRepo } from "../store/chats-repo";
import type { RecentModelsRepo } from "../store/recent-models-repo";
import type { ProjectScanner } from "./project-scan";
import type { ProjectSnapshot } from "./project-snapshot";
import type { McpToolEntry } from "../tools/mcp/manager";

export type MentionDeps = {
  scanner: ProjectScanner;
  /** The MCP tools of the project's servers. */
  mcpTools: (snapshot: ProjectSnapshot) => McpToolEntry[];
  chats: ChatsRepo;
  recentModels: RecentModelsRepo;
};

/** `@tool:firstArg=` and a pair of backticks for tools with known parameters (rule 17). */
function toolInsertText(name: string, parameters: unknown): string {
  const schema = parameters as ToolParameters | undefined;
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

  /** The file side of the catalog, indexed once per scan (and again only when tags change). */
  async files(snapshot: ProjectSnapshot): Promise<FileMentions> {
    const { project, fileTags: tags } = snapshot;
    const scan = await this.deps.scanner.scan(project.id, project.dir);
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

  others(snapshot: ProjectSnapshot, chatId?: string): MentionItem[] {
    const { agents } = snapshot.agents;
    const { actions } = snapshot.actions;
    const items: MentionItem[] = [
      ...agents.map((a) => ({ category: "agents" as const, label: a.name, detail: a.model ?? a.description, insertText: `@${a.name} `, searchText: a.description })),
      ...actions.map((a) => ({ category: "actions" as const, label: a.label, detail: a.description, insertText: `@${a.id}`, searchText: `${a.id} ${a.description}` })),
      ...NATIVE_TOOLS.map((t) => ({ category: "tools" as const, label: t.name, detail: t.description, insertText: toolInsertText(t.name, t.parameters), searchText: t.description, parameters: t.parameters })),
      ...this.deps.mcpTools(snapshot).map((t) => ({
        category: "mcp" as const,
        label: t.tool,
        detail: t.description ? `${t.serverId} · ${t.description}` : t.serverId,
        insertText: toolInsertText(t.id, t.parameters),
        searchText: `${t.serverId} ${t.description} ${t.id}`,
        parameters: t.parameters,
      })),
    ];
    const model = this.currentModel(snapshot, chatId);
    if (model) items.push({ category: "model", label: model, detail: "Current model", insertText: `@${model}` });
    return items;
  }

  async catalog(snapshot: ProjectSnapshot, chatId?: string) {
    const files = await this.files(snapshot);
    const others = this.others(snapshot, chatId);
    const tagsOf = new Map(snapshot.fileTags.map((t) => [t.path, t.tags]));
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

  async search(snapshot: ProjectSnapshot, query: string, options: { category?: MentionCategory; limit?: number; chatId?: string }): Promise<RankedMention[]> {
    return rankMentions(await this.files(snapshot), this.others(snapshot, options.chatId), query, options);
  }

  private currentModel(snapshot: ProjectSnapshot, chatId?: string): string | undefined {
    const chat = chatId ? this.deps.chats.byId(chatId) : undefined;
    if (chat?.modelId && chat.projectId === snapshot.project.id) return chat.modelId;
    return snapshot.settings.defaultModel ?? this.deps.recentModels.list(1)[0]?.modelId;
  }
}
