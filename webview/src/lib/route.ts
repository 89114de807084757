// The UI's routes and their `#/…` hashes: the address bar is the only navigation state.
export type SettingsTab = "providers" | "defaults" | "prompts" | "agents" | "project" | "mcp" | "access" | "dictation";
export type Route = { view: "chats" } | { view: "chat"; chatId: string } | { view: "settings"; tab: SettingsTab };
const SETTINGS_TABS: readonly SettingsTab[] = ["providers", "defaults", "prompts", "agents", "project", "mcp", "access", "dictation"];

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
