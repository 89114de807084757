// The settings pages (issue 18) in a real Chromium against `parley serve`: a tool gate changed on
// This project reaches the tool catalog and the tools a chat turn offers; Reset to inherited; the
// Store settings in app DB round trip; the turn limits and the default prompt style saved on App
// defaults; the browser's light theme reaching the VS Code-styled controls; and every screen at
// 320 px with axe-core, light and dark.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { readEvents } from "../helpers/sse";
import type { Stack } from "../helpers/stack";

describe("web UI: settings pages", function () {
  this.timeout(180_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  let projectId: string;
  const q = () => `projectDir=${encodeURIComponent(stack.projectDir)}`;
  const appJson = () => path.join(stack.projectDir, ".app.json");
  const json = async (method: string, route: string, body?: unknown) => (await stack.api(method, route, body)).json();
  const gateInCatalog = async (name: string) =>
    ((await json("GET", `/api/tools/catalog?${q()}`)) as { name: string; gate: string }[]).find((t) => t.name === name)!
      .gate;

  /** The tools a chat's next turn offers the model, from the turn's `turn.start` receipt. */
  async function offeredTools(): Promise<string[]> {
    const chat = await json("POST", `/api/projects/${projectId}/chats`, { modelId: "fake/echo" });
    const events = await readEvents(
      await stack.api("POST", `/api/chats/${chat.id}/messages/stream`, { content: "which tools?" }),
    );
    return events.find((e) => e.event === "turn.start")!.data.context.tools;
  }

  const openProjectPage = async () => {
    await page.goto(`${stack.url}/#/settings/project`);
    await page.getByRole("heading", { name: "This project" }).waitFor();
  };
  const toolRow = (name: string) => page.getByRole("group", { name, exact: true });

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    projectId = (await json("GET", "/api/projects"))[0].id;
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(() => ui?.stop());

  it("changes a tool gate on This project, and the catalog and a chat's offered tools follow", async () => {
    assert.ok((await offeredTools()).includes("task"), "offered before");
    await openProjectPage();
    const gate = page.getByRole("combobox", { name: "Gate for task", exact: true });
    assert.equal(await gate.inputValue(), "allow");
    assert.match((await toolRow("task").textContent())!, /Built-in default/);
    await gate.selectOption("off");
    await page.getByRole("region", { name: "Tool gates" }).getByRole("status").filter({ hasText: "Saved" }).waitFor();
    assert.equal(await gateInCatalog("task"), "off");
    assert.deepEqual(JSON.parse(fs.readFileSync(appJson(), "utf8")).toolGates, { task: "off" });
    const offered = await offeredTools();
    assert.ok(!offered.includes("task"), `an off tool is not offered: ${offered.join(", ")}`);
    assert.ok(offered.includes("report_progress"));
    await toolRow("task").getByText("Set in this project").waitFor();
    await screenshot(page, "settings-project-gates");
  });

  it("resets a gate and a value to inherited: the app's value applies again", async () => {
    await stack.api("PATCH", "/api/settings/app", { toolGates: { task: "ask" }, tags: ["from-app"] });
    await openProjectPage();
    await toolRow("task").getByRole("button", { name: "Reset to inherited" }).click();
    await toolRow("task").getByText("Inherited from app defaults").waitFor();
    await page.waitForFunction(
      () => (document.querySelector('select[aria-label="Gate for task"]') as HTMLSelectElement | null)?.value === "ask",
    );
    assert.equal(await gateInCatalog("task"), "ask");
    assert.equal(JSON.parse(fs.readFileSync(appJson(), "utf8")).toolGates?.task, undefined);

    const tags = page.getByRole("group", { name: "Tags", exact: true });
    await tags.getByText("Inherited from app defaults").waitFor();
    await page.locator("#project-tags input").fill("alpha, beta, alpha");
    await tags.getByRole("button", { name: "Save" }).click();
    await tags.getByText("Set in this project").waitFor();
    assert.deepEqual(JSON.parse(fs.readFileSync(appJson(), "utf8")).tags, ["alpha", "beta"]);
    await tags.getByRole("button", { name: "Reset to inherited" }).click();
    await tags.getByText("Inherited from app defaults").waitFor();
    assert.equal(await page.locator("#project-tags input").inputValue(), "from-app");
    assert.equal(JSON.parse(fs.readFileSync(appJson(), "utf8")).tags, undefined);
  });

  it("moves the settings into the app database and back (Store settings in app DB)", async () => {
    await openProjectPage();
    assert.match(
      (await page.locator("#storage-explained").textContent())!,
      /\.app\.json move into Parley's app database/,
    );
    const toggle = page.locator("vscode-checkbox", { hasText: "Store settings in app DB" });
    const storage = page.getByRole("group", { name: "Storage", exact: true });
    await toggle.click();
    await storage.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    await storage.getByText("store.sqlite").waitFor();
    assert.equal(fs.existsSync(appJson()), false, ".app.json left the folder");
    assert.equal((await json("GET", `/api/settings/project?${q()}`)).dbBacked, true);
    assert.equal(await gateInCatalog("task"), "ask", "the settings moved with it");

    await page.reload();
    await storage.getByText("store.sqlite").waitFor();
    await toggle.click();
    await storage.locator(".path", { hasText: /\.app\.json$/ }).waitFor();
    assert.equal(fs.existsSync(appJson()), true, ".app.json is back");
    assert.equal((await json("GET", `/api/settings/project?${q()}`)).dbBacked, false);
  });

  it("saves the turn limits and the default prompt style on App defaults", async () => {
    await page.goto(`${stack.url}/#/settings/defaults`);
    const steps = page.getByLabel("Most steps per turn");
    await steps.fill("abc");
    await steps.press("Enter");
    await page.getByRole("alert").filter({ hasText: "A whole number of steps" }).waitFor();
    await steps.fill("12");
    await steps.press("Enter");
    await page.locator(".row", { has: steps }).getByRole("status").filter({ hasText: "Saved" }).waitFor();
    const cost = page.getByLabel("Budget per turn, $");
    await cost.fill("0.25");
    await cost.press("Enter");
    await page.locator(".row", { has: cost }).getByRole("status").filter({ hasText: "Saved" }).waitFor();
    let { settings } = await json("GET", "/api/settings/resolved");
    assert.equal(settings.chat.maxSteps, 12);
    assert.equal(settings.chat.maxTurnCost, 0.25);

    await page.reload();
    await page.waitForFunction(() => (document.querySelector("#max-steps") as HTMLInputElement | null)?.value === "12");
    assert.equal(await cost.inputValue(), "0.25");
    await cost.fill("");
    await cost.press("Enter");
    await page.locator(".row", { has: cost }).getByRole("status").filter({ hasText: "Saved" }).waitFor();
    ({ settings } = await json("GET", "/api/settings/resolved"));
    assert.equal(settings.chat.maxTurnCost, undefined, "empty: no budget");

    await page.getByLabel("Default prompt style").selectOption("average");
    await page
      .locator(".row", { has: page.getByLabel("Default prompt style") })
      .getByRole("status")
      .filter({ hasText: "Saved" })
      .waitFor();
    const chat = await json("POST", `/api/projects/${projectId}/chats`, {});
    assert.equal(chat.promptId, "average", "a new chat takes the default prompt style");
    await screenshot(page, "settings-defaults-limits");
  });

  it("gives the VS Code-styled controls the browser's theme: a light text field in light, a dark one in dark", async () => {
    // The field's own input and its box, as computed; the first opaque one is what shows.
    const background = async (on: Page) => {
      const colours = await on
        .locator("#project-name")
        .evaluate((el) => [
          getComputedStyle(el.shadowRoot?.querySelector("input") ?? el).backgroundColor,
          getComputedStyle(el).backgroundColor,
        ]);
      const channels = colours
        .map((c) => (c.match(/[\d.]+/g) ?? []).map(Number))
        .find((v) => v.length === 3 || (v.length === 4 && v[3]! > 0));
      assert.ok(channels, `an opaque background among ${colours.join(", ")}`);
      const [r, g, b] = channels;
      return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
    };
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await ui!.browser.newContext({ viewport: { width: 900, height: 900 }, colorScheme });
      try {
        const on = await context.newPage();
        await on.goto(`${stack.url}/?token=${stack.token}`);
        await on.goto(`${stack.url}/#/settings/project`);
        await on.locator("#project-name").waitFor();
        const luminance = await background(on);
        if (colorScheme === "light")
          assert.ok(luminance > 0.85, `the text field is light in the light theme (luminance ${luminance.toFixed(2)})`);
        else assert.ok(luminance < 0.2, `the text field is dark in the dark theme (luminance ${luminance.toFixed(2)})`);
      } finally {
        await context.close();
      }
    }
  });

  it("fits every screen into 320 px with no serious axe violation, light and dark", async () => {
    const chat = await json("POST", `/api/projects/${projectId}/chats`, { modelId: "fake/echo", title: "Axe chat" });
    await readEvents(await stack.api("POST", `/api/chats/${chat.id}/messages/stream`, { content: "Hello **axe**" }));
    const screens: [string, string, (on: Page) => Promise<unknown>][] = [
      ["projects", "#/", (on) => on.getByRole("heading", { name: "Chats" }).waitFor()],
      ["chat", `#/chat/${chat.id}`, (on) => on.locator(".message.assistant").first().waitFor()],
      [
        "providers",
        "#/settings/providers",
        (on) => on.getByRole("heading", { name: "Model prices and kinds" }).waitFor(),
      ],
      ["defaults", "#/settings/defaults", (on) => on.getByLabel("Most steps per turn").waitFor()],
      [
        "prompts",
        "#/settings/prompts",
        (on) => on.getByRole("region", { name: "Custom prompts" }).getByLabel("Title", { exact: true }).waitFor(),
      ],
      ["dictation", "#/settings/dictation", (on) => on.getByLabel("Speech-to-text model").waitFor()],
      ["agents", "#/settings/agents", (on) => on.getByRole("link", { name: "Agents" }).waitFor()],
      ["project", "#/settings/project", (on) => on.getByRole("combobox", { name: "Gate for shell" }).waitFor()],
      ["mcp", "#/settings/mcp", (on) => on.getByRole("heading", { name: "MCP servers" }).waitFor()],
      ["access", "#/settings/access", (on) => on.getByRole("heading", { name: "Access and passkeys" }).waitFor()],
    ];
    const failures: string[] = [];
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await ui!.browser.newContext({ viewport: { width: 320, height: 800 }, colorScheme });
      try {
        const narrow = await context.newPage();
        await narrow.goto(`${stack.url}/?token=${stack.token}`);
        for (const [name, hash, ready] of screens) {
          await narrow.goto(`${stack.url}/${hash}`);
          await ready(narrow);
          const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
          if (width > 320) failures.push(`${name} (${colorScheme}) is ${width} px wide`);
          const violations = await seriousViolations(narrow);
          if (violations.length > 0) failures.push(`${name} (${colorScheme}): ${JSON.stringify(violations)}`);
          await screenshot(narrow, `screen-320-${name}-${colorScheme}`);
        }
      } finally {
        await context.close();
      }
    }
    assert.deepEqual(failures, []);
  });

  it("loads the settings pages on demand, says so when they cannot load, and loads them on the next visit", async () => {
    const fresh = await page.context().newPage();
    try {
      const blocked = "**/assets/SettingsView-*.js";
      await fresh.route(blocked, (route) => route.abort("connectionrefused"));
      await fresh.goto(`${stack.url}/#/settings/project`);
      await fresh.getByRole("alert").filter({ hasText: "Settings did not load" }).waitFor();
      await fresh.setViewportSize({ width: 320, height: 640 });
      await screenshot(fresh, "settings-19-load-failed-320");
      await fresh.unroute(blocked);
      const main = fresh.getByRole("navigation", { name: "Main" });
      await main.getByRole("link").first().click();
      await main.getByRole("link", { name: "Settings" }).click();
      await fresh.getByRole("heading", { name: "Gateway" }).waitFor();
      assert.equal(await fresh.getByRole("alert").filter({ hasText: "Settings did not load" }).count(), 0);
    } finally {
      await fresh.close();
    }
  });
});
