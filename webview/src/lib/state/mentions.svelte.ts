// The composer's @ popup: the token under the caret, its ranked rows from the server (each keystroke
// cancels the one before: an aborted request, and a `clientId` so the server drops a superseded one),
// the category filter, the active row, the files and MCP resources picked (sent as `referencedPaths`
// and `referencedResources`), an MCP prompt picked (its form and text: PromptPickState), and the
// custom actions and tool schemas it needs for Enter and the Parameters chips, refreshed every 5 s.
import type { MentionCategory, RankedMention } from "$shared/mentions";
import type { CatalogTool } from "$shared/tools";
import type { ApiClient } from "../api/client";
import { insertMention, type TextEdit } from "../mention-insert";
import { remainingParameters, type ToolParameter } from "../mention-parameters";
import { promptPick, type PromptPick } from "../mcp-prompt";
import {
  exactAction,
  keyIntent,
  referencedPaths,
  referencedResources,
  withCurrentModel,
  type KeyInput,
  type PickedResource,
} from "../mention-popup";
import { tokenAt, type MentionToken } from "../mention-token";
import { PromptPickState } from "./prompt-pick.svelte";

/** Tags, tools and custom actions are read again this often while they matter (spec: Refresh). */
export const REFRESH_MS = 5_000;

/**
 * What a key did: nothing for the composer to do, a text edit (then maybe a run), a run, an MCP
 * prompt picked (its text to fetch, after its form if it has arguments), or the composer's own handling.
 */
export type KeyOutcome =
  | { kind: "handled" }
  | { kind: "edit"; edit: TextEdit; run: boolean }
  | { kind: "run" }
  | { kind: "prompt"; pick: PromptPick }
  | { kind: "pass" };

export class MentionsState {
  open = $state(false);
  token = $state.raw<MentionToken | undefined>();
  results = $state.raw<RankedMention[]>([]);
  /** The rows answer the current query (false while the first answer to a fresh @ is on its way). */
  settled = $state(false);
  /** A search for the current query or filter is on its way (the rows shown answer an older one). */
  pending = $state(false);
  /** The query the rows shown answer. */
  answered = $state<string | undefined>();
  active = $state(-1);
  /** The category chip in force; undefined is All. */
  filter = $state<MentionCategory | undefined>();
  error = $state<string | undefined>();
  actionIds = $state.raw<string[]>([]);
  tools = $state.raw<CatalogTool[]>([]);
  /** The parameters the picker-syntax text in the composer still lacks (the Parameters chips). */
  parameters = $state.raw<ToolParameter[]>([]);
  readonly listboxId: string;
  /** An MCP prompt picked from the popup, until its text is in the composer. */
  readonly prompt: PromptPickState;
  private readonly clientId: string;
  private picked: string[] = [];
  private pickedResources: PickedResource[] = [];
  private controller: AbortController | undefined;
  private sequence = 0;
  private searchedQuery: string | undefined;
  /** The start of a token the user dismissed (Escape, a click outside): it stays closed until left. */
  private dismissedAt: number | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private text = "";

