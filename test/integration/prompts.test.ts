import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { until } from "../helpers/poll";
import { readEvents } from "../helpers/sse";
import { conversation } from "../helpers/upstream-messages";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("custom prompts", () => {
  let f: ChatFixture;
  let dir: string;
  const appJson = () => path.join(f.s.projectDir, ".app.json");
  const readAppJson = () => JSON.parse(fs.readFileSync(appJson(), "utf8"));
  beforeEach(async () => {
    f = await startChatFixture();
    dir = f.s.projectDir;
  });
  afterEach(() => f.stop());

  it("creates, lists, replaces and deletes an app prompt", async () => {
    const created = await f.s.api("POST", "/api/prompts", {
      scope: "app",
      prompt: { content: "Be terse.\nAlways.", icon: "code", preset: { tools: ["shell", "shell", "nope"] } },
    });
    assert.equal(created.status, 201);
    const prompt = await created.json();
    assert.match(prompt.id, /^prompt-[0-9a-f]{10}$/);
    assert.equal(prompt.title, "Be terse.", "a prompt saved without title is named after its first line");
    assert.equal(prompt.role, "system");
    assert.equal(prompt.showOnProjectCard, false);
    assert.deepEqual(prompt.preset, { tools: ["shell"] });
    assert.match(prompt.createdAt, ISO_UTC);
    assert.deepEqual(
      (await (await f.s.api("GET", "/api/prompts?scope=app")).json()).map((p: any) => p.id),
      [prompt.id],
    );

    // The clock has moved past the creation time, so an update is seen as later.
    await until(
      () => new Date().toISOString(),
      (now) => now > prompt.updatedAt,
      "the clock moves on",
    );
    const put = await (
      await f.s.api("PUT", `/api/prompts/${prompt.id}`, {
        scope: "app",
        prompt: { title: "Terse", content: "Be terse.", preset: null },
      })
    ).json();
    assert.equal(put.title, "Terse");
    assert.equal(put.preset, null, "turning the preset off removes it");
    assert.equal(put.createdAt, prompt.createdAt);
    assert.ok(put.updatedAt > prompt.updatedAt);

    assert.equal((await f.s.api("DELETE", `/api/prompts/${prompt.id}?scope=app`)).status, 204);
    assert.equal((await f.s.api("DELETE", `/api/prompts/${prompt.id}?scope=app`)).status, 404);
    assert.equal(
      (await f.s.api("PUT", `/api/prompts/${prompt.id}`, { scope: "app", prompt: { content: "x" } })).status,
      404,
    );
  });

  it("keeps ids unique within a scope and lets a project prompt override the app one", async () => {
    await f.s.api("POST", "/api/prompts", {
      scope: "app",
      prompt: { id: "review", title: "App review", content: "app" },
    });
    assert.equal(
      (await f.s.api("POST", "/api/prompts", { scope: "app", prompt: { id: "review", content: "again" } })).status,
      409,
    );
    const project = await f.s.api("POST", "/api/prompts", {
      scope: "project",
      projectDir: dir,
      prompt: { id: "review", title: "Project review", content: "project" },
    });
    assert.equal(project.status, 201);
    assert.equal(readAppJson().prompts[0].id, "review", "project prompts live in .app.json");
    const listing = await (await f.s.api("GET", `/api/prompts?projectDir=${encodeURIComponent(dir)}`)).json();
    assert.deepEqual(
      listing.map((p: any) => [p.id, p.scope, p.overridden ?? false]),
      [
        ["review", "project", false],
        ["review", "app", true],
      ],
    );
  });

  it("validates: only role system, unknown icons become sparkles, empty content and missing projectDir refused", async () => {
    const bad = await f.s.api("POST", "/api/prompts", { scope: "app", prompt: { content: "x", role: "user" } });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify((await bad.json()).error.issues), /role must be system/);
    assert.equal(
      (await (await f.s.api("POST", "/api/prompts", { scope: "app", prompt: { content: "x", icon: "rocket" } })).json())
        .icon,
      "sparkles",
    );
    assert.equal((await f.s.api("POST", "/api/prompts", { scope: "app", prompt: { content: "" } })).status, 400);
    assert.equal((await f.s.api("POST", "/api/prompts", { scope: "project", prompt: { content: "x" } })).status, 400);
    assert.equal(
      (await f.s.api("POST", "/api/prompts", { scope: "app", prompt: { content: "x", id: "has space" } })).status,
      400,
    );
    assert.equal((await f.s.api("GET", "/api/prompts")).status, 400);
  });

  it("coerces a stored non-system role on read, keeps it on disk, and skips a corrupt entry without hiding the others", async () => {
    fs.writeFileSync(
      appJson(),
      JSON.stringify({
        prompts: [
          { id: "old", content: "Old style", role: "assistant" },
          { id: 42 },
          "garbage",
          { id: "ok", title: "OK", content: "fine", showOnProjectCard: true },
        ],
      }),
    );
    const res = await f.s.api("GET", `/api/prompts?projectDir=${encodeURIComponent(dir)}`);
    assert.equal(res.headers.get("x-parley-skipped-entries"), "2");
    const prompts = await res.json();
    assert.deepEqual(
      prompts.map((p: any) => [p.id, p.role, p.showOnProjectCard, p.icon]),
      [
        ["old", "system", false, "sparkles"],
        ["ok", "system", true, "sparkles"],
      ],
    );
    assert.equal(readAppJson().prompts[0].role, "assistant", "the stored field is left as it is");
    // Editing another prompt keeps the damaged entries as the user wrote them.
    await f.s.api("PUT", "/api/prompts/ok", {
      scope: "project",
      projectDir: dir,
      prompt: { title: "OK2", content: "fine" },
    });
    assert.deepEqual(readAppJson().prompts.slice(1, 3), [{ id: 42 }, "garbage"]);
  });

  it("serves the three built-in profiles tagged default", async () => {
    const profiles = await (await f.s.api("GET", "/api/prompts/defaults")).json();
    assert.deepEqual(
      profiles.map((p: any) => [p.title, p.tag]),
      [
        ["Very small", "default"],
        ["Average", "default"],
        ["Extensive", "default"],
      ],
    );
    assert.ok(profiles.every((p: any) => p.systemMessage.length > 80));
  });

  it("clears promptId on every chat that referenced a deleted prompt", async () => {
    await f.s.api("POST", "/api/prompts", { scope: "app", prompt: { id: "gone", content: "x" } });
    const a = await newChat(f, { promptId: "gone" });
    const b = await newChat(f, { promptId: "gone" });
    const c = await newChat(f);
    const events: string[] = [];
    const unsubscribe = f.s.runtime.events.subscribe((e) => events.push(e.type));
    await f.s.api("DELETE", "/api/prompts/gone?scope=app");
    unsubscribe();
    for (const chat of [a, b, c])
      assert.equal((await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()).promptId, null);
    assert.equal(events.filter((e) => e === "chats.changed").length, 2, "one change event per cleared chat");
    assert.ok(events.includes("prompts.changed"));
  });

  it("marks a chat created from a project-card prompt, and only then", async () => {
    await f.s.api("POST", "/api/prompts", {
      scope: "project",
      projectDir: dir,
      prompt: { id: "card", content: "x", icon: "bug", showOnProjectCard: true },
    });
    await f.s.api("POST", "/api/prompts", { scope: "project", projectDir: dir, prompt: { id: "plain", content: "y" } });
    const fromCard = await newChat(f, { promptId: "card" });
    const plain = await newChat(f, { promptId: "plain" });
    const list = await (await f.s.api("GET", `/api/projects/${f.projectId}/chats`)).json();
    assert.equal(list.find((c: any) => c.id === (fromCard as any).id).cardPromptId, "card");
    assert.equal(list.find((c: any) => c.id === (plain as any).id).cardPromptId, null);
  });
});

