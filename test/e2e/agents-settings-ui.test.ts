// Settings, Agents by hand (issue 37, item 12) in a real Chromium against `parley serve`: New agent
// with every field, the refusals shown at the field (a taken name from the server, a bad name before
// sending), Edit, and Delete asked first and styled as danger; each checked in `.app.json` itself.
// At 320 and 1280 px, light and dark, with axe finding nothing serious.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { checkScreens } from "../helpers/screens";
import type { Stack } from "../helpers/stack";

describe("web UI: Settings, Agents by hand", function () {
  this.timeout(180_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  const appJson = () => path.join(stack.projectDir, ".app.json");
  const ownAgents = () => (JSON.parse(fs.readFileSync(appJson(), "utf8")).agents ?? []) as Record<string, unknown>[];
  const item = (on: Page, name: string) => on.getByRole("listitem", { name: `Agent ${name}`, exact: true });
  const form = (on: Page, name: string) => on.getByRole("form", { name, exact: true });

  const openAgents = async (on: Page) => {
    await on.goto(`${stack.url}/#/settings/agents`);
    await on.getByRole("heading", { name: "Agents", exact: true }).waitFor();
    await item(on, "reviewer").waitFor();
  };

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    fs.writeFileSync(
      appJson(),
      JSON.stringify({ agents: [{ name: "reviewer", description: "Reviews diffs", model: "fake/tools" }] }),
    );
    const prompt = await stack.api("POST", "/api/prompts", {
      scope: "project",
      projectDir: stack.projectDir,
      prompt: { id: "review", title: "Strict review", content: "Review strictly." },
    });
    assert.equal(prompt.status, 201);
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(() => ui?.stop());

  it("creates an agent with a name, description, model pin, tools and prompt", async () => {
    await openAgents(page);
    await page.getByRole("button", { name: "New agent" }).click();
    const draft = form(page, "New agent");
    assert.equal(
      await draft.getByLabel("Name").evaluate((el) => el === document.activeElement),
      true,
      "the form takes the focus",
    );
    await draft.getByLabel("Name").fill("critic");
    await draft.getByLabel("Description").fill("Finds bugs, changes nothing");
    await draft.getByLabel("Model pin").fill("fake/echo");
    await draft.getByRole("radio", { name: "Only these tools" }).check();
    await draft.getByRole("checkbox", { name: "shell", exact: true }).check();
    await draft.getByRole("checkbox", { name: "file:read (reading only)" }).check();
    assert.equal(await draft.getByRole("checkbox", { name: "subagent" }).count(), 0, "agents do not nest");
    await draft.getByLabel("Prompt").selectOption({ label: "Strict review" });
    await screenshot(page, "agents-new-form-1280");
    await draft.getByRole("button", { name: "Create agent" }).click();

    const created = item(page, "critic");
    await created.waitFor();
    assert.equal(await draft.count(), 0, "the form closes");
    assert.match((await created.textContent())!, /Finds bugs, changes nothing/);
    assert.match((await created.textContent())!, /Model pin\s*fake\/echo/);
    assert.match((await created.textContent())!, /Tools\s*shell, file:read/);
    assert.match((await created.textContent())!, /Prompt\s*Strict review/);
    assert.deepEqual(ownAgents(), [
      { name: "reviewer", description: "Reviews diffs", model: "fake/tools" },
      {
        name: "critic",
        description: "Finds bugs, changes nothing",
        model: "fake/echo",
        tools: ["shell", "file:read"],
        promptId: "review",
      },
    ]);
  });

  it("shows a taken name (the server's 409) and a bad name (before sending) at the Name field", async () => {
    await openAgents(page);
    await page.getByRole("button", { name: "New agent" }).click();
    const draft = form(page, "New agent");
    const name = draft.getByLabel("Name");
    await name.fill("reviewer");
    await draft.getByRole("button", { name: "Create agent" }).click();
    await draft.getByText('Name: an agent named "reviewer" already exists in this project').waitFor();
    assert.equal(await name.getAttribute("aria-invalid"), "true");
    assert.match((await name.getAttribute("aria-describedby"))!, /name-error/, "the error is the field's description");

    await name.fill("has space");
    await draft.getByRole("button", { name: "Create agent" }).click();
    await draft.getByText(/^Name: agent names start with a letter or digit/).waitFor();
    await screenshot(page, "agents-name-error-1280");
    await draft.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "New agent" }).waitFor();
    assert.equal(ownAgents().length, 2, "nothing was written");
  });

  it("edits an agent: its name stays, the other fields are replaced, keys Parley does not know are kept", async () => {
    const file = JSON.parse(fs.readFileSync(appJson(), "utf8"));
    file.agents[1].notes = "kept by hand";
    fs.writeFileSync(appJson(), JSON.stringify(file, null, 2));
    await openAgents(page);
    await item(page, "critic").getByRole("button", { name: "Edit" }).click();
    const edit = form(page, "Edit agent critic");
    assert.equal(await edit.getByLabel("Name").getAttribute("readonly"), "");
    assert.equal(await edit.getByLabel("Model pin").inputValue(), "fake/echo");
    assert.equal(await edit.getByRole("checkbox", { name: "shell", exact: true }).isChecked(), true);
    await edit.getByLabel("Description").fill("Finds bugs");
    await edit.getByLabel("Model pin").fill("");
    await edit.getByRole("radio", { name: "Every project tool" }).check();
    await edit.getByLabel("Prompt").selectOption({ label: "None" });
    await edit.getByRole("button", { name: "Save agent" }).click();

    const saved = item(page, "critic");
    await saved.getByText("every project tool").waitFor();
    assert.match((await saved.textContent())!, /Model pin\s*none \(the chat's model\)/);
    assert.deepEqual(ownAgents()[1], { name: "critic", description: "Finds bugs", notes: "kept by hand" });
  });

  it("asks before deleting, with Delete agent styled as danger, and deletes only that agent", async () => {
    await openAgents(page);
    await item(page, "critic").getByRole("button", { name: "Delete" }).click();
    const question = page.getByRole("group", { name: "Delete critic?" });
    await question.waitFor();
    assert.equal(await question.evaluate((el) => el === document.activeElement), true, "the question has the focus");
    const danger = question.getByRole("button", { name: "Delete agent" });
    const [background, error] = await danger.evaluate((el) => [
      getComputedStyle(el.shadowRoot?.querySelector(".base") ?? el).backgroundColor,
      getComputedStyle(document.documentElement).getPropertyValue("--error").trim(),
    ]);
    const probe = await page.evaluate((colour) => {
      const span = document.createElement("span");
      span.style.color = colour;
      document.body.append(span);
      const value = getComputedStyle(span).color;
      span.remove();
      return value;
    }, error);
    assert.equal(background, probe, "the confirming button has the error colour");
    await screenshot(page, "agents-delete-question-1280");

    await question.getByRole("button", { name: "Cancel" }).click();
    await item(page, "critic").getByRole("button", { name: "Delete" }).waitFor();
    assert.equal(ownAgents().length, 2, "Cancel deletes nothing");

    await item(page, "critic").getByRole("button", { name: "Delete" }).click();
    await question.getByRole("button", { name: "Delete agent" }).click();
    await item(page, "critic").waitFor({ state: "detached" });
    assert.deepEqual(
      ownAgents().map((a) => a.name),
      ["reviewer"],
    );
  });

  it("fits 320 and 1280 px with the form and the question open, light and dark, with no serious axe violation", async () => {
    const opened = async (on: Page, action: (agent: Locator) => Promise<unknown>) => {
      await on.goto(`${stack.url}/?token=${stack.token}`);
      await on.getByRole("heading", { name: "Chats" }).waitFor();
      await openAgents(on);
      await action(item(on, "reviewer"));
    };
    await checkScreens(ui!.browser, "agents-list", (on) => opened(on, async () => {}));
    await checkScreens(ui!.browser, "agents-new", (on) =>
      opened(on, async () => {
        await on.getByRole("button", { name: "New agent" }).click();
        await form(on, "New agent").getByRole("radio", { name: "Only these tools" }).check();
        await form(on, "New agent").getByRole("button", { name: "Create agent" }).click();
        await form(on, "New agent")
          .getByText(/^Name: /)
          .waitFor();
      }),
    );
    await checkScreens(ui!.browser, "agents-edit", (on) =>
      opened(on, async (agent) => {
        await agent.getByRole("button", { name: "Edit" }).click();
        await form(on, "Edit agent reviewer").waitFor();
      }),
    );
    await checkScreens(ui!.browser, "agents-delete", (on) =>
      opened(on, async (agent) => {
        await agent.getByRole("button", { name: "Delete" }).click();
        await on.getByRole("group", { name: "Delete reviewer?" }).waitFor();
      }),
    );
  });
});
