// The postMessage protocol between the VS Code extension host and the webview, both directions,
// each a zod discriminated union: both sides parse what they receive and type what they send.
import { z } from "zod";

/** Extension host → webview. */
export const hostToWebviewSchema = z.discriminatedUnion("type", [
  /** The host trusts the webview's origin: the UI may call the server now. */
  z.object({ type: z.literal("ready") }),
  /** Show this chat (the New Chat commands). */
  z.object({ type: z.literal("openChat"), chatId: z.string().min(1) }),
  /** Go to an in-app route such as `#/settings/prompts` (Manage Custom Prompts). */
  z.object({ type: z.literal("navigate"), hash: z.string().startsWith("#") }),
]);
export type HostToWebview = z.infer<typeof hostToWebviewSchema>;

/** Webview → extension host. */
export const webviewToHostSchema = z.discriminatedUnion("type", [
  /** Sent once at start: the origin the webview's requests will carry, which the server must trust. */
  z.object({ type: z.literal("hello"), origin: z.string() }),
  /** Open a URL in the system browser (sign-in with the gateway). */
  z.object({ type: z.literal("openExternal"), url: z.url() }),
  /** Open an editor diff of a file a turn changed (the file change card's "Open diff"). */
  z.object({ type: z.literal("openDiff"), chatId: z.string().min(1), turnId: z.string().min(1), path: z.string().min(1) }),
]);
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;
