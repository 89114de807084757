// Entry of the Parley UI: the same bundle in the VS Code side panel and in a browser tab.
import { mount } from "svelte";
import App from "./App.svelte";
import "./app.css";
// VS Code-styled controls (the maintained successor of @vscode/webview-ui-toolkit); only those used.
import "@vscode-elements/elements/dist/vscode-button/index.js";
import "@vscode-elements/elements/dist/vscode-checkbox/index.js";
import "@vscode-elements/elements/dist/vscode-textfield/index.js";
import { readBootstrap } from "./lib/bootstrap";
import { ApiClient } from "./lib/api/client";
import { createHost } from "./lib/api/host";
import { AppState } from "./lib/state/app.svelte";
import { loadMarkdownBody } from "./components/chat/markdown-loader";

const boot = readBootstrap();
document.documentElement.dataset.host = boot.inVsCode ? "vscode" : "browser";
const host = createHost(boot);
const api = new ApiClient(boot);
// A browser tab whose session ended (revoked elsewhere, expired, a new password) shows the sign-in page.
if (!boot.inVsCode) api.onUnauthorized = () => window.location.replace(`${boot.serverUrl}/login`);
const app = new AppState(api, host, boot.projectId, { inVsCode: boot.inVsCode });
// The Markdown renderer is a chunk apart from the first screen's: a chat opened from the start (a
// link, a reload) waits for it, fetched beside the host's answer, so its messages never show unformatted;
// any other first screen draws at once and fetches it right after.
const renderer = window.location.hash.startsWith("#/chat/") ? loadMarkdownBody().catch(() => {}) : undefined;
void host.ready().then(async (target) => {
  // A command run while the panel was closed or hidden: start where it sent the panel.
  if (target) app.open(target);
  if (app.route.view === "chat") await (renderer ?? loadMarkdownBody().catch(() => {}));
  mount(App, { target: document.getElementById("app")!, props: { app } });
  setTimeout(() => void loadMarkdownBody().catch(() => {}), 0);
});
