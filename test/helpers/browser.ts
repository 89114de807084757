// Real Chromium (Debian's) driven by playwright-core; Playwright's own browser download is not used.
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SCREENSHOTS = path.resolve("test-results/screenshots");

export function chromiumAvailable(): boolean {
  return fs.existsSync(CHROMIUM);
}

/** `args` adds command-line switches, for example a fake microphone (see fakeMicrophoneArgs). */
export function launchChromium(options: { args?: string[] } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      ...(options.args ?? []),
    ],
  });
}

/** A microphone that plays `wavFile` (looped), with the permission prompt answered yes. */
export function fakeMicrophoneArgs(wavFile: string): string[] {
  return [
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${wavFile}`,
  ];
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
