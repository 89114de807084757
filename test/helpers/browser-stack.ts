// A running Parley stack with a saved key and a real Chromium page on it: the set-up every browser
// suite shares. Skips the suite (with a message) where Chromium is not installed.
import type { Browser, Page } from "playwright-core";
import { chromiumAvailable, launchChromium } from "./browser";
import { startStack, type Stack } from "./stack";

export type BrowserStack = { stack: Stack; browser: Browser; page: Page; stop(): Promise<void> };

export type BrowserStackOptions = {
  /** Another server as the gateway (a self-hosted one) instead of the fake. */
  gatewayBaseUrl?: string;
  apiKey?: string;
  viewport?: { width: number; height: number };
  /** Extra Chromium switches (a fake microphone). */
  chromiumArgs?: string[];
};

export async function startBrowserStack(
  suite: Mocha.Context,
  options: BrowserStackOptions = {},
): Promise<BrowserStack> {
  if (!chromiumAvailable()) {
    console.warn("    Chromium is not installed (apt-get install -y chromium): browser tests skipped");
    suite.skip();
  }
  const stack = await startStack({ gatewayBaseUrl: options.gatewayBaseUrl });
  await stack.api("PATCH", "/api/settings/app", {
    providers: [{ id: "gateway", apiKey: options.apiKey ?? "sk-fake-e2e" }],
  });
  const browser = await launchChromium({ args: options.chromiumArgs });
  const page = await (
    await browser.newContext({ viewport: options.viewport ?? { width: 900, height: 900 } })
  ).newPage();
  return {
    stack,
    browser,
    page,
    async stop() {
      await browser.close();
      await stack.stop();
    },
  };
}
