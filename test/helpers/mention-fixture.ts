// A project for the @ popup's browser tests, seeded on disk and through the real routes: files whose
// names exercise every ranking tier, tagged files, agents (one with a model pin), a custom action,
// gates, and optionally the MCP "everything" server; plus the page helpers the suites share.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { until } from "./poll";
import type { Stack } from "./stack";

export const EVERYTHING = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");

export const SEED_FILES: Record<string, string> = {
  "src/components/Button.svelte": "<button>ok</button>\n",
  "src/lib/button-helpers.ts": "export const x = 1;\n",
  "docs/guide.md": "# Guide\n",
  "docs/agent-one-notes.md": "# Notes on agent one\n",
  "deploy.md": "# How we deploy\n",
  // Query "view": one file per ranking tier (rule 9).
  view: "exact name\n",
  "viewer.ts": "name prefix\n",
  "src/chat-view.ts": "word start\n",
  "src/preview.ts": "name substring\n",
  "views/index.ts": "path prefix\n",
  "ui/overview/panel.ts": "path substring\n",
  "notes/plain.md": "other search text (a tag)\n",
  "very-important-entry-wrapper.ts": "fuzzy\n",
};

export const APP_JSON = {
  agents: [
    { name: "reviewer", description: "Reviews changes", model: "fake/tools" },
    ...["one", "two", "three", "four", "five"].map((n) => ({ name: `agent-${n}`, description: `Agent number ${n}` })),
  ],
  actions: [
    {
      id: "deploy",
      label: "Deploy site",
      description: "Publishes the site",
      run: { shell: "echo deployed-by-action" },
    },
  ],
  fileTags: { "docs/guide.md": ["handbook"], "notes/plain.md": ["viewing"] },
  toolGates: { shell: "allow", "mcp__everything__get-sum": "allow", mcp__everything__echo: "allow" },
};

export function writeAppJson(projectDir: string, extra: Record<string, unknown> = {}): void {
  fs.writeFileSync(path.join(projectDir, ".app.json"), JSON.stringify({ ...APP_JSON, ...extra }, null, 2));
}

export async function seedProject(stack: Stack): Promise<void> {
  for (const [file, text] of Object.entries(SEED_FILES)) {
    fs.mkdirSync(path.dirname(path.join(stack.projectDir, file)), { recursive: true });
    fs.writeFileSync(path.join(stack.projectDir, file), text);
  }
  writeAppJson(stack.projectDir);
  const project = (await (await stack.api("POST", "/api/projects", { dir: stack.projectDir })).json()) as {
    id: string;
  };
  // The action runs a shell command of the project's own: the project must be trusted.
  assert.equal((await stack.api("POST", `/api/projects/${project.id}/trust`, { trusted: true })).status, 200);
}

/** Adds the MCP "everything" server (app scope) and waits for it to be ready in the project. */
export async function startEverything(stack: Stack): Promise<void> {
  const query = `projectDir=${encodeURIComponent(stack.projectDir)}`;
  await stack.api("PATCH", "/api/settings/app", {
    mcpServers: [
      {
        id: "everything",
        name: "Everything",
        transport: "stdio",
        command: process.execPath,
        args: [EVERYTHING, "stdio"],
      },
    ],
  });
  await stack.api("POST", `/api/mcp/servers/everything/restart?${query}`);
  const servers = async () =>
    (await (await stack.api("GET", `/api/mcp/servers?${query}`)).json()) as { id: string; status: string }[];
  await until(
    servers,
    (list) => list.find((s) => s.id === "everything")?.status === "ready",
    "the MCP server did not become ready",
    30_000,
  );
}

/** The popup as a test reads it. */
export function popup(page: Page) {
  const box = page.getByRole("combobox", { name: "Message" });
  const listbox = page.getByRole("listbox", { name: "Mentions" });
  const options = listbox.getByRole("option");
  const labels = () => listbox.locator(".option:not(.empty) .label").allTextContents();
  /** The listbox is aria-busy while the rows answer an older keystroke than the last. */
  const busy = async () =>
    (await listbox.getAttribute("aria-busy", { timeout: 1_000 }).catch(() => "true")) !== "false";
  return {
    box,
    listbox,
    options,
    labels,
    filter: page.getByRole("toolbar", { name: "Filter" }),
    parameters: page.getByRole("toolbar", { name: "Parameters" }),
    /** Rows as `[category-or-group, label, detail]`; one `["busy"]` row while a search is on its way. */
    rows: async () =>
      (await busy())
        ? [["busy"]]
        : listbox
            .locator(".option:not(.empty)")
            .evaluateAll((nodes) =>
              nodes.map((n) => [
                n.querySelector(".kind")?.textContent ??
                  n.closest("[role=group]")?.querySelector(".heading")?.textContent ??
                  "",
                n.querySelector(".label")?.textContent ?? "",
                n.querySelector(".detail")?.textContent ?? "",
              ]),
            ),
    /** Empties the box (the popup closes) and types `text` key by key. */
    async type(text: string) {
      await box.fill("");
      await box.pressSequentially(text);
    },
    /** Waits until the rows answer the last keystroke and their labels satisfy `ok`. */
    waitLabels: async (ok: (labels: string[]) => boolean, what: string, timeoutMs?: number) =>
      (await until(
        async () => ((await busy()) ? undefined : await labels()),
        (l) => l !== undefined && ok(l),
        what,
        timeoutMs,
      ))!,
    caret: () => box.evaluate((t: HTMLTextAreaElement) => t.selectionStart),
  };
}
