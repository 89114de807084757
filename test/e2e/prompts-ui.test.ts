// Prompt management (issue 18) in a real Chromium against `parley serve`: create, edit and delete a
// prompt at app scope (Settings, App defaults) and project scope (Settings, This project, with the
// inherited app prompts and an overridden one marked); start from a default and Copy from default;
// the unsaved-changes guard and errors at the field; the preset tree (tri-state groups, a tool gated
// off and a master switch off locked, the saved preset read back through the API); the old deep link
// settings/prompts/<id>; the chat header's prompt chip; and axe-core at 320 px in light and dark.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { until } from "../helpers/poll";
import type { Stack } from "../helpers/stack";

type ApiPrompt = {
  id: string;
  title: string;
  content: string;
  icon: string;
  showOnProjectCard: boolean;
  preset: { tools?: string[]; agentFiles?: boolean; skills?: boolean } | null;
  scope: string;
  overridden?: boolean;
};

describe("web UI: custom prompts", function () {
  this.timeout(180_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  const dirQuery = () => `projectDir=${encodeURIComponent(stack.projectDir)}`;
  const appPrompts = async (): Promise<ApiPrompt[]> => (await stack.api("GET", "/api/prompts?scope=app")).json();
  const projectPrompts = async (): Promise<ApiPrompt[]> =>
    (await stack.api("GET", `/api/prompts?${dirQuery()}`)).json();
  const appJson = () => JSON.parse(fs.readFileSync(path.join(stack.projectDir, ".app.json"), "utf8"));

  const section = (on: Page = page) => on.getByRole("region", { name: "Custom prompts" });
  const picker = (on: Page = page) => section(on).getByRole("navigation", { name: "Prompts" });
  const entry = (title: string | RegExp, on: Page = page) => picker(on).getByRole("button", { name: title });
  const title = (on: Page = page) => section(on).getByLabel("Title", { exact: true });
  const content = (on: Page = page) => section(on).getByLabel("Content", { exact: true });
  const button = (name: string, on: Page = page) => section(on).getByRole("button", { name, exact: true });
  const statusLine = () => section().locator(".editor > .status");

  /** A fresh load of the UI at `hash` (a hash change alone would keep the open view's state). */
  async function open(hash: string, on: Page = page): Promise<void> {
    await on.goto("about:blank");
    await on.goto(`${stack.url}/${hash}`);
    await section(on)
      .getByRole("group", { name: /^(New prompt|Edit .+)$/ })
      .waitFor();
  }

  async function createPrompt(scope: "app" | "project", prompt: Record<string, unknown>): Promise<ApiPrompt> {
    const response = await stack.api("POST", "/api/prompts", {
      scope,
      ...(scope === "project" ? { projectDir: stack.projectDir } : {}),
      prompt,
    });
    assert.equal(response.status, 201, await response.clone().text());
    return response.json();
  }

  async function clearPrompts(): Promise<void> {
    for (const p of await projectPrompts()) {
      if (p.overridden) continue;
      const query = p.scope === "project" ? `scope=project&${dirQuery()}` : "scope=app";
      await stack.api("DELETE", `/api/prompts/${p.id}?${query}`);
    }
    for (const p of await appPrompts()) await stack.api("DELETE", `/api/prompts/${p.id}?scope=app`);
  }

  before(async function () {
    ui = await startBrowserStack(this, { viewport: { width: 1000, height: 900 } });
    ({ stack, page } = ui);
    fs.writeFileSync(path.join(stack.projectDir, "AGENTS.md"), "# Rules\nBe kind.\n");
    fs.mkdirSync(path.join(stack.projectDir, ".agents", "skills", "deploy"), { recursive: true });
    fs.writeFileSync(
      path.join(stack.projectDir, ".agents", "skills", "deploy", "SKILL.md"),
      "---\nname: deploy\ndescription: Ship to production\n---\nSteps\n",
    );
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(() => ui?.stop());
  beforeEach(() => clearPrompts());

  it("asks before another page drops unsaved changes (a settings tab, the main navigation)", async () => {
    await clearPrompts();
    await createPrompt("app", { id: "keeper", title: "Keeper", content: "Keep me." });
    await open("#/settings/defaults");
    await title().fill("Keeper, half-edited");
    const guard = section().getByRole("group", { name: "Unsaved changes" });

    await page.getByRole("navigation", { name: "Settings pages" }).getByRole("link", { name: "Providers" }).click();
    await guard.getByRole("button", { name: "Keep editing" }).click();
    assert.match(page.url(), /#\/settings\/defaults/, "still on the page");
    assert.equal(await title().inputValue(), "Keeper, half-edited");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link").first().click();
    await guard.getByRole("button", { name: "Discard changes" }).click();
    await page.getByRole("heading", { name: "Projects" }).waitFor();
    assert.equal((await appPrompts())[0]!.title, "Keeper", "nothing was saved");

    // Without changes nothing asks.
    await open("#/settings/defaults");
    await page.getByRole("navigation", { name: "Settings pages" }).getByRole("link", { name: "Providers" }).click();
    await page.waitForURL(/#\/settings\/providers/);
  });

  it("creates, edits and deletes an app prompt on App defaults, with errors at the field and the unsaved-changes guard", async () => {
    await open("#/settings/defaults");
    assert.equal(await page.getByRole("link", { name: "App defaults" }).getAttribute("aria-current"), "page");
    assert.equal(await picker().getByText("No saved prompts yet.").count(), 1);
    // Empty content: nothing is sent, the message sits at Content.
    await button("Create").click();
    await section().getByText("Content must not be empty.").waitFor();
    assert.equal(await content().getAttribute("aria-invalid"), "true");
    assert.equal(
      await content().getAttribute("aria-describedby"),
      await section().getByText("Content must not be empty.").getAttribute("id"),
    );
    assert.deepEqual(await appPrompts(), []);

    // A project is open: the new prompt asks where it goes; App default here.
    assert.ok(
      await section().getByRole("radio", { name: "App default" }).isChecked(),
      "App defaults proposes the app scope",
    );
    await title().fill("Strict reviewer");
    await content().fill("Review strictly.");
    await section().getByRole("radio", { name: "Debug" }).check();
    await section().getByRole("checkbox", { name: "Add to project card" }).check();
    await button("Create").click();
    await statusLine().filter({ hasText: "Created" }).waitFor();
    let [saved] = await appPrompts();
    assert.equal(saved!.title, "Strict reviewer");
    assert.equal(saved!.content, "Review strictly.");
    assert.equal(saved!.icon, "bug");
    assert.equal(saved!.showOnProjectCard, true);
    assert.equal(saved!.preset, null);
    assert.equal(await entry(/Strict reviewer/).getAttribute("aria-current"), "true");
    assert.equal(
      await entry(/Strict reviewer/)
        .getByText("App", { exact: true })
        .count(),
      0,
      "no scope badges on the app screen",
    );
    await section().getByRole("group", { name: "Edit Strict reviewer" }).waitFor();

    await content().fill("Review strictly, and say why.");
    await button("Save").click();
    await statusLine().filter({ hasText: "Saved" }).waitFor();
    [saved] = await appPrompts();
    assert.equal(saved!.content, "Review strictly, and say why.");

    // Unsaved changes: leaving asks; Keep editing keeps them, Discard drops them.
    await title().fill("Half-edited");
    await entry("New prompt").click();
    const guard = section().getByRole("group", { name: "Unsaved changes" });
    await guard.getByRole("button", { name: "Keep editing" }).click();
    assert.equal(await title().inputValue(), "Half-edited");
    await entry("New prompt").click();
    await guard.getByRole("button", { name: "Discard changes" }).click();
    await section().getByRole("group", { name: "New prompt" }).waitFor();
    assert.equal(await title().inputValue(), "");
    assert.equal((await appPrompts())[0]!.title, "Strict reviewer", "nothing was saved");

    // Delete asks first; Cancel keeps it.
    await entry(/Strict reviewer/).click();
    await button("Delete").click();
    const confirm = section().getByRole("group", { name: "Delete Strict reviewer?" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    assert.equal((await appPrompts()).length, 1);
    await button("Delete").click();
    await confirm.getByRole("button", { name: "Delete prompt" }).click();
    await statusLine().filter({ hasText: 'Deleted "Strict reviewer"' }).waitFor();
    assert.deepEqual(await appPrompts(), []);
    assert.equal(await entry(/Strict reviewer/).count(), 0);

    // From App defaults a new prompt can go to This project: created there, and it says so; it
    // stays open when the app's listing is read again (another app prompt appears meanwhile).
    await entry("New prompt").click();
    await section().getByRole("radio", { name: "This project" }).check();
    await content().fill("Here only.");
    await button("Create").click();
    const where = statusLine().filter({ hasText: "Created in This project, where it is listed." });
    await where.waitFor();
    assert.ok((await projectPrompts()).some((p) => p.title === "Here only." && p.scope === "project"));
    await createPrompt("app", { title: "Made elsewhere", content: "Elsewhere." });
    await entry(/Made elsewhere/).waitFor();
    assert.equal(await where.count(), 1);
    await section().getByRole("group", { name: "Edit Here only." }).waitFor();
    assert.equal(await entry(/Here only/).count(), 0, "not listed among the app's prompts");
  });

  it("manages project prompts on This project: inherited app prompts, an overridden one marked, start from a default, Copy from default", async () => {
    await createPrompt("app", { id: "shared", title: "Shared app prompt", content: "From the app." });
    await createPrompt("app", { id: "review", title: "App review", content: "App review." });
    await createPrompt("project", { id: "review", title: "Project review", content: "Project review." });
    const profiles: { id: string; title: string; systemMessage: string }[] = await (
      await stack.api("GET", "/api/prompts/defaults")
    ).json();
    await open("#/settings/project");
    assert.equal(await page.getByRole("link", { name: "This project" }).getAttribute("aria-current"), "page");
    // The project's own first, then the inherited ones with their scope; the overridden app prompt is marked.
    assert.deepEqual(await picker().locator("ul").first().locator(".title").allTextContents(), [
      "Project review",
      "Shared app prompt",
      "App review",
    ]);
    await entry(/Project review.*This project/).waitFor();
    await entry(/Shared app prompt.*App/).waitFor();
    await entry(/App review.*App.*overridden by this project/).waitFor();
    assert.equal(
      await entry(/Project review/).getAttribute("aria-current"),
      "true",
      "the first saved prompt is loaded",
    );
    assert.equal(await content().inputValue(), "Project review.");

    // Start from a default: an unsaved prompt with the profile's title and text, going to This project.
    const average = profiles.find((p) => p.title === "Average")!;
    await picker().getByRole("list", { name: "Start from a default" }).getByRole("button", { name: "Average" }).click();
    await section().getByRole("group", { name: "New prompt" }).waitFor();
    assert.equal(await title().inputValue(), "Average");
    assert.equal(await content().inputValue(), average.systemMessage);
    assert.ok(await section().getByRole("radio", { name: "This project" }).isChecked());

    // Copy from default replaces Content with the chosen profile's text.
    const extensive = profiles.find((p) => p.title === "Extensive")!;
    await section().getByLabel("Default", { exact: true }).selectOption({ label: "Extensive" });
    await button("Copy from default").click();
    assert.equal(await content().inputValue(), extensive.systemMessage);
    await title().fill("Thorough");
    await button("Create").click();
    await statusLine().filter({ hasText: "Created" }).waitFor();
    const created = appJson().prompts.find((p: ApiPrompt) => p.title === "Thorough");
    assert.ok(created, "a project prompt lives in .app.json");
    assert.equal(created.content, extensive.systemMessage);
    await entry(/Thorough.*This project/).waitFor();

    // Edit and delete it here.
    await content().fill("Thorough, but short.");
    await button("Save").click();
    await statusLine().filter({ hasText: "Saved" }).waitFor();
    assert.equal(appJson().prompts.find((p: ApiPrompt) => p.id === created.id).content, "Thorough, but short.");
    await button("Delete").click();
    await section()
      .getByRole("group", { name: "Delete Thorough?" })
      .getByRole("button", { name: "Delete prompt" })
      .click();
    await entry(/Thorough/).waitFor({ state: "detached" });
    assert.equal(
      appJson().prompts.some((p: ApiPrompt) => p.id === created.id),
      false,
    );

    // An app prompt created from the project screen shows as inherited.
    await entry("New prompt").click();
    await section().getByRole("radio", { name: "App default" }).check();
    await content().fill("Everywhere.");
    await button("Create").click();
    await entry(/Everywhere\..*App/).waitFor();
    assert.ok(
      (await appPrompts()).some((p) => p.title === "Everywhere."),
      "named after its first line, at app scope",
    );
    await screenshot(page, "prompts-01-project");
  });

  it("edits a preset in the tool tree: tri-state groups, a gated-off tool and a master switch locked, read back through the API", async () => {
    const prompt = await createPrompt("project", { id: "tools", title: "Tool user", content: "Use tools." });
    const gates = await stack.api("PATCH", `/api/settings/project?${dirQuery()}`, {
      toolGates: { file: "off" },
      skills: false,
    });
    assert.equal(gates.status, 200, await gates.text());
    await open("#/settings/project");
    const presetSwitch = section().getByRole("switch", { name: "Chat preset" });
    assert.equal(await presetSwitch.isChecked(), false);
    await presetSwitch.check();
    const tree = section().getByRole("group", { name: "What this preset switches on" });
    const native = tree.getByRole("checkbox", { name: "Native tools" });
    const box = (name: string) => tree.getByRole("checkbox", { name, exact: true });
    const indeterminate = (locator: Locator) => locator.evaluate((el) => (el as HTMLInputElement).indeterminate);

    // The gated-off tool is locked with the reason; the group ticks every other native tool.
    assert.ok(await box("file").isDisabled());
    assert.match(
      (await tree
        .locator("li.locked", { has: page.getByRole("checkbox", { name: "file", exact: true }) })
        .textContent())!,
      /Locked: Off in this project's tool gates/,
    );
    assert.equal(await native.isChecked(), false);
    await native.check();
    for (const name of ["shell", "subagent", "report_progress", "task", "ask_user", "web_fetch"])
      assert.ok(await box(name).isChecked(), name);
    assert.equal(await box("file").isChecked(), false, "a locked tool stays unticked");
    assert.equal(await indeterminate(native), false);
    await box("shell").uncheck();
    assert.equal(await indeterminate(native), true, "some ticked: the group shows indeterminate");
    assert.equal(await native.isChecked(), false);

    // Agent files lists AGENTS.md; Skills is locked by the project's master switch.
    const agentFiles = box("Agent files");
    assert.ok(await agentFiles.isChecked(), "a new preset keeps agent files on");
    await tree.getByText("AGENTS.md").waitFor();
    assert.ok(await box("Skills").isDisabled());
    assert.equal(await box("Skills").isChecked(), false);
    await tree.getByText("Locked: Skills are off for this project (Settings, This project).").waitFor();
    await tree.getByText("deploy").waitFor();
    await agentFiles.uncheck();
    await section().getByRole("radio", { name: "Code" }).check();
    await button("Save").click();
    await statusLine().filter({ hasText: "Saved" }).waitFor();
    let saved = (await projectPrompts()).find((p) => p.id === prompt.id)!;
    assert.deepEqual(saved.preset, {
      tools: ["subagent", "report_progress", "task", "ask_user", "web_fetch"],
      agentFiles: false,
      skills: true,
    });
    assert.equal(saved.icon, "code");
    await entry(/Tool user.*preset/).waitFor();
    await screenshot(page, "prompts-02-preset");

    // Read back: a fresh page shows the same tree.
    await open("#/settings/project");
    assert.ok(await presetSwitch.isChecked());
    assert.equal(await indeterminate(native), true);
    assert.equal(await box("shell").isChecked(), false);
    assert.ok(await box("task").isChecked());
    assert.equal(await agentFiles.isChecked(), false);
    assert.equal(await button("Save").count(), 1);
    assert.equal(
      await section().getByText("Unsaved changes", { exact: true }).count(),
      0,
      "loading a prompt is not an edit",
    );

    // A native group ticked fully, then the switch off removes the preset.
    await native.check();
    assert.equal(await native.isChecked(), true);
    await presetSwitch.uncheck();
    await button("Save").click();
    await statusLine().filter({ hasText: "Saved" }).waitFor();
    saved = (await projectPrompts()).find((p) => p.id === prompt.id)!;
    assert.equal(saved.preset, null);
    await stack.api("PATCH", `/api/settings/project?${dirQuery()}`, { toolGates: null, skills: null });
  });

  it("opens the old deep link settings/prompts/<id> with that prompt selected, and says so for an unknown id", async () => {
    await createPrompt("app", { id: "first", title: "First", content: "One." });
    await createPrompt("app", { id: "second", title: "Second", content: "Two." });
    await open("#/settings/prompts/second");
    await section().getByRole("group", { name: "Edit Second" }).waitFor();
    assert.equal(await entry(/Second/).getAttribute("aria-current"), "true");
    assert.equal(await content().inputValue(), "Two.");
    assert.equal(
      await page.getByRole("link", { name: "This project" }).getAttribute("aria-current"),
      "page",
      "with a project open, on This project",
    );
    // A deep link followed inside the open UI (a hash change) opens its prompt too.
    await page.evaluate(() => (window.location.hash = "#/settings/prompts/first"));
    await section().getByRole("group", { name: "Edit First" }).waitFor();
    await open("#/settings/prompts/nope");
    await section().getByText('No saved prompt has the id "nope".').waitFor();
    await section().getByRole("group", { name: "Edit First" }).waitFor();
  });

  it("shows the chat's prompt as a chip in the chat header, and changes and clears it there", async () => {
    await createPrompt("app", { id: "terse", title: "Terse", content: "Be terse.", icon: "code" });
    await createPrompt("project", { id: "chatty", title: "Chatty", content: "Be chatty." });
    const project = (await (await stack.api("GET", "/api/projects")).json())[0];
    const chat = await (
      await stack.api("POST", `/api/projects/${project.id}/chats`, { promptId: "terse", modelId: "fake/echo" })
    ).json();
    await page.goto(`${stack.url}/#/chat/${chat.id}`);
    const chip = page.getByLabel("Prompt for this chat");
    await page.locator(".chat-view h2", { hasText: "New chat" }).waitFor();
    await chip.locator("option", { hasText: "Chatty" }).waitFor({ state: "attached" });
    assert.equal(await chip.inputValue(), "terse");
    assert.equal(await chip.locator("option:checked").textContent(), "Terse");
    const chatOf = async () => (await (await stack.api("GET", `/api/chats/${chat.id}`)).json()).promptId;

    await chip.selectOption({ label: "Chatty" });
    await page.waitForFunction(
      () => (document.querySelector(".prompt-chip select") as HTMLSelectElement).value === "chatty",
    );
    await until(chatOf, (id) => id === "chatty", "the chat's prompt saved").catch(() => undefined);
    assert.equal(await chatOf(), "chatty");
    await screenshot(page, "prompts-03-chip");

    await page.getByRole("button", { name: "Clear prompt" }).click();
    await page.getByRole("button", { name: "Clear prompt" }).waitFor({ state: "detached" });
    assert.equal(await chatOf(), null);
    assert.equal(await chip.inputValue(), "");
    assert.equal(await chip.locator("option:checked").textContent(), "No prompt");
  });

  it("is usable at 320 px without sideways scrolling and has no serious axe violations, light and dark", async () => {
    await createPrompt("app", {
      id: "shared",
      title: "Shared app prompt with a rather long title that must wrap",
      content: "From the app.",
    });
    await createPrompt("project", { id: "local", title: "Local", content: "Here.", preset: { tools: ["shell"] } });
    const project = (await (await stack.api("GET", "/api/projects")).json())[0];
    const chat = await (
      await stack.api("POST", `/api/projects/${project.id}/chats`, { promptId: "local", modelId: "fake/echo" })
    ).json();
    for (const colorScheme of ["light", "dark"] as const) {
      const context: BrowserContext = await ui!.browser.newContext({
        viewport: { width: 320, height: 800 },
        colorScheme,
      });
      try {
        const narrow = await context.newPage();
        await narrow.goto(`${stack.url}/?token=${stack.token}`);
        await narrow.getByRole("heading", { name: "Chats" }).waitFor();
        // Each screen as a whole: the settings pages with the prompt editor in them, and the chat.
        const screens: [string, () => Promise<void>][] = [
          ["app", () => open("#/settings/defaults", narrow)],
          [
            "project",
            async () => {
              await open("#/settings/project", narrow);
              await section(narrow).getByRole("group", { name: "What this preset switches on" }).waitFor();
              await section(narrow).getByRole("button", { name: "Delete", exact: true }).click();
            },
          ],
          [
            "new",
            async () => {
              await open("#/settings/prompts/local", narrow);
              await section(narrow).getByLabel("Title", { exact: true }).fill("Changed");
              await entry("New prompt", narrow).click();
              await section(narrow).getByRole("group", { name: "Unsaved changes" }).waitFor();
            },
          ],
          [
            "chat",
            async () => {
              await narrow.goto(`${stack.url}/#/chat/${chat.id}`);
              await narrow.locator(".prompt-chip").waitFor();
            },
          ],
        ];
        for (const [name, show] of screens) {
          await show();
          const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width <= 320, `${name}: nothing sticks out sideways at 320 px (page is ${width} px wide)`);
          await screenshot(narrow, `prompts-320-${name}-${colorScheme}`);
          const violations = await seriousViolations(narrow);
          assert.deepEqual(violations, [], `${name}, ${colorScheme}: ${JSON.stringify(violations, null, 2)}`);
        }
      } finally {
        await context.close();
      }
    }
  });
});
