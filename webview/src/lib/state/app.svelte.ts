// App-wide UI state: projects, the chat list, resolved settings, the model catalog, and the route.
// Everything comes from the server; `/api/events` keeps every open UI in sync.
import type { Chat } from "../../../../src/shared/chats";
import type { CatalogModel } from "../../../../src/shared/gateway";
import type { Project } from "../../../../src/shared/projects";
import type { ApiClient } from "../api/client";
import type { Host } from "../api/host";

export type Route = { view: "chats" } | { view: "chat"; chatId: string } | { view: "settings"; tab: SettingsTab };
export type SettingsTab = "providers" | "defaults" | "prompts" | "project";
const SETTINGS_TABS: readonly SettingsTab[] = ["providers", "defaults", "prompts", "project"];

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/");
  if (parts[0] === "chat" && parts[1]) return { view: "chat", chatId: parts[1] };
  if (parts[0] === "settings") {
    const tab = SETTINGS_TABS.find((t) => t === parts[1]) ?? "providers";
    return { view: "settings", tab };
  }
  return { view: "chats" };
}

export function routeHash(route: Route): string {
  if (route.view === "chat") return `#/chat/${route.chatId}`;
  if (route.view === "settings") return `#/settings/${route.tab}`;
  return "#/";
}

export class AppState {
  projects = $state.raw<Project[]>([]);
  projectId = $state<string | undefined>();
  chats = $state.raw<Chat[]>([]);
  settings = $state.raw<Record<string, any>>({});
  models = $state.raw<CatalogModel[]>([]);
  modelsError = $state<string | undefined>();
  route = $state<Route>({ view: "chats" });
  loadError = $state<string | undefined>();
  /** Bumped on every change event, so open views can refresh what they show. */
  revision = $state(0);

  project = $derived(this.projects.find((p) => p.id === this.projectId));

  constructor(
    readonly api: ApiClient,
    readonly host: Host,
    private readonly preferredProjectId?: string,
  ) {}

  async init(signal: AbortSignal): Promise<void> {
    this.route = parseRoute(window.location.hash);
    window.addEventListener("hashchange", () => (this.route = parseRoute(window.location.hash)));
    this.host.onMessage((message) => {
      if (message.type === "openChat" && typeof message.chatId === "string") this.navigate({ view: "chat", chatId: message.chatId });
      if (message.type === "navigate" && typeof message.hash === "string") window.location.hash = message.hash;
      if (message.type === "refresh") void this.refreshChats();
    });
    try {
      this.projects = await this.api.get<Project[]>("/api/projects");
      this.projectId = this.projects.find((p) => p.id === this.preferredProjectId)?.id ?? this.projects[0]?.id;
      await Promise.all([this.refreshChats(), this.refreshSettings()]);
    } catch (error) {
      this.loadError = (error as Error).message;
    }
    void this.loadModels();
    this.api.subscribe((event) => this.onEvent(event.event), signal);
  }

  navigate(route: Route): void {
    window.location.hash = routeHash(route);
    this.route = route;
  }

  async refreshChats(): Promise<void> {
    if (!this.projectId) return;
    this.chats = await this.api.get<Chat[]>(`/api/projects/${this.projectId}/chats`);
  }

  async refreshSettings(): Promise<void> {
    const query = this.project ? `?projectDir=${encodeURIComponent(this.project.dir)}` : "";
    this.settings = (await this.api.get<{ settings: Record<string, any> }>(`/api/settings/resolved${query}`)).settings;
  }

  async loadModels(): Promise<void> {
    try {
      this.models = await this.api.get<CatalogModel[]>("/api/providers/gateway/models?slice=text");
      this.modelsError = undefined;
    } catch (error) {
      this.modelsError = (error as Error).message;
    }
  }

  async selectProject(id: string): Promise<void> {
    this.projectId = id;
    this.navigate({ view: "chats" });
    await Promise.all([this.refreshChats(), this.refreshSettings()]);
  }

  async newChat(modelId?: string): Promise<void> {
    if (!this.projectId) return;
    const lastModel = modelId ?? this.chats[0]?.modelId ?? this.settings.defaultModel;
    const chat = await this.api.post<Chat>(`/api/projects/${this.projectId}/chats`, lastModel ? { modelId: lastModel } : {});
    await this.refreshChats();
    this.navigate({ view: "chat", chatId: chat.id });
  }

  /** A project that appears after the first load (a folder registered late) becomes the current one if none is. */
  private async reloadProjects(): Promise<void> {
    this.projects = await this.api.get<Project[]>("/api/projects");
    if (this.projectId) return;
    this.projectId = this.projects.find((p) => p.id === this.preferredProjectId)?.id ?? this.projects[0]?.id;
    await Promise.all([this.refreshChats(), this.refreshSettings()]);
  }

  private onEvent(name: string): void {
    if (name === "chats.changed") void this.refreshChats();
    if (name === "settings.changed") void this.refreshSettings().then(() => this.loadModels());
    if (name === "projects.changed") void this.reloadProjects();
    this.revision++;
  }
}
