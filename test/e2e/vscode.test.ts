// Parley inside a real VS Code (code-server) driven through a real Chromium: the side panel, the
// command palette, Open in Browser (also Dictate's way out of the panel, which has no microphone), a
// prompt created in the panel and picked by New Chat with Prompt…,
// and Sign In with Gateway through the fake authorize page.
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { chromiumAvailable, screenshot } from "../helpers/browser";
import {
  codeServerInstalled,
  openWorkbench,
  packageVsix,
  runCommand,
  startEditor,
  webviewFrame,
  type Editor,
} from "../helpers/code-server";
import { chooseModel } from "../helpers/model-picker";
import { seriousViolations } from "../helpers/axe";

describe("Parley in a real VS Code (code-server)", function () {
  this.timeout(240_000);
  let editor: Editor;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let panel: Frame;
  /** The Open-in-Browser tab: its session cookie lets the test call Parley's API. */
  let tab: Page;
  const apiBase = () => new URL(".", tab.url()).href;

  before(async function () {
    if (!chromiumAvailable() || !codeServerInstalled()) {
      console.warn(
        "    code-server or Chromium is missing (bash scripts/setup-code-server.sh; apt-get install chromium): VS Code tests skipped",
      );
      this.skip();
    }
    editor = await startEditor(packageVsix());
    ({ browser, context, page } = await openWorkbench(editor, ["clipboard-read", "clipboard-write"]));
  });

  after(async () => {
    await browser?.close();
    await editor?.stop();
  });

  it("opens the Parley view from the activity bar and shows the workspace's chats", async () => {
    await page.locator('.activitybar [aria-label="Parley"]').first().click({ timeout: 60_000 });
    panel = await webviewFrame(page);
    await panel.getByRole("heading", { name: "Chats" }).waitFor();
    // The project arrives with the first answers from the server: wait for it, then check it.
    await panel
      .locator(".project-name", { hasText: "workspace" })
      .waitFor({ timeout: 15_000 })
      .catch(() => {});
    assert.equal(await panel.locator(".project-name").textContent(), "workspace");
    await screenshot(page, "vscode-01-panel");
  });

  it("sets the API key from the command palette and streams an answer in the side panel", async () => {
    await runCommand(page, "Parley: Set Gateway API Key");
    await page.locator(".quick-input-widget input").fill("sk-fake-vscode-key");
    await page.keyboard.press("Enter");
    await page.locator(".notifications-toasts", { hasText: "API key is saved" }).waitFor();
    await panel.getByRole("button", { name: "New chat" }).click();
    await chooseModel(panel, "fake/echo");
    await panel.getByLabel("Message").fill("Hello from VS Code");
    await panel.getByLabel("Message").press("Enter");
    await panel.locator(".message.assistant", { hasText: "You said: Hello from VS Code" }).waitFor();
    assert.equal(editor.gateway.completions.at(-1)!.headers.authorization, "Bearer sk-fake-vscode-key");
    await screenshot(page, "vscode-02-answer");
  });

  it("asks before a shell call in the panel, and runs it on Allow", async () => {
    await panel.getByRole("link", { name: "Back to chats" }).click();
    await panel.getByRole("button", { name: "New chat" }).click();
    await chooseModel(panel, "fake/tools");
    await panel.getByLabel("Message").fill("shell: echo approved-in-vscode");
    await panel.getByLabel("Message").press("Enter");
    await panel.getByRole("region", { name: "Waiting for you" }).getByRole("button", { name: "Allow" }).click();
    await panel.locator(".message.assistant", { hasText: "approved-in-vscode" }).first().waitFor();
    await screenshot(page, "vscode-05-tool-card");
  });

  it("@ popup in the panel: types @, picks a file from the popup, sends, and sees the answer with the file as a chip", async () => {
    await panel.getByRole("link", { name: "Back to chats" }).click();
    await panel.getByRole("button", { name: "New chat" }).click();
    await chooseModel(panel, "fake/echo");
    const box = panel.getByRole("combobox", { name: "Message" });
    await box.pressSequentially("summarise @READ");
    const listbox = panel.getByRole("listbox", { name: "Mentions" });
    await listbox.getByRole("option").filter({ hasText: "README.md" }).first().waitFor();
    assert.equal(await box.getAttribute("aria-expanded"), "true");
    await screenshot(page, "vscode-06-mention-popup");
    await box.press("Enter");
    assert.equal(await box.inputValue(), "summarise @README.md ");
    await box.press("Enter");
    await panel.locator(".message.assistant", { hasText: "You said: summarise @README.md" }).waitFor();
    await panel.getByRole("list", { name: "Referenced files" }).getByText("README.md").waitFor();
    const sent = editor.gateway.completions.at(-1)!.body as { messages: { content: unknown }[] };
    assert.ok(
      sent.messages.some((m) => typeof m.content === "string" && m.content.includes("# Workspace")),
      "the file reached the model",
    );
  });

  it("highlights a large code block in the panel through its worker (the webview's CSP admits it)", async () => {
    await panel.getByRole("link", { name: "Back to chats" }).click();
    await panel.getByRole("button", { name: "New chat" }).click();
    await chooseModel(panel, "fake/echo");
    const lines = Array.from({ length: 800 }, (_, i) => `const value${i}: number = ${i};`);
    await panel.getByLabel("Message").fill(`Big:\n\n\`\`\`ts\n${lines.join("\n")}\n\`\`\``);
    await panel.getByLabel("Message").press("Enter");
    const code = panel.locator('.message.assistant code[data-highlight="ts"]').last();
    await code.waitFor({ timeout: 90_000 });
    assert.ok((await code.locator(".hljs-keyword").count()) >= 800);
  });

  it("runs New Chat from the command palette and the panel opens it", async () => {
    await runCommand(page, "Parley: New Chat");
    await panel.locator(".chat-view h2", { hasText: "New chat" }).waitFor();
  });

  it("follows in-app links inside the webview (the chat list, back, and the chat)", async () => {
    await panel.getByRole("link", { name: "Back to chats" }).click();
    await panel.locator(".chat-row", { hasText: "Hello from VS Code" }).click();
    await panel.locator(".message.user", { hasText: "Hello from VS Code" }).waitFor();
  });

  it("says in the panel that dictation needs the browser, and opens the chat there to dictate", async () => {
    // VS Code's webviews cannot open the microphone: the panel says so instead of failing silently.
    await panel.getByRole("button", { name: "Dictate" }).click();
    const alert = panel.getByRole("alert", { name: "Dictation problem" });
    await alert
      .getByText("VS Code's panels cannot use the microphone. Open Parley in your browser and dictate there.")
      .waitFor();
    await screenshot(page, "vscode-06-dictation");
    const popup = context.waitForEvent("page");
    await alert.getByRole("button", { name: "Open in Browser" }).click();
    const browserTab = await popup;
    await browserTab.locator(".message.user", { hasText: "Hello from VS Code" }).waitFor({ timeout: 30_000 });
    assert.match(new URL(browserTab.url()).hash, /^#\/chat\//, "the same chat opens in the browser");
    await browserTab.getByRole("button", { name: "Dictate" }).waitFor();
    await browserTab.close();
    await alert.getByRole("button", { name: "Dismiss" }).click();
    await page.bringToFront();
  });

  it("opens the new chat from New Chat whether the panel is closed, or hidden behind another view", async () => {
    // Each time the panel's page is discarded (VS Code keeps no hidden webview alive) and loads again,
    // so the command's target must reach a page that is not listening yet.
    const opensNewChat = async (hide: () => Promise<void>) => {
      await panel.getByRole("link", { name: "Back to chats" }).click();
      await panel.getByRole("heading", { name: "Chats" }).waitFor();
      await hide();
      await runCommand(page, "Parley: New Chat");
      panel = await webviewFrame(page);
      await panel.locator(".chat-view h2", { hasText: "New chat" }).waitFor({ timeout: 30_000 });
    };
    await opensNewChat(() => runCommand(page, "View: Close Primary Side Bar"));
    await opensNewChat(async () => {
      await runCommand(page, "View: Show Explorer");
      await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor();
    });
    await screenshot(page, "vscode-07-new-chat-from-closed-panel");
  });

  it("opens the same UI in a browser tab, logged in by the token link", async () => {
    const popup = context.waitForEvent("page");
    await runCommand(page, "Parley: Open in Browser");
    tab = await popup;
    await tab.getByRole("heading", { name: "Chats" }).waitFor({ timeout: 30_000 });
    assert.equal(new URL(tab.url()).search, "", "the token does not stay in the address bar");
    await tab.locator(".chat-row", { hasText: "Hello from VS Code" }).waitFor();
    await screenshot(tab, "vscode-03-browser");
    await page.bringToFront();
  });

  it("copies the server URL, which answers from the editor's machine", async () => {
    await runCommand(page, "Parley: Copy Server URL");
    await page.locator(".notifications-toasts", { hasText: "server URL is on the clipboard" }).waitFor();
    const url = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+/);
    assert.equal((await (await tab.request.get(`${url}/api/health`)).json()).ok, true);
  });

  it("creates a prompt in the panel (Manage Custom Prompts), then New Chat with Prompt… opens a chat showing it", async () => {
    await runCommand(page, "Parley: Manage Custom Prompts");
    const prompts = panel.getByRole("region", { name: "Custom prompts" });
    await prompts.getByRole("button", { name: "New prompt" }).click();
    await prompts.getByRole("group", { name: "New prompt" }).waitFor();
    await prompts.getByRole("radio", { name: "App default" }).check();
    await prompts.getByLabel("Title", { exact: true }).fill("Strict reviewer");
    await prompts.getByLabel("Content", { exact: true }).fill("Review strictly.");
    await prompts.getByRole("button", { name: "Create", exact: true }).click();
    await prompts.locator(".editor > .status", { hasText: "Created" }).waitFor();
    await prompts.getByRole("group", { name: "Edit Strict reviewer" }).waitFor();
    const saved = (await (await tab.request.get(`${apiBase()}api/prompts?scope=app`)).json()).find(
      (p: { title: string }) => p.title === "Strict reviewer",
    );
    assert.ok(saved, "the prompt was saved at app scope");
    await screenshot(page, "vscode-06-prompt-editor");

    await runCommand(page, "Parley: New Chat with Prompt");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "Strict reviewer" }).waitFor();
    await page.keyboard.press("Enter");
    await panel.locator(".chat-view h2", { hasText: "New chat" }).waitFor();
    const chip = panel.getByLabel("Prompt for this chat");
    await chip.waitFor();
    assert.equal(await chip.inputValue(), saved.id);
    // The chat can show before the prompt list has loaded (the chip names the id meanwhile).
    await chip.locator("option:checked", { hasText: "Strict reviewer" }).waitFor({ state: "attached" });
    const project = (await (await tab.request.get(`${apiBase()}api/projects`)).json())[0];
    const chats = await (await tab.request.get(`${apiBase()}api/projects/${project.id}/chats`)).json();
    assert.ok(chats.some((c: { promptId: string | null }) => c.promptId === saved.id));
    await screenshot(page, "vscode-07-prompt-chip");
  });

  it("signs in through the gateway's authorize page and shows the account row", async () => {
    const popup = context.waitForEvent("page");
    await runCommand(page, "Parley: Sign In with Gateway");
    const authorize = await popup;
    await authorize.locator("#authorize").click({ timeout: 30_000 });
    // The result page may close itself (it tells its opener); the notification and the account row prove the sign-in.
    const label = editor.gateway.issuedKeys[0]!.slice(0, 16);
    await page.locator(".notifications-toasts", { hasText: `signed in as ${label}` }).waitFor({ timeout: 30_000 });
    await authorize.close().catch(() => {});
    await page.bringToFront();
    await panel.locator('nav[aria-label="Main"] a', { hasText: "Settings" }).click();
    await panel.locator(".account-row", { hasText: label }).waitFor();
    await screenshot(page, "vscode-04-signed-in");
  });

  it("signs the account out from Manage Gateway Accounts", async () => {
    const label = editor.gateway.issuedKeys[0]!.slice(0, 16);
    await runCommand(page, "Parley: Sign Out / Manage Gateway Accounts");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: label }).waitFor();
    await page.keyboard.press("Enter");
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "Sign out" }).waitFor();
    await page.keyboard.press("Enter");
    await page.locator(".notifications-toasts", { hasText: `signed out of ${label}` }).waitFor();
    assert.deepEqual(await (await tab.request.get(`${apiBase()}api/providers/gateway/accounts`)).json(), []);
  });

  it("is readable in VS Code's high contrast and light themes: no serious axe violation in the panel", async () => {
    const chats = await (await tab.request.get(`${apiBase()}api/projects`)).json();
    const chatId = (await (await tab.request.get(`${apiBase()}api/projects/${chats[0].id}/chats`)).json())[0]
      .id as string;
    const failures: string[] = [];
    // The theme picker previews as it moves and applies on Enter; the workbench's class names the kind.
    // The last: the class VS Code gives a webview's body for the kind.
    const themes = [
      ["Dark High Contrast", "hc-black", "vscode-high-contrast"],
      ["Light High Contrast", "hc-light", "vscode-high-contrast-light"],
      ["Light Modern", "vs", "vscode-light"],
    ] as const;
    for (const [theme, kind, webviewClass] of themes) {
      await page
        .locator(".quick-input-widget")
        .waitFor({ state: "hidden" })
        .catch(() => undefined);
      await page.keyboard.press("Control+Shift+P");
      await page.locator(".quick-input-widget input").fill(">Preferences: Color Theme");
      await page.locator('.quick-input-list .monaco-list-row[aria-label^="Preferences: Color Theme,"]').click();
      await page.locator(".quick-input-list .monaco-list-row", { hasText: "Dark Modern" }).first().waitFor();
      await page.locator(".quick-input-widget input").fill(theme);
      await page.locator(".quick-input-list .monaco-list-row", { hasText: theme }).first().click();
      await page.locator(`.monaco-workbench.${kind}`).waitFor();
      const screens: [string, () => Promise<unknown>][] = [
        [
          "chat with the @ popup open",
          async () => {
            await panel.evaluate((hash) => (window.location.hash = hash), `#/chat/${chatId}`);
            await panel.getByRole("combobox", { name: "Message" }).fill("");
            await panel.getByRole("combobox", { name: "Message" }).pressSequentially("@");
            await panel.getByRole("listbox", { name: "Mentions" }).getByRole("option").first().waitFor();
          },
        ],
        [
          "this project's settings",
          async () => {
            await panel.evaluate(() => (window.location.hash = "#/settings/project"));
            await panel.getByRole("region", { name: "Custom prompts" }).waitFor();
          },
        ],
      ];
      for (const [name, show] of screens) {
        await show();
        // The editor hands a changed theme to the webview as CSS variables with a class on its body:
        // wait for the class, then for a frame painted with them.
        await panel.locator(`body.${webviewClass}`).waitFor();
        await panel.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        await screenshot(page, `vscode-theme-${theme.replaceAll(" ", "-").toLowerCase()}-${name.split(" ")[0]}`);
        const violations = await seriousViolations(panel);
        if (violations.length > 0) failures.push(`${theme}, ${name}: ${JSON.stringify(violations)}`);
      }
    }
    assert.deepEqual(failures, []);
  });
});
