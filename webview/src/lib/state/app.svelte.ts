// App-wide UI state: the route, and the resources every view shares (projects, the chat list,
// resolved settings, the model catalog). Everything comes from the server; each resource reloads
// only on the `/api/events` event that concerns it, and views listen for the ones they show.
import type { AppEvent } from "$shared/app-events";
import type { PanelTarget } from "$shared/host-messages";
import type { ApiClient } from "../api/client";
import type { Host } from "../api/host";
import { parseRoute, routeHash, type Route } from "../route";
import { ChatsState } from "./chats.svelte";
import { ModelsState } from "./models.svelte";
import { ProjectsState } from "./projects.svelte";
import { SettingsState } from "./settings.svelte";

/** How long the first reads wait for the event stream to answer before going ahead without it. */
const STREAM_WAIT_MS = 1_000;

export class AppState {
  readonly projects: ProjectsState;
  readonly chats: ChatsState;
  readonly settings: SettingsState;
  readonly models: ModelsState;
  route = $state<Route>({ view: "chats" });
  loadError = $state<string | undefined>();
  /**
   * The first project list has been asked for. Views wait for it: they are keyed on the current
   * project, so one shown before would be torn down and built again (a transcript that flashes
   * empty, a draft lost) when the list makes a project current.
   */
  started = $state(false);
  /** Whether `/api/events` is open: then a change made here comes back as an event. */
  live = $state(false);
  /**
   * The Focus Message Box command asked for the caret in the composer: the chat's composer takes it
   * (and clears this) as soon as it is on screen and enabled. Leaving for a page with no composer
   * drops the request.
   */
  composerFocusWanted = $state(false);
  /** Settles once the first reads (projects, chats, settings) are over, whether they worked or not. */
  private readonly firstReads: Promise<void>;
  private firstReadsOver = () => {};
  private readonly listeners = new Set<(event: AppEvent) => void>();

  constructor(
    readonly api: ApiClient,
    readonly host: Host,
    preferredProjectId?: string,
    private readonly options: { inVsCode?: boolean } = {},
  ) {
    this.projects = new ProjectsState(api, preferredProjectId);
    this.chats = new ChatsState(api, this.projects);
    this.settings = new SettingsState(api, this.projects);
    this.models = new ModelsState(api);
    this.firstReads = new Promise((resolve) => (this.firstReadsOver = resolve));
  }

  /**
   * Whether `#/` shows the projects view (a card per project): always in a browser, and in the VS Code
   * panel when several folders are open; else the one project's chat list.
   */
  get projectsHome(): boolean {
    return !this.options.inVsCode || this.projects.list.length > 1;
  }

  async init(signal: AbortSignal): Promise<void> {
    this.route = parseRoute(window.location.hash);
    window.addEventListener("hashchange", () => (this.route = parseRoute(window.location.hash)));
    this.host.onMessage((message) => {
      if (message.type !== "ready") this.open(message);
    });
    // The event stream first, then the first reads: a change made while they load comes as an event.
    // Whenever the stream comes up after the reads began (a reconnect, a slow first connection), the
    // events of the gap are lost, so everything shown is read again.
    let readsBegan = false;
    let answered = () => {};
    const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
    this.api.subscribe(
      (event) =>
        void this.onEvent(event).catch((error: unknown) =>
          console.warn(`Parley: reloading after "${event.type}" failed`, error),
        ),
      signal,
      (connected) => {
        this.live = connected;
        answered();
        if (connected && readsBegan) void this.resync();
      },
    );
    await Promise.race([firstAnswer, new Promise((resolve) => setTimeout(resolve, STREAM_WAIT_MS))]);
    readsBegan = true;
    try {
      try {
        await this.projects.load();
      } finally {
        this.started = true;
      }
      await Promise.all([this.chats.load(), this.settings.load()]);
    } catch (error) {
      this.loadError = (error as Error).message;
    } finally {
      this.firstReadsOver();
    }
    void this.models.load();
  }

  private readonly resyncListeners = new Set<() => void>();

  /** Calls `reload` whenever the app reads everything again (see resync); returns what stops it. */
  onResync(reload: () => void): () => void {
    this.resyncListeners.add(reload);
    return () => this.resyncListeners.delete(reload);
  }

  /**
   * Reads the projects, chats, settings and every view's resource again: the event stream was down,
   * so their changes meanwhile came as no event. (A first read that failed, or found no project yet,
   * because the panel loaded before the host registered its folders, is made good here too.)
   */
  private async resync(): Promise<void> {
    try {
      await this.projects.load();
      await Promise.all([this.chats.load(), this.rereadSettings()]);
      this.loadError = undefined;
    } catch {
      // The next event or reconnect tries again.
    }
    for (const reload of this.resyncListeners) reload();
  }

  /**
   * Goes where the editor sent the panel (New Chat, Manage Custom Prompts, the view's title-bar
   * buttons, Focus Message Box). Like a click in the UI, a page with unsaved changes asks first.
   */
  open(target: PanelTarget): void {
    if (target.type === "openChat") this.navigate({ view: "chat", chatId: target.chatId });
    else if (target.type === "navigate") this.navigate(parseRoute(target.hash));
    else
      void this.focusComposer().catch((error: unknown) =>
        console.warn("Parley: opening a chat for the message box failed", error),
      );
  }

