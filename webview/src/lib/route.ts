// The UI's routes and their `#/…` hashes: the address bar is the only navigation state.
export type SettingsTab = "providers" | "defaults" | "prompts" | "agents" | "project" | "mcp" | "access" | "dictation";
/** `prompts` (with an optional prompt id: the old deep link `settings/prompts/<id>`) opens the prompt editor. */
/** `messageId` (a search hit): the chat opens scrolled to that message, on its branch. */
/** `agents`: a project's board of worktree chats (contract 7.6); `chatId` brings that chat's entry into view. */
export type Route =
  | { view: "chats" }
  | { view: "chat"; chatId: string; messageId?: string }
  | { view: "settings"; tab: SettingsTab; promptId?: string }
  | { view: "agents"; projectId: string; chatId?: string };
const SETTINGS_TABS: readonly SettingsTab[] = [
  "providers",
  "defaults",
  "prompts",
  "agents",
  "project",
  "mcp",
  "access",
  "dictation",
];

function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/");
  if (parts[0] === "chat" && parts[1]) {
    const messageId = parts[2] === "m" && parts[3] ? decoded(parts[3]) : undefined;
    return messageId ? { view: "chat", chatId: parts[1], messageId } : { view: "chat", chatId: parts[1] };
  }
  if (parts[0] === "project" && parts[1] && parts[2] === "agents") {
    const projectId = decoded(parts[1]);
    const chatId = parts[3] ? decoded(parts[3]) : undefined;
    if (projectId) return chatId ? { view: "agents", projectId, chatId } : { view: "agents", projectId };
  }
  if (parts[0] === "settings") {
    const tab = SETTINGS_TABS.find((t) => t === parts[1]) ?? "providers";
    const promptId = tab === "prompts" && parts[2] ? decoded(parts[2]) : undefined;
    return promptId ? { view: "settings", tab, promptId } : { view: "settings", tab };
  }
  return { view: "chats" };
}

export function routeHash(route: Route): string {
  if (route.view === "chat")
    return route.messageId
      ? `#/chat/${route.chatId}/m/${encodeURIComponent(route.messageId)}`
      : `#/chat/${route.chatId}`;
  if (route.view === "agents")
    return `#/project/${encodeURIComponent(route.projectId)}/agents${route.chatId ? `/${encodeURIComponent(route.chatId)}` : ""}`;
  if (route.view === "settings")
    return route.promptId ? `#/settings/prompts/${encodeURIComponent(route.promptId)}` : `#/settings/${route.tab}`;
  return "#/";
}
