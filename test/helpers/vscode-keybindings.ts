// VS Code's default key bindings as a real workbench lists them (Preferences: Open Default Keyboard
// Shortcuts (JSON): the editor's own and every installed extension's), for Linux, Windows and macOS.
// The workbench takes the OS it binds keys for from the browser's user agent, so one code-server
// answers for all three.
import type { Browser } from "playwright-core";
import type { Editor } from "./code-server";

export type KeyOs = "linux" | "windows" | "mac";

const USER_AGENTS: Record<KeyOs, string> = {
  linux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
  windows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
  mac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
};

export type Binding = { key: string; command: string };

/** The `{ "key": …, "command": … }` entries of that file (JSON with comments, one entry a line). */
export function parseKeybindings(text: string): Binding[] {
  return [...text.matchAll(/\{\s*"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"/g)].map(([, key, command]) => ({
    key: normalizeChord(key!),
    command: command!,
  }));
}

const MODIFIERS = ["ctrl", "shift", "alt", "cmd", "meta", "win"];

/** One spelling per chord: `ctrl+alt+shift+p` and `ctrl+shift+alt+p` are the same keys. */
export function normalizeChord(key: string): string {
  return key
    .toLowerCase()
    .split(" ")
    .map((press) => {
      const parts = press.split("+");
      const keyName = parts.pop()!;
      const modifiers = parts.sort((a, b) => MODIFIERS.indexOf(a) - MODIFIERS.indexOf(b));
      return [...modifiers, keyName].join("+");
    })
    .join(" ");
}

/** The default key bindings of the editor's workbench (with Parley installed) as `os` sees them. */
export async function defaultKeybindings(browser: Browser, editor: Editor, os: KeyOs): Promise<Binding[]> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, userAgent: USER_AGENTS[os] });
  try {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const page = await context.newPage();
    await page.goto(editor.url);
    // Extensions' bindings join the list once their contributions are read, which is when Parley's
    // activity bar entry shows (a list opened sooner has the editor's own bindings only).
    await page.locator('.activitybar [aria-label="Parley"]').first().waitFor({ timeout: 60_000 });
    const mod = os === "mac" ? "Meta" : "Control";
    // The palette's key is not bound until the workbench has started: press until it opens.
    const input = page.locator(".quick-input-widget input");
    for (let attempt = 0; !(await input.isVisible()); attempt++) {
      if (attempt === 30) throw new Error(`the command palette did not open (${os})`);
      await page.keyboard.press(`${mod}+Shift+P`);
      await input.waitFor({ timeout: 1_000 }).catch(() => undefined);
    }
    const title = "Preferences: Open Default Keyboard Shortcuts (JSON)";
    await input.fill(`>${title}`);
    await page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first().click();
    const lines = page.locator(".monaco-editor .view-lines", { hasText: "Override key bindings" });
    await lines.waitFor({ timeout: 30_000 });
    await lines.click();
    await page.keyboard.press(`${mod}+A`);
    // The browser's own copy (Control+C on this Linux machine, whatever OS the workbench believes in).
    await page.keyboard.press("Control+C");
    return parseKeybindings(await page.evaluate(() => navigator.clipboard.readText()));
  } finally {
    await context.close();
  }
}
