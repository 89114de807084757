// The @ popup's data: scanned and tagged files, agents, actions, native and MCP tools, MCP resources
// and prompts, the model.
import { NATIVE_TOOLS } from "../tools/native-tools";
import { rankOthers } from "../shared/ranking/rank-mentions";
import type { MentionCategory, MentionItem, RankedMention } from "../shared/mentions";
import type { ChatsRepo } from "../chat/chats-repo";
import type { RecentModelsRepo } from "../chat/recent-models-repo";
import type { MentionEngine } from "./mention-engine";
import type { HeldBody } from "./mention-worker";
import type { ProjectSnapshot } from "../projects/project-snapshot";
import type { McpOffer, McpToolEntry } from "../tools/mcp/manager";
import { mcpRows, toolInsertText } from "./mcp-rows";

export type MentionDeps = {
  /** The worker that scans, watches, indexes and ranks files (never on the main thread). */
  engine: MentionEngine;
  /** The MCP tools of the project's servers. */
  mcpTools: (snapshot: ProjectSnapshot) => McpToolEntry[];
  /** The resources and prompts the project's ready MCP servers hold. */
  mcpOffers: (snapshot: ProjectSnapshot) => McpOffer[];
  chats: ChatsRepo;
  recentModels: RecentModelsRepo;
  /**
   * The folder a chat's tools work in when it is not the project's (a worktree chat's), else
   * undefined: the popup then lists the files the chat's agent sees and may reference.
   */
  chatFolder?: (chatId: string) => string | undefined;
};

/** The worker's key for a worktree chat's folder, beside the projects' own. */
function chatFolderKey(chatId: string): string {
  return `worktree:${chatId}`;
}

export type MentionSearchOptions = {
  category?: MentionCategory;
  limit?: number;
  chatId?: string;
  /** Per-client narrowing state, and a newer keystroke of the same client supersedes this one. */
  clientId?: string;
  /** The client's count of its keystrokes: newer means larger, whatever order the requests arrive in. */
  seq?: number;
  /** Aborted (the client went away): the worker skips the search if it has not started. */
  signal?: AbortSignal;
};

export class Mentions {
  constructor(private readonly deps: MentionDeps) {}

  /** Stops watching a chat's worktree and forgets its files (the chat or its worktree is gone); else nothing. */
  forgetChatFolder(chatId: string): void {
    this.deps.engine.forget([chatFolderKey(chatId)]);
  }

  /** Where the popup's files come from: the project's folder, or the chat's worktree (a chat of this project). */
  private filesOf(snapshot: ProjectSnapshot, chatId?: string): { projectId: string; dir: string } {
    const { project } = snapshot;
    const chat = chatId ? this.deps.chats.byId(chatId) : undefined;
    if (chat?.worktreeBranch && chat.projectId === project.id) {
      const folder = this.deps.chatFolder?.(chat.id);
      if (folder) return { projectId: chatFolderKey(chat.id), dir: folder };
    }
    return { projectId: project.id, dir: project.dir };
  }

  /** The body of `POST /api/projects/:id/tags/scan`, serialised by the worker and read from it a part at a time. */
  async scanBody(project: { id: string; dir: string }): Promise<AsyncGenerator<Buffer>> {
    return this.deps.engine.readBody(
      await this.deps.engine.request<HeldBody>({ op: "scan", projectId: project.id, dir: project.dir }),
    );
  }

  others(snapshot: ProjectSnapshot, chatId?: string): MentionItem[] {
    const { agents } = snapshot.agents;
    const { actions } = snapshot.actions;
    const items: MentionItem[] = [
      ...agents.map((a) => ({
        category: "agents" as const,
        label: a.name,
        detail: a.model ?? a.description,
        insertText: `@${a.name} `,
        searchText: a.description,
      })),
      ...actions.map((a) => ({
        category: "actions" as const,
        label: a.label,
        detail: a.description,
        insertText: `@${a.id}`,
        searchText: `${a.id} ${a.description}`,
      })),
      ...NATIVE_TOOLS.map((t) => ({
        category: "tools" as const,
        label: t.name,
        detail: t.description,
        insertText: toolInsertText(t.name, t.parameters),
        searchText: t.description,
        parameters: t.parameters,
      })),
      ...mcpRows(this.deps.mcpTools(snapshot), this.deps.mcpOffers(snapshot)),
    ];
    const model = this.currentModel(snapshot, chatId);
    if (model) items.push({ category: "model", label: model, detail: "Current model", insertText: `@${model}` });
    return items;
  }

  /** The catalog as three parts to write in order: the file list (often most of it) comes from the worker as bytes. */
  async catalogBody(snapshot: ProjectSnapshot, chatId?: string): Promise<AsyncGenerator<Buffer | string>> {
    const { fileTags } = snapshot;
    const others = this.others(snapshot, chatId);
    const of = (category: MentionCategory) => others.filter((o) => o.category === category);
    const rest = JSON.stringify({
      agents: of("agents"),
      actions: of("actions"),
      tools: of("tools"),
      mcp: of("mcp"),
      model: of("model")[0]?.label ?? null,
    });
    const engine = this.deps.engine;
    const held = await engine.request<HeldBody>({ op: "catalog", ...this.filesOf(snapshot, chatId), tags: fileTags });
    return (async function* () {
      let reading = false;
      try {
        yield '{"files":';
        reading = true;
        yield* engine.readBody(held);
        yield `,${rest.slice(1)}`;
      } finally {
        // Stopped before the file list was read (the client went away at once): readBody, never
        // started, cannot let go of it, so the worker would hold it until it idled out.
        if (!reading) engine.releaseBody(held);
      }
    })();
  }

  async catalog(snapshot: ProjectSnapshot, chatId?: string) {
    const parts: Buffer[] = [];
    for await (const part of await this.catalogBody(snapshot, chatId)) parts.push(Buffer.from(part));
    return JSON.parse(Buffer.concat(parts).toString()) as {
      files: { path: string; name: string; folder: string; tags?: string[] }[];
      agents: MentionItem[];
      actions: MentionItem[];
      tools: MentionItem[];
      mcp: MentionItem[];
      model: string | null;
    };
  }

  async search(snapshot: ProjectSnapshot, query: string, options: MentionSearchOptions): Promise<RankedMention[]> {
    const { category, limit, chatId, clientId, seq, signal } = options;
    const { fileTags } = snapshot;
    const files =
      category === undefined || category === "files"
        ? await this.deps.engine.request<RankedMention[]>(
            {
              op: "search",
              ...this.filesOf(snapshot, chatId),
              tags: fileTags,
              query,
              category,
              limit,
              clientId,
              seq,
            },
            signal,
          )
        : [];
    return [...files, ...rankOthers(this.others(snapshot, chatId), query, { category, limit })].slice(
      0,
      limit ?? Infinity,
    );
  }

  private currentModel(snapshot: ProjectSnapshot, chatId?: string): string | undefined {
    const chat = chatId ? this.deps.chats.byId(chatId) : undefined;
    if (chat?.modelId && chat.projectId === snapshot.project.id) return chat.modelId;
    return snapshot.settings.defaultModel ?? this.deps.recentModels.list(1)[0]?.modelId;
  }
}
