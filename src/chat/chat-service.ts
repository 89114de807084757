// Chats: create, read with transcript and usage totals, change, delete. The rules of a chat's prompt
// live here, so the HTTP route and the VS Code commands hit the same ones.
import { invalid, notFound } from "../platform/app-error";
import { plainTitle } from "./chat-title";
import type { Chat, CreateChatBody, Message, PageQuery, PatchChatBody } from "../shared/chats";
import type { UsageTotals } from "../shared/usage";
import type { ChatsRepo } from "./chats-repo";
import type { MessagesRepo } from "./messages-repo";
import type { ProjectRow } from "../projects/projects-repo";
import type { EventBus } from "../platform/event-bus";
import type { ChatPrompt } from "../prompts/prompt-service";
import type { ProjectSnapshot } from "../projects/project-snapshot";

export const DEFAULT_CHAT_TITLE = "New chat";
/** A page of the chat list when `before` comes without `limit`. */
const DEFAULT_PAGE = 50;
/** `before` without `limit`: every message before it. */
const ALL_BEFORE = 1_000_000_000;

/** How a chat finds its prompt: the project's own first, then the app's. */
export type PromptLookup = {
  snapshot(project: ProjectRow): Promise<ProjectSnapshot>;
  /** A saved prompt, or a built-in profile (the default prompt style names one). */
  find(snapshot: ProjectSnapshot, id: string): ChatPrompt | undefined;
};

/** A fork's title: the original's, marked, within the 200 characters a title may have. */
function forkTitle(title: string): string {
  const suffix = " (fork)";
  return `${title.slice(0, 200 - suffix.length)}${suffix}`;
}

export class ChatService {
  constructor(
    private readonly chats: ChatsRepo,
    private readonly messages: MessagesRepo,
    private readonly events: EventBus,
    private readonly prompts: PromptLookup,
  ) {}

  /** Every chat of the project, or with `limit` or `before` a page of them (newest first). */
  list(projectId: string, page: PageQuery = {}): Chat[] | { chats: Chat[]; hasMore: boolean } {
    if (page.limit === undefined && page.before === undefined) return this.chats.listByProject(projectId);
    const found = this.chats.pageByProject(projectId, page.limit ?? DEFAULT_PAGE, page.before);
    if (!found) throw notFound(`no chat ${page.before} in this project`);
    return found;
  }

  /**
   * A new chat; a `promptId` must name a prompt of the project or the app (400 otherwise). Without
   * one it takes the default prompt style's profile; `promptId: null` asks for no prompt.
   */
  async create(project: ProjectRow, body: CreateChatBody, worktreeBranch?: string): Promise<Chat> {
    const prompt =
      body.promptId === undefined || body.promptId === null
        ? undefined
        : await this.requirePrompt(project, body.promptId);
    // A chat started with a project-card prompt remembers it, so its row can show the prompt's icon.
    const cardPromptId = prompt?.showOnProjectCard ? prompt.id : null;
    const modelId = body.modelId ?? (await this.defaultModel(project));
    const promptId = body.promptId === undefined ? await this.defaultStyle(project, body.agent) : body.promptId;
    const { worktree: _worktree, ...fields } = body;
    const chat = this.chats.create({
      ...fields,
      ...(worktreeBranch ? { worktreeBranch } : {}),
      promptId,
      ...(modelId ? { modelId } : {}),
      projectId: project.id,
      title: body.title ?? DEFAULT_CHAT_TITLE,
      cardPromptId,
    });
    this.changed(chat);
    return chat;
  }

  get(id: string): Chat {
    const chat = this.chats.byId(id);
    if (!chat) throw notFound(`no chat with id ${id}`);
    return chat;
  }

  /**
   * The chat with its messages (all of them, or with `limit` or `before` the last ones before that
   * message, and `hasMore`) and the whole chat's usage totals.
   */
  withMessages(
    id: string,
    page: PageQuery = {},
  ): Chat & { messages: Message[]; usage: UsageTotals; hasMore?: boolean } {
    const chat = this.get(id);
    const usage = this.messages.usageTotals(id);
    if (page.limit === undefined && page.before === undefined)
      return { ...chat, messages: this.messages.withSiblings(id, this.messages.listByChat(id)), usage };
    // `before` alone: everything before that message.
    const found = this.messages.page(id, page.limit ?? ALL_BEFORE, page.before);
    if (!found) throw notFound(`no message ${page.before} in this chat`);
    return { ...chat, messages: this.messages.withSiblings(id, found.messages), hasMore: found.hasMore, usage };
  }