  constructor(
    private readonly api: ApiClient,
    private readonly projectDir: () => string,
    private readonly chatId: () => string | undefined,
    /** The model picked in the chat's header: the Model row. */
    private readonly model: () => string | undefined = () => undefined,
  ) {
    const id = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, "0")).join("");
    this.clientId = `composer-${id}`;
    this.listboxId = `mentions-${id}`;
    this.prompt = new PromptPickState(api, projectDir);
  }

  optionId(index: number): string {
    return `${this.listboxId}-${index}`;
  }

  /** The textarea's combobox attributes (ARIA 1.2 combobox with a listbox popup). */
  get combobox() {
    const active =
      this.open && this.active >= 0 && this.active < this.results.length ? this.optionId(this.active) : undefined;
    return {
      role: "combobox",
      "aria-expanded": this.open,
      "aria-controls": this.listboxId,
      "aria-autocomplete": "list" as const,
      "aria-haspopup": "listbox" as const,
      "aria-activedescendant": active,
    };
  }

  /** The text or the caret changed: open, follow or close the popup. */
  update(text: string, caret: number): void {
    this.text = text;
    this.parameters = remainingParameters(text, (name) => this.tools.find((t) => t.name === name)?.parameters);
    const token = tokenAt(text, caret);
    if (!token || token.start === this.dismissedAt) {
      if (!token) this.dismissedAt = undefined;
      this.close();
    } else {
      const fresh = !this.open || this.token?.start !== token.start;
      this.token = token;
      if (fresh) {
        // A fresh @: All again (rule 13), and the lists read now rather than at the next tick.
        this.open = true;
        this.filter = undefined;
        this.results = [];
        this.settled = false;
        this.active = -1;
        void this.refreshLists();
      }
      if (fresh || token.query !== this.searchedQuery) void this.search(false);
    }
    this.keepRefreshing();
  }

  /** Tapping a chip shows only that category, uncapped; tapping the active chip returns to All. */
  toggleFilter(category: MentionCategory): void {
    this.filter = this.filter === category ? undefined : category;
    this.active = -1;
    void this.search(false);
  }

  keydown(event: KeyInput & { preventDefault(): void }, text: string): KeyOutcome {
    const intent = keyIntent(
      event,
      { open: this.open, count: this.results.length, active: this.active },
      exactAction(text, this.actionIds) !== undefined,
    );
    if (intent.kind === "pass") return { kind: "pass" };
    event.preventDefault();
    switch (intent.kind) {
      case "move":
        this.active = intent.active;
        return { kind: "handled" };
      case "dismiss":
        this.dismiss();
        return { kind: "handled" };
      case "run":
        this.close();
        return { kind: "run" };
      case "select":
        return this.pick(intent.index, text, intent.via === "enter");
    }
  }

  /**
   * Puts row `index` in place of the token; Enter on a complete custom action also runs it (rule 15).
   * A resource is remembered like a picked file; a prompt inserts nothing: its text replaces the token.
   */
  pick(index: number, text: string, runAction: boolean): KeyOutcome {
    const item = this.results[index];
    const token = this.token;
    if (!item || !token) return { kind: "handled" };
    if (item.mcp?.kind === "prompt") {
      const pick = promptPick(item.mcp, item.label, text, token);
      this.close();
      this.dismissedAt = undefined;
      return { kind: "prompt", pick };
    }
    const edit = insertMention(text, token, item.insertText);
    if (item.category === "files") this.picked.push(item.insertText.slice(1));
    if (item.mcp?.kind === "resource") {
      const { serverId, uri, name } = item.mcp;
      this.pickedResources.push({ token: item.insertText.trimEnd().slice(1), serverId, uri, name });
    }
    this.close();
    this.dismissedAt = undefined;
    return {
      kind: "edit",
      edit,
      run: runAction && item.category === "actions" && exactAction(edit.text, this.actionIds) !== undefined,
    };
  }

  dismiss(): void {
    if (this.token) this.dismissedAt = this.token.start;
    this.close();
  }

  /** Files picked with @ that the text still mentions: they go with the message as `referencedPaths`. */
  referencedPaths(text: string): string[] {
    return referencedPaths(text, this.picked);
  }

  /** MCP resources picked with @ whose token the text still holds: they go as `referencedResources`. */
  referencedResources(text: string): PickedResource[] {
    return referencedResources(text, this.pickedResources);
  }

  /** The message went: its picks are spent. */
  sent(): void {
    this.picked = [];
    this.pickedResources = [];
    this.prompt.cancel();
    this.update("", 0);
  }

  dispose(): void {
    this.prompt.cancel();
    this.close();
    clearTimeout(this.retry);
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private close(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.sequence++;
    this.open = false;
    this.pending = false;
    this.answered = undefined;
    this.token = undefined;
    this.results = [];
    this.active = -1;
    this.searchedQuery = undefined;
  }

  private async search(keepActive: boolean): Promise<void> {
    const token = this.token;
    if (!token) return;
    this.pending = true;
    const projectDir = this.projectDir();
    if (!projectDir) {
      // The chat's project is still loading (a reload): ask again in a moment.
      this.retry ??= setTimeout(() => {
        this.retry = undefined;
        if (this.open) void this.search(keepActive);
      }, 100);
      return;
    }
    // The keystroke before this one is moot: its request is cancelled (the server skips it, or
    // answers it `[]` as superseded), and its answer, should one still come, is ignored.
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    const mine = ++this.sequence;
    const query = token.query;
    this.searchedQuery = query;
    const chatId = this.chatId();
    // The chips belong to the empty query: while searching they are hidden, and so is their filter.
    const category = query === "" ? this.filter : undefined;
    let superseded = false;
    try {
      const answer = await this.api.call(
        "GET /api/mentions/search",
        {
          query: {
            projectDir,
            q: query,
            clientId: this.clientId,
            seq: mine,
            ...(category ? { category } : {}),
            ...(chatId ? { chatId } : {}),
          },
        },
        {
          signal: controller.signal,
          onHeaders: (headers) => (superseded = headers.get("x-parley-superseded") === "1"),
        },
      );
      if (mine !== this.sequence || superseded) return;
      const results = withCurrentModel(answer, this.model(), query, category);
      const activeKey = keepActive ? this.results[this.active]?.insertText : undefined;
      const kept = activeKey === undefined ? -1 : results.findIndex((r) => r.insertText === activeKey);
      this.results = results;
      this.active = kept >= 0 ? kept : results.length > 0 ? 0 : -1;
      this.settled = true;
      this.pending = false;
      this.answered = query;
      this.error = undefined;
    } catch (error) {
      if (controller.signal.aborted || mine !== this.sequence) return;
      this.error = (error as Error).message;
      this.settled = true;
      this.pending = false;
    }
  }

  /** Custom action ids (for Enter on `@<action>`) and tool schemas (for the Parameters chips). */
  /** Refreshes overlap (a slow answer, then the next tick): only the newest one's lists are kept. */
  private listReads = 0;

  private async refreshLists(): Promise<void> {
    const projectDir = this.projectDir();
    if (!projectDir) return;
    const read = ++this.listReads;
    const [actions, tools] = await Promise.allSettled([
      this.api.call("GET /api/actions", { query: { projectDir } }),
      this.api.call("GET /api/tools/catalog", { query: { projectDir } }),
    ]);
    if (read !== this.listReads) return;
    if (actions.status === "fulfilled") this.actionIds = actions.value.map((a) => a.id);
    if (tools.status === "fulfilled") {
      this.tools = tools.value;
      this.parameters = remainingParameters(this.text, (name) => this.tools.find((t) => t.name === name)?.parameters);
    }
  }

  /**
   * The 5 s refresh runs while the popup is open (its rows pick up changed tags, tools and actions;
   * files are not rescanned on this timer) or while the text starts with `@` (Enter's action list and
   * the Parameters chips); never in a hidden tab.
   */
  private keepRefreshing(): void {
    const wanted = this.open || this.text.trimStart().startsWith("@");
    if (wanted && !this.timer) {
      this.timer = setInterval(() => {
        if (typeof document !== "undefined" && document.hidden) return;
        void this.refreshLists();
        if (this.open) void this.search(true);
      }, REFRESH_MS);
    } else if (!wanted && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