describe("prompts and presets in a turn", () => {
  let f: ChatFixture;
  let dir: string;
  beforeEach(async () => {
    f = await startChatFixture();
    dir = f.s.projectDir;
    fs.writeFileSync(path.join(dir, "AGENTS.md"), "Use tabs.\n");
    fs.mkdirSync(path.join(dir, ".agents", "skills", "deploy"), { recursive: true });
    fs.writeFileSync(
      path.join(dir, ".agents", "skills", "deploy", "SKILL.md"),
      "---\nname: deploy\ndescription: Ship to production\n---\nSteps…\n",
    );
  });
  afterEach(() => f.stop());

  const turn = async (chatId: string) => {
    const events = await readEvents(await send(f, chatId, { content: "hello" }));
    return {
      events,
      // The environment message (contract 7.3) is left out: these tests are about the prompt's layers.
      upstream: conversation((f.gateway.completions.at(-1)!.body as any).messages) as {
        role: string;
        content: string;
      }[],
      receipt: events[0]!.data.context,
    };
  };

  it("sends the prompt first, never stores it, and leaves the stored chat as it was", async () => {
    await f.s.api("PATCH", `/api/settings/project?projectDir=${encodeURIComponent(dir)}`, {
      agentFiles: false,
      skills: false,
    });
    await f.s.api("POST", "/api/prompts", {
      scope: "app",
      prompt: {
        id: "style",
        content: "Answer like a pirate.",
        preset: { tools: ["shell"], agentFiles: true, skills: true },
      },
    });
    const chat = await newChat(f, {
      modelId: "fake/echo",
      promptId: "style",
      tools: ["file"],
      agentFiles: false,
      skills: false,
    });
    const before = await (await f.s.api("GET", `/api/chats/${chat.id}`)).json();
    const { upstream, receipt } = await turn(chat.id);
    assert.deepEqual(upstream[0], { role: "system", content: "Answer like a pirate." });
    assert.deepEqual(upstream.at(-1), { role: "user", content: "hello" });
    const after = await (await f.s.api("GET", `/api/chats/${chat.id}`)).json();
    assert.ok(!JSON.stringify(after.messages).includes("pirate"), "the prompt is not in the transcript");
    const settingsOf = (c: any) => ({
      promptId: c.promptId,
      tools: c.tools,
      agentFiles: c.agentFiles,
      skills: c.skills,
      agent: c.agent,
      title: c.title,
      modelId: c.modelId,
    });
    assert.deepEqual(
      settingsOf(after),
      settingsOf({ ...before, title: "hello" }),
      "only the title from the first message changed",
    );
    assert.deepEqual(receipt.prompt, { id: "style", scope: "app", title: "Answer like a pirate." });
    assert.deepEqual(receipt.tools, ["file", "shell"]);
    assert.deepEqual(receipt.agentFiles, [], "project agentFiles:false locks the preset's agent files off");
    assert.deepEqual(receipt.skills, []);
  });

  it("injects agent files and skills when the preset turns them on for a chat that had them off", async () => {
    await f.s.api("POST", "/api/prompts", {
      scope: "project",
      projectDir: dir,
      prompt: { id: "full", content: "P", preset: { agentFiles: true, skills: true } },
    });
    const chat = await newChat(f, { modelId: "fake/echo", promptId: "full", agentFiles: false, skills: false });
    const { upstream, receipt } = await turn(chat.id);
    assert.deepEqual(receipt.agentFiles, ["AGENTS.md"]);
    assert.deepEqual(receipt.skills, ["deploy"]);
    assert.equal(upstream[0]!.content, "P");
    assert.match(upstream[1]!.content, /## AGENTS\.md\n\nUse tabs\./);
    assert.match(upstream[2]!.content, /- deploy: Ship to production \(\.agents\/skills\/deploy\/SKILL\.md\)/);
    assert.equal(receipt.prompt.scope, "project");
  });

  it("keeps a tool set off even when the preset lists it", async () => {
    await f.s.api("PATCH", `/api/settings/project?projectDir=${encodeURIComponent(dir)}`, { tools: { shell: "off" } });
    await f.s.api("POST", "/api/prompts", {
      scope: "app",
      prompt: { id: "sh", content: "P", preset: { tools: ["shell", "task"] } },
    });
    const chat = await newChat(f, { modelId: "fake/echo", promptId: "sh", tools: [] });
    assert.deepEqual((await turn(chat.id)).receipt.tools, ["task"]);
  });

  it("injects the selected agent's prompt, and lets the chat's promptId win", async () => {
    fs.writeFileSync(
      path.join(dir, ".app.json"),
      JSON.stringify({
        agents: [{ name: "reviewer", description: "Reviews", promptId: "review" }],
        defaultAgent: "reviewer",
        prompts: [
          { id: "review", content: "Review strictly." },
          { id: "other", content: "Other prompt." },
        ],
      }),
    );
    const byAgent = await newChat(f, { modelId: "fake/echo" });
    const first = await turn(byAgent.id);
    assert.equal(first.upstream[0]!.content, "Review strictly.");
    assert.equal(first.receipt.agent, "reviewer");
    const own = await newChat(f, { modelId: "fake/echo", promptId: "other" });
    assert.equal((await turn(own.id)).upstream[0]!.content, "Other prompt.");
    const agents = await (await f.s.api("GET", `/api/agents?projectDir=${encodeURIComponent(dir)}`)).json();
    // The project's agents, then Parley's own (Plan).
    assert.deepEqual(
      agents.filter((a: { builtIn?: boolean }) => !a.builtIn),
      [{ name: "reviewer", description: "Reviews", promptId: "review" }],
    );
  });

  it("ignores a promptId whose prompt no longer exists", async () => {
    fs.writeFileSync(path.join(dir, ".app.json"), JSON.stringify({ prompts: [{ id: "temp", content: "Temporary." }] }));
    const chat = await newChat(f, { modelId: "fake/echo", promptId: "temp" });
    fs.writeFileSync(path.join(dir, ".app.json"), JSON.stringify({ prompts: [] }));
    const { events, upstream, receipt } = await turn(chat.id);
    assert.equal(events.at(-1)!.data.finishReason, "stop");
    assert.equal(receipt.prompt, null);
    assert.ok(!upstream.some((m) => m.content === "Temporary."));
  });
});