  /**
   * Puts the caret in the Message box: the open chat's, else the project's most recent chat's
   * (the list is newest first), else a new chat's. Waits for the first reads, since a command that
   * started the panel arrives before the chat list does.
   */
  async focusComposer(): Promise<void> {
    await this.firstReads;
    if (this.route.view !== "chat") {
      const recent = this.chats.list[0];
      if (recent) this.navigate({ view: "chat", chatId: recent.id });
      else await this.newChat();
    }
    // Not when the page stayed (unsaved changes to keep, no project to chat in).
    if (this.route.view === "chat") this.composerFocusWanted = true;
  }

  /**
   * Asked before the UI goes to another page: a guard that returns false keeps the page (it asks
   * the user, and calls `proceed` if they agree to leave). The prompt editor guards unsaved changes.
   */
  private readonly leaveGuards = new Set<(proceed: () => void) => boolean>();

  /** Adds a leave guard; returns what removes it (an `$effect` cleanup). */
  guardLeaving(guard: (proceed: () => void) => boolean): () => void {
    this.leaveGuards.add(guard);
    return () => this.leaveGuards.delete(guard);
  }

  navigate(route: Route): void {
    this.leave(() => this.go(route));
  }

  /** Runs `go` once every leave guard agrees: now, or when the user discards their changes. */
  private leave(go: () => void): void {
    for (const guard of this.leaveGuards) if (!guard(go)) return;
    go();
  }

  private go(route: Route): void {
    window.location.hash = routeHash(route);
    this.route = route;
    if (route.view !== "chat") this.composerFocusWanted = false;
  }

  /**
   * Runs a change, then `reread` only if no event will report it (the event stream is down): with
   * the stream up, the event reloads exactly what the change touched, once, in every open UI.
   */
  async change<T>(request: () => Promise<T>, reread: () => Promise<unknown>): Promise<T> {
    const result = await request();
    if (!this.live) await reread();
    return result;
  }

  /** Subscribes a view's state to app events until the returned function is called. */
  listen(listener: (event: AppEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Switches to another project's chats; a page with unsaved changes asks first (the switch waits for it). */
  selectProject(id: string): void {
    this.leave(() => {
      this.projects.currentId = id;
      this.go({ view: "chats" });
      void Promise.all([this.chats.load(), this.settings.load()]).catch((error: unknown) =>
        console.warn("Parley: loading the project failed", error),
      );
    });
  }

  /**
   * Makes `projectId` the current project without leaving the page (a card opens a chat of its
   * project), reloading what the views share.
   */
  useProject(projectId: string): void {
    if (this.projects.currentId === projectId) return;
    this.projects.currentId = projectId;
    void Promise.all([this.chats.load(), this.settings.load()]).catch((error: unknown) =>
      console.warn("Parley: loading the project failed", error),
    );
  }

  /** Opens a chat of `projectId` (a project card's chat, or one it just made). */
  openChat(projectId: string, chatId: string): void {
    this.useProject(projectId);
    this.navigate({ view: "chat", chatId });
  }

  /** `worktree`: the chat works in a git worktree of its own (contract 7.6); a 409 (no git) is thrown. */
  async newChat(modelId?: string, options: { worktree?: boolean } = {}): Promise<void> {
    const lastModel = modelId ?? this.chats.list[0]?.modelId ?? this.settings.value.defaultModel;
    const chat = await this.change(
      () => this.chats.create(lastModel ?? undefined, options),
      () => this.chats.load(),
    );
    if (chat) this.navigate({ view: "chat", chatId: chat.id });
  }

  /** Saves a change to the app settings layer; the status line waits for it, the views for the event. */
  patchAppSettings(body: Parameters<SettingsState["patchApp"]>[0]) {
    return this.change(
      () => this.settings.patchApp(body),
      () => this.rereadSettings(),
    );
  }

  /** Saves a change to the current project's settings layer; answers with that layer. */
  patchProjectSettings(body: Parameters<SettingsState["patchProject"]>[0]) {
    return this.change(
      () => this.settings.patchProject(body),
      () => this.rereadSettings(),
    );
  }

  /** Reads the settings again, and the model list too when the gateway connection changed. */
  async rereadSettings(): Promise<void> {
    const before = this.settings.connection;
    await this.settings.load();
    if (this.settings.connection !== before) await this.models.load();
  }

  private async onEvent(event: AppEvent): Promise<void> {
    for (const listener of this.listeners) listener(event);
    if (this.chats.affectedBy(event)) await this.chats.load();
    if (this.settings.affectedBy(event)) await this.rereadSettings();
    // A project's name is part of its settings: the project list (header, cards) shows the new one.
    if (event.type === "settings.changed" && event.data.scope === "project") await this.projects.load();
    // A project that appears after the first load (a folder registered late) becomes the current one if none is.
    if (event.type === "projects.changed" && (await this.projects.load()))
      await Promise.all([this.chats.load(), this.settings.load()]);
  }
}
