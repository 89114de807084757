// Dictation in a real Chromium with a fake microphone that plays a WAV of tones made here: record
// from the composer, stop, and the fake gateway's transcript lands at the caret in the middle of a
// draft; cancel keeps the draft as it was; the shortcut; the Dictation page (model from both
// slices, a test recording with its level meter, transcript and cost); a denied microphone and a
// missing model said in words; the VS Code panel's way out; axe at 320 px, light and dark.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { fakeMicrophoneArgs, launchChromium, screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { seriousViolations } from "../helpers/axe";
import { makeTempDir, removeDir } from "../helpers/temp";
import { writeToneWav } from "../helpers/wav";
import { FAKE_TRANSCRIPT } from "../fake-gateway/audio";

describe("web UI: dictation", function () {
  this.timeout(180_000);
  let ui: BrowserStack | undefined;
  let dir: string;

  before(async function () {
    dir = makeTempDir();
    const wav = writeToneWav(path.join(dir, "tones.wav"), 3);
    ui = await startBrowserStack(this, {
      chromiumArgs: fakeMicrophoneArgs(wav),
      viewport: { width: 900, height: 800 },
    });
    // New chats start with a model, so the composer takes text without going through the model picker.
    await ui.stack.api("PATCH", "/api/settings/app", { defaultModel: "fake/echo" });
  });

  after(async () => {
    await ui?.stop();
    if (dir) removeDir(dir);
  });

  const signIn = async (page: Page) => {
    await page.goto(`${ui!.stack.url}/?token=${ui!.stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  };
  const openNewChat = async (page: Page) => {
    await page.getByRole("button", { name: "New chat" }).click();
    await page.getByLabel("Message").waitFor();
    await page.waitForFunction(
      () => !(document.querySelector("textarea[aria-label='Message']") as HTMLTextAreaElement).disabled,
    );
  };
  const setModel = (modelId: string | null) =>
    ui!.stack.api("PATCH", "/api/settings/app", { dictation: modelId ? { modelId, providerId: "gateway" } : null });

  it("says a missing model in words and links to the Dictation page", async () => {
    const { page } = ui!;
    await signIn(page);
    await openNewChat(page);
    await page.getByRole("button", { name: "Dictate" }).click();
    const alert = page.getByRole("alert", { name: "Dictation problem" });
    await alert.getByText("No speech-to-text model is chosen yet.").waitFor();
    await alert.getByRole("link", { name: "Choose a model on the Dictation page" }).click();
    await page.getByRole("heading", { name: "Dictation" }).waitFor();
    assert.equal(new URL(page.url()).hash, "#/settings/dictation");
  });

  it("offers both slices with prices on the Dictation page, saves the choice, and tests it with a meter, the transcript and its cost", async () => {
    const { page, stack } = ui!;
    const select = page.getByLabel("Speech-to-text model");
    await page.locator("optgroup[label='Transcription models'] option").first().waitFor({ state: "attached" });
    const groups = await select.evaluate((el) =>
      Array.from(el.querySelectorAll("optgroup"), (g) => ({
        label: g.label,
        options: Array.from(g.querySelectorAll("option"), (o) => [o.value, o.textContent]),
      })),
    );
    assert.deepEqual(groups, [
      { label: "Transcription models", options: [["openai/whisper-1", "OpenAI: Whisper ($0.10 / $0.00 per 1M)"]] },
      {
        label: "Chat models that take audio",
        options: [["google/gemini-2.5-flash", "Google: Gemini 2.5 Flash (audio in) ($0.30 / $2.50 per 1M)"]],
      },
    ]);
    await select.selectOption("openai/whisper-1");
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    assert.deepEqual((await (await stack.api("GET", "/api/settings/app")).json()).dictation, {
      modelId: "openai/whisper-1",
      providerId: "gateway",
    });

    await page.getByRole("button", { name: "Record a test" }).click();
    await page.getByRole("button", { name: "Stop test" }).waitFor();
    // The fake microphone plays tones: the meter moves and the time runs.
    await page.waitForFunction(
      () => Number((document.querySelector("meter#dictation-level") as HTMLMeterElement | null)?.value) > 0.05,
    );
    await page.getByRole("timer", { name: "Test recording time" }).getByText("0:01").waitFor();
    await screenshot(page, "dictation-01-test-recording");
    await page.getByRole("button", { name: "Stop test" }).click();
    const result = page.getByRole("heading", { name: "Transcript" }).locator("..");
    await result.getByText(FAKE_TRANSCRIPT).waitFor();
    const usage = (await (await stack.api("GET", "/api/usage?groupBy=model")).json()) as {
      key: string;
      cost: number;
      turns: number;
    }[];
    const whisper = usage.find((r) => r.key === "openai/whisper-1")!;
    assert.equal(whisper.turns, 1, "the test's cost is in the usage ledger");
    const shown = await result.getByText("Cost of this test:").textContent();
    assert.match(shown!, /Cost of this test: \$0\.\d{5}$/);
    assert.equal(
      shown!.replace("Cost of this test: $", ""),
      whisper.cost.toFixed(5),
      "the page shows what the ledger counts",
    );
    assert.ok(whisper.cost > 0);
    await screenshot(page, "dictation-02-test-result");
  });

  it("records the test as WAV for an audio-input chat model, which the gateway's chat route takes", async () => {
    const { page } = ui!;
    await page.getByLabel("Speech-to-text model").selectOption("google/gemini-2.5-flash");
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    await page.getByRole("button", { name: "Record a test" }).click();
    await page.getByRole("button", { name: "Stop test" }).waitFor();
    await page.getByRole("timer", { name: "Test recording time" }).getByText("0:01").waitFor();
    await page.getByRole("button", { name: "Stop test" }).click();
    await page.getByText("through chat completions (audio in a message)").waitFor();
    await page.getByRole("heading", { name: "Transcript" }).locator("..").getByText(FAKE_TRANSCRIPT).waitFor();
  });

  it("records from the composer and inserts the transcript at the caret, in the middle of the draft", async () => {
    const { page } = ui!;
    await setModel("openai/whisper-1");
    await page.getByRole("link", { name: "Projects" }).click();
    await openNewChat(page);
    const message = page.getByLabel("Message");
    await message.fill("Before after");
    await message.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(7, 7));
    const dictate = page.getByRole("button", { name: "Dictate" });
    assert.equal(await dictate.getAttribute("aria-keyshortcuts"), "Control+Shift+Space");
    assert.match((await dictate.getAttribute("title"))!, /Ctrl\+Shift\+Space/);
    await dictate.click();
    const stop = page.getByRole("button", { name: "Stop dictation" });
    await stop.waitFor();
    await page.getByRole("button", { name: "Cancel dictation" }).waitFor();
    await page.getByRole("timer", { name: "Dictation time" }).getByText("0:01").waitFor();
    await screenshot(page, "dictation-03-composer-recording");
    await stop.click();
    await page.waitForFunction(
      () => (document.querySelector("textarea[aria-label='Message']") as HTMLTextAreaElement).value !== "Before after",
    );
    assert.equal(await message.inputValue(), `Before ${FAKE_TRANSCRIPT} after`);
    const caret = await message.evaluate((el: HTMLTextAreaElement) => [
      el.selectionStart,
      el.selectionEnd,
      document.activeElement === el,
    ]);
    assert.deepEqual(
      caret,
      [7 + FAKE_TRANSCRIPT.length + 1, 7 + FAKE_TRANSCRIPT.length + 1, true],
      "the caret follows the inserted words",
    );
    await page.getByRole("button", { name: "Dictate" }).waitFor();
    await screenshot(page, "dictation-04-composer-inserted");
  });

  it("cancels with Escape (and with Cancel dictation) and keeps the draft as it was; the shortcut starts and stops", async () => {
    const { page } = ui!;
    const message = page.getByLabel("Message");
    await message.fill("untouched draft");
    const heardBefore = await transcriptions();
    await message.press("Control+Shift+Space");
    await page.getByRole("button", { name: "Stop dictation" }).waitFor();
    await page.getByRole("timer", { name: "Dictation time" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Dictate" }).waitFor();
    await page.getByRole("button", { name: "Dictate" }).click();
    await page.getByRole("button", { name: "Cancel dictation" }).click();
    await page.getByRole("button", { name: "Dictate" }).waitFor();
    assert.equal(await message.inputValue(), "untouched draft");
    assert.equal(await transcriptions(), heardBefore, "a cancelled dictation is never sent");

    await message.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(el.value.length, el.value.length));
    await message.press("Control+Shift+Space");
    await page.getByRole("timer", { name: "Dictation time" }).getByText("0:01").waitFor();
    await message.press("Control+Shift+Space");
    await page.waitForFunction(() =>
      (document.querySelector("textarea[aria-label='Message']") as HTMLTextAreaElement).value.endsWith("microphone"),
    );
    assert.equal(await message.inputValue(), `untouched draft ${FAKE_TRANSCRIPT}`);
  });

  it("says an upstream failure in words, keeps the recording, and sends it again", async () => {
    const { page, stack } = ui!;
    // A model the gateway does not know: its answer (400, model does not exist) reaches the user.
    await stack.api("PATCH", "/api/settings/app", { models: [{ id: "fake/no-such-whisper", kind: "transcription" }] });
    await setModel("fake/no-such-whisper");
    const message = page.getByLabel("Message");
    await message.fill("");
    await page.getByRole("button", { name: "Dictate" }).click();
    await page.getByRole("timer", { name: "Dictation time" }).getByText("0:01").waitFor();
    await page.getByRole("button", { name: "Stop dictation" }).click();
    const alert = page.getByRole("alert", { name: "Dictation problem" });
    await alert.getByText(/The speech-to-text model failed: .*fake\/no-such-whisper does not exist/).waitFor();
    await screenshot(page, "dictation-05-upstream-failure");
    await setModel("openai/whisper-1");
    await alert.getByRole("button", { name: "Send again" }).click();
    await page.waitForFunction(() =>
      (document.querySelector("textarea[aria-label='Message']") as HTMLTextAreaElement).value.includes("microphone"),
    );
    assert.equal(await message.inputValue(), FAKE_TRANSCRIPT);
    assert.equal(await alert.count(), 0);
  });

  it("says a denied microphone permission in words, with Try again", async () => {
    // A browser whose user blocks the microphone: every request for it is refused.
    const blocking = await launchChromium({
      args: ["--use-fake-device-for-media-stream", "--deny-permission-prompts"],
    });
    try {
      const page = await (await blocking.newContext({ viewport: { width: 900, height: 800 } })).newPage();
      await signIn(page);
      await openNewChat(page);
      await page.getByRole("button", { name: "Dictate" }).click();
      const alert = page.getByRole("alert", { name: "Dictation problem" });
      await alert
        .getByText(
          "Parley is not allowed to use the microphone. Allow it for this site (the icon at the left of the address bar), then try again.",
        )
        .waitFor();
      await alert.getByRole("button", { name: "Try again" }).waitFor();
      await page.getByRole("button", { name: "Dictate" }).waitFor();
      await screenshot(page, "dictation-06-denied");
    } finally {
      await blocking.close();
    }
  });

  it("in VS Code's panel explains that the microphone is not available there and opens the chat in the browser", async () => {
    const { browser, stack } = ui!;
    const context = await browser.newContext({ viewport: { width: 320, height: 800 } });
    try {
      const panel = await context.newPage();
      // The webview's set-up, imitated: the host's page with its bootstrap JSON, and acquireVsCodeApi.
      const index = fs.readFileSync("media/webview/index.html", "utf8");
      const bootstrap = `<script type="application/json" id="parley-bootstrap">${JSON.stringify({ serverUrl: stack.url, token: stack.token })}</script>`;
      await panel.route(`${stack.url}/`, (route) =>
        route.fulfill({ contentType: "text/html", body: index.replace("</head>", `${bootstrap}</head>`) }),
      );
      await panel.addInitScript(() => {
        const posted: unknown[] = [];
        (window as unknown as { posted: unknown[] }).posted = posted;
        (window as unknown as { acquireVsCodeApi: unknown }).acquireVsCodeApi = () => ({
          postMessage(message: { type: string }) {
            posted.push(message);
            if (message.type === "hello")
              setTimeout(() => window.postMessage({ type: "ready" }, window.location.origin));
          },
        });
      });
      await panel.goto(`${stack.url}/`);
      await openNewChat(panel);
      const chatHash = new URL(panel.url()).hash;
      await panel.getByRole("button", { name: "Dictate" }).click();
      const alert = panel.getByRole("alert", { name: "Dictation problem" });
      await alert
        .getByText("VS Code's panels cannot use the microphone. Open Parley in your browser and dictate there.")
        .waitFor();
      const width = await panel.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 320, `the explanation fits the 320 px panel (page is ${width} px wide)`);
      await screenshot(panel, "dictation-07-vscode-panel");
      await alert.getByRole("button", { name: "Open in Browser" }).click();
      const posted = await panel.evaluate(
        () => (window as unknown as { posted: { type: string; url?: string }[] }).posted,
      );
      const opened = posted.at(-1)!;
      assert.equal(opened.type, "openExternal");
      assert.ok(
        opened.url!.endsWith(`/?token=${encodeURIComponent(stack.token)}${chatHash}`),
        `opens this chat in the browser: ${opened.url}`,
      );
      await panel.goto(`${stack.url}/#/settings/dictation`);
      await panel.getByRole("note").filter({ hasText: "VS Code's panels cannot use the microphone" }).waitFor();
      assert.equal(await panel.getByRole("button", { name: "Record a test" }).count(), 0);
    } finally {
      await context.close();
    }
  });

  it("is readable at 320 px with no serious axe violations on the Dictation page and the recording composer, light and dark", async () => {
    const { browser } = ui!;
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ viewport: { width: 320, height: 900 }, colorScheme });
      try {
        const narrow = await context.newPage();
        await signIn(narrow);
        await narrow.goto(`${ui!.stack.url}/#/settings/dictation`);
        await narrow.locator("optgroup[label='Transcription models'] option").first().waitFor({ state: "attached" });
        await narrow.getByRole("button", { name: "Record a test" }).click();
        await narrow.getByRole("timer", { name: "Test recording time" }).getByText("0:01").waitFor();
        await narrow.getByRole("button", { name: "Stop test" }).click();
        await narrow.getByRole("heading", { name: "Transcript" }).waitFor();
        let width = await narrow.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 320, `nothing sticks out sideways at 320 px (page is ${width} px wide)`);
        await screenshot(narrow, `dictation-320-${colorScheme}`);
        assert.deepEqual(await seriousViolations(narrow), [], `${colorScheme}, Dictation page`);

        await narrow.getByRole("link", { name: "Projects" }).click();
        await openNewChat(narrow);
        await narrow.getByRole("button", { name: "Dictate" }).click();
        await narrow.getByRole("timer", { name: "Dictation time" }).waitFor();
        width = await narrow.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 320, `the recording composer fits 320 px (page is ${width} px wide)`);
        await screenshot(narrow, `dictation-composer-320-${colorScheme}`);
        assert.deepEqual(await seriousViolations(narrow), [], `${colorScheme}, recording composer`);
        await narrow.getByRole("button", { name: "Cancel dictation" }).click();
      } finally {
        await context.close();
      }
    }
  });

  async function transcriptions(): Promise<number> {
    const rows = (await (await ui!.stack.api("GET", "/api/usage?groupBy=model")).json()) as {
      key: string;
      turns: number;
    }[];
    return rows.filter((r) => r.key === "openai/whisper-1").reduce((n, r) => n + r.turns, 0);
  }
});
