// The postMessage protocol between the VS Code extension host and the webview, both directions,
// each a zod discriminated union: both sides parse what they receive and type what they send.
import { z } from "zod";

/** Show this chat (the New Chat commands). */
const openChatSchema = z.object({ type: z.literal("openChat"), chatId: z.string().min(1) });
/** Go to an in-app route such as `#/settings/prompts` (Manage Custom Prompts, Chat History, Settings). */
const navigateSchema = z.object({ type: z.literal("navigate"), hash: z.string().startsWith("#") });
/**
 * Put the caret in the composer's Message box (Focus Message Box): the open chat's, else the
 * project's most recent chat's, else a new chat's.
 */
const focusComposerSchema = z.object({ type: z.literal("focusComposer") });

/** Where a command sends the panel. */
export const panelTargetSchema = z.discriminatedUnion("type", [openChatSchema, navigateSchema, focusComposerSchema]);
export type PanelTarget = z.infer<typeof panelTargetSchema>;

/** Extension host → webview. */
export const hostToWebviewSchema = z.discriminatedUnion("type", [
  /**
   * The host trusts the webview's origin: the UI may call the server now. `open` is where a command
   * sent the panel before this webview was listening (the panel was closed, hidden or not yet
   * created), so the UI starts there instead of on its last page.
   */
  z.object({ type: z.literal("ready"), open: panelTargetSchema.optional() }),
  openChatSchema,
  navigateSchema,
  focusComposerSchema,
]);
export type HostToWebview = z.infer<typeof hostToWebviewSchema>;

/** Webview → extension host. */
export const webviewToHostSchema = z.discriminatedUnion("type", [
  /** Sent once at start: the origin the webview's requests will carry, which the server must trust. */
  z.object({ type: z.literal("hello"), origin: z.string() }),
  /** Open a URL in the system browser (sign-in with the gateway). */
  z.object({ type: z.literal("openExternal"), url: z.url() }),
  /** Open an editor diff of a file a turn changed (the file change card's "Open diff"). */
  z.object({
    type: z.literal("openDiff"),
    chatId: z.string().min(1),
    turnId: z.string().min(1),
    path: z.string().min(1),
  }),
  /**
   * Open the editor diff of a file a worktree chat changed, its base beside its worktree (contract 7.6).
   * `path` is relative to the repository's top folder; the host shows only what the server gives for it.
   */
  z.object({
    type: z.literal("openWorktreeDiff"),
    chatId: z.string().min(1).max(200),
    path: z.string().min(1).max(4096),
  }),
]);
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;