  /**
   * Changes chat fields; a `leafId` switches the branch shown. `canSwitch` throws when the branch may
   * not move now (a turn or a compaction is under way): it is asked after every await, right before
   * anything is written, since a turn can start while the prompt is looked up (the project's settings
   * are read from disk) and its rows then go under the leaf it started from.
   */
  async update(id: string, body: PatchChatBody, project: ProjectRow, canSwitch: () => void = () => {}): Promise<Chat> {
    this.get(id);
    if (typeof body.promptId === "string") await this.requirePrompt(project, body.promptId);
    const { leafId, ...fields } = body;
    if (leafId !== undefined) {
      canSwitch();
      if (!this.messages.inChat(id, leafId)) throw notFound(`no message ${leafId} in this chat`);
      this.messages.setLeaf(id, this.messages.latestLeafUnder(id, leafId));
    }
    const chat = this.chats.update(id, fields) ?? this.get(id);
    this.changed(chat);
    return chat;
  }

  /**
   * "Fork from here" (contract 7.4): a new chat with the same settings holding the current path up to
   * and including `messageId` (404 for a message of another chat). Gives the new chat, and which of its
   * messages copies which of the original's (by id).
   */
  fork(id: string, messageId: string): { chat: Chat; copied: ReadonlyMap<string, string> } {
    const source = this.get(id);
    if (!this.messages.inChat(id, messageId)) throw notFound(`no message ${messageId} in this chat`);
    const { id: _id, projectId, leafId: _leaf, createdAt: _created, updatedAt: _updated, ...fields } = source;
    const chat = this.chats.create({ ...fields, projectId, title: forkTitle(source.title) });
    let copied: ReadonlyMap<string, string>;
    try {
      copied = this.messages.copyPath(chat.id, this.messages.pathTo(messageId));
    } catch (error) {
      this.chats.delete(chat.id);
      throw error;
    }
    const forked = this.get(chat.id);
    this.changed(forked);
    return { chat: forked, copied };
  }

  delete(id: string): void {
    const chat = this.get(id);
    this.chats.delete(id);
    this.changed(chat);
  }

  /** A turn's file changes were reverted: its cards say so from now on, in every UI. */
  turnReverted(chat: Chat, turnId: string): void {
    this.messages.markTurnReverted(chat.id, turnId);
    this.changed(chat);
  }

  /** The title an untitled chat takes from its first message, as people expect from a chat list. */
  titleFor(chat: Chat, content: string): string | undefined {
    if (chat.title !== DEFAULT_CHAT_TITLE) return undefined;
    return plainTitle(content);
  }

  /**
   * The model a new chat starts with when it names none: the one last used in the project, else the
   * project's first `models` entry, else the default model of the settings, so a first send just works.
   */
  private async defaultModel(project: ProjectRow): Promise<string | undefined> {
    const recent = this.chats.listByProject(project.id).find((chat) => chat.modelId)?.modelId;
    if (recent) return recent;
    const snapshot = await this.prompts.snapshot(project);
    const own = snapshot.layer.value.models;
    const first = Array.isArray(own)
      ? own.find((m): m is { id: string } => typeof (m as { id?: unknown })?.id === "string")
      : undefined;
    return first?.id ?? snapshot.settings.defaultModel;
  }

  /**
   * The built-in profile of the default prompt style (Settings, Chat defaults), or null for `none`.
   * A chat whose agent (its own or the project's default) brings a prompt keeps that one: a chat-level
   * `promptId` would override it.
   */
  private async defaultStyle(project: ProjectRow, agentName: string | undefined): Promise<string | null> {
    const snapshot = await this.prompts.snapshot(project);
    const style = snapshot.settings.chat?.defaultPromptStyle;
    if (!style || style === "none") return null;
    const name = agentName ?? snapshot.settings.defaultAgent;
    if (name && snapshot.agents.agents.find((a) => a.name === name)?.promptId) return null;
    return this.prompts.find(snapshot, style) ? style : null;
  }

  private async requirePrompt(project: ProjectRow, id: string): Promise<ChatPrompt> {
    const prompt = this.prompts.find(await this.prompts.snapshot(project), id);
    if (!prompt) throw invalid(`no prompt with id "${id}" in this project or the app`);
    return prompt;
  }

  changed(chat: Chat): void {
    this.events.publish({ type: "chats.changed", data: { projectId: chat.projectId, chatId: chat.id } });
  }
}
