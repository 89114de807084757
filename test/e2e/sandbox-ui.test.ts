// The sandbox in the web UI (contract 7.5), in a real Chromium against `parley serve`: the gate row of
// `shell` on This project says "Sandboxed" or why not; the Sandbox section of This project switches it
// off (the row then says why), takes a host list (refusing a wildcard in words) and hidden paths
// (refusing one inside the project with the server's reason); App defaults edits the app's own layer;
// axe-core and 320 px in light and dark, screenshots at 1280.
import assert from "node:assert/strict";
import path from "node:path";
import type { Page } from "playwright-core";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import type { Stack } from "../helpers/stack";
import { checkNarrowInBothThemes } from "../helpers/narrow-screens";
import { seriousViolations } from "../helpers/axe";

describe("web UI: the sandbox", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  const q = () => `projectDir=${encodeURIComponent(stack.projectDir)}`;
  const json = async (method: string, route: string, body?: unknown) => (await stack.api(method, route, body)).json();
  const shellRow = (on: Page = page) => on.getByRole("group", { name: "shell", exact: true });
  const section = (on: Page = page) => on.getByRole("region", { name: "Sandbox" });

  async function openProjectPage(on: Page = page): Promise<void> {
    await on.goto(`${stack.url}/?token=${stack.token}#/settings/project`);
    await section(on).waitFor();
  }

  before(async function () {
    ui = await startBrowserStack(this, { viewport: { width: 1280, height: 900 } });
    ({ stack, page } = ui);
  });

  after(() => ui?.stop());

  it("says under shell's gate whether it runs sandboxed, as the catalog does", async () => {
    const row = (
      (await json("GET", `/api/tools/catalog?${q()}`)) as { name: string; sandboxed: boolean; sandboxReason?: string }[]
    ).find((tool) => tool.name === "shell")!;
    await openProjectPage();
    const expected = row.sandboxed ? "Sandboxed" : `Not sandboxed: ${row.sandboxReason}`;
    await shellRow().getByText(expected, { exact: true }).waitFor();
    assert.equal(
      await page
        .getByRole("group", { name: "file", exact: true })
        .getByText(/sandboxed/i)
        .count(),
      0,
    );
  });

  it("switches the sandbox off for this project, and the gate row says why it is not sandboxed", async () => {
    await openProjectPage();
    await section().getByLabel("Run commands in the sandbox").selectOption("off");
    await section().getByRole("status").filter({ hasText: "Saved" }).first().waitFor();
    await shellRow()
      .getByText("Not sandboxed: the sandbox is off in the settings (sandbox.mode)", { exact: true })
      .waitFor();
    assert.equal((await json("GET", `/api/settings/project?${q()}`)).project.sandbox.mode, "off");
    await screenshot(page, "sandbox-project-1280-light");
    assert.deepEqual(await seriousViolations(page), []);
    // Back to inherited: the key leaves the layer.
    await section().getByLabel("Run commands in the sandbox").selectOption("");
    await shellRow()
      .getByText(/^(Sandboxed|Not sandboxed: (?!the sandbox is off))/)
      .waitFor();
    assert.equal((await json("GET", `/api/settings/project?${q()}`)).project.sandbox?.mode, undefined);
  });

  it("takes a host list, refusing a wildcard in words before anything is sent", async () => {
    await openProjectPage();
    await section().getByLabel("Network").selectOption("hosts");
    const hosts = section().getByLabel("Allowed hosts");
    await hosts.fill("github.com *.npmjs.org");
    await hosts.blur();
    await section()
      .getByRole("alert")
      .filter({ hasText: /\*\.npmjs\.org: wildcards .* "on"/ })
      .waitFor();
    assert.equal((await json("GET", `/api/settings/project?${q()}`)).project.sandbox?.network, undefined);
    await hosts.fill("registry.npmjs.org, GitHub.com");
    await hosts.blur();
    await section().getByRole("status").filter({ hasText: "Saved" }).first().waitFor();
    assert.deepEqual((await json("GET", `/api/settings/project?${q()}`)).project.sandbox.network, [
      "registry.npmjs.org",
      "github.com",
    ]);
    await section().getByRole("alert").waitFor({ state: "detached" });
  });

  it("refuses a hidden path inside the project with the server's reason, and saves one outside", async () => {
    await openProjectPage();
    const hide = section().getByLabel("Also hide");
    await hide.fill(path.join(stack.projectDir, "secrets"));
    await hide.blur();
    await section()
      .getByRole("status")
      .filter({ hasText: /Not saved: \/.*\/secrets is inside the project/ })
      .waitFor();
    await hide.fill("/srv/keys");
    await hide.blur();
    await section().getByRole("status").filter({ hasText: "Saved" }).first().waitFor();
    assert.deepEqual((await json("GET", `/api/settings/project?${q()}`)).project.sandbox.hide, ["/srv/keys"]);
  });

  it("edits the app's own sandbox layer on App defaults", async () => {
    await page.goto(`${stack.url}/?token=${stack.token}#/settings/defaults`);
    await section().getByLabel("Network").selectOption("on");
    await section().getByRole("status").filter({ hasText: "Saved" }).first().waitFor();
    assert.equal((await json("GET", "/api/settings/app")).sandbox.network, "on");
    // The project's own list still wins there: the page shows the app layer, not the project's.
    assert.equal(await section().getByLabel("Network").inputValue(), "on");
    await screenshot(page, "sandbox-app-defaults-1280-light");
  });

  it("reads in the dark theme at 1280 px with no serious axe violation", async () => {
    const context = await ui!.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
    try {
      const dark = await context.newPage();
      await openProjectPage(dark);
      await shellRow(dark)
        .getByText(/sandboxed/i)
        .waitFor();
      await screenshot(dark, "sandbox-project-1280-dark");
      assert.deepEqual(await seriousViolations(dark), []);
    } finally {
      await context.close();
    }
  });

  it("fits 320 px in light and dark with no serious axe violation", async () => {
    await checkNarrowInBothThemes(ui!.browser, "sandbox-project", async (narrow) => {
      await openProjectPage(narrow);
      await shellRow(narrow)
        .getByText(/sandboxed/i)
        .waitFor();
      await section(narrow).getByLabel("Allowed hosts").waitFor();
    });
  });
});
