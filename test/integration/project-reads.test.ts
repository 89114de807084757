// GETs never write (they read a folder as it is, registering nothing), every other entry point goes
// through the same service rules, and a chat turn or a mention search reads the project once.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents } from "../helpers/sse";
import { makeTempDir, removeDir } from "../helpers/temp";

describe("project reads", () => {
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  /** Counts reads of project settings (file or database row) while `work` runs. */
  async function countReads(work: () => Promise<unknown>): Promise<number> {
    const settings = f.s.runtime.settings;
    const original = settings.readProjectLayer.bind(settings);
    let reads = 0;
    settings.readProjectLayer = (project) => {
      reads++;
      return original(project);
    };
    try {
      await work();
    } finally {
      settings.readProjectLayer = original;
    }
    return reads;
  }

  it("reads the project once per chat turn, with a prompt, an agent and settings in play", async () => {
    fs.writeFileSync(
      path.join(f.s.projectDir, ".app.json"),
      JSON.stringify({
        prompts: [{ id: "p1", title: "P", content: "Be brief.", role: "system" }],
        agents: [{ name: "rev", description: "Reviews", promptId: "p1" }],
        defaultAgent: "rev",
        tags: ["x"],
      }),
    );
    const chat = await newChat(f, { modelId: "fake/echo" });
    const reads = await countReads(async () => readEvents(await send(f, chat.id, { content: "hi" })));
    assert.equal(reads, 1);
    assert.equal(
      (f.gateway.completions.at(-1)!.body as any).messages[0].content,
      "Be brief.",
      "the prompt came from that one read",
    );
  });

  it("reads the project once per mention search and per catalog", async () => {
    fs.writeFileSync(
      path.join(f.s.projectDir, ".app.json"),
      JSON.stringify({ fileTags: { "a.md": ["docs"] }, agents: [{ name: "rev", description: "Reviews" }] }),
    );
    fs.writeFileSync(path.join(f.s.projectDir, "a.md"), "# a\n");
    const q = `projectDir=${encodeURIComponent(f.s.projectDir)}`;
    assert.equal(await countReads(() => f.s.api("GET", `/api/mentions/search?${q}&q=a`)), 1);
    assert.equal(await countReads(() => f.s.api("GET", `/api/mentions/catalog?${q}`)), 1);
  });

  it("never registers or writes on a GET, and registers on the first write", async () => {
    const root = makeTempDir();
    const dir = path.join(root, "fresh");
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, ".app.json"),
      JSON.stringify({ name: "Fresh", agents: [{ name: "a", description: "A" }] }),
    );
    const stale = path.join(dir, ".app.json.0a0a0a0a0a0a.parley-tmp");
    fs.writeFileSync(stale, "{}");
    const old = new Date(Date.now() - 10 * 60_000);
    fs.utimesSync(stale, old, old);
    try {
      const q = `projectDir=${encodeURIComponent(dir)}`;
      const before = await (await f.s.api("GET", "/api/projects")).json();
      for (const route of [
        `/api/settings/project?${q}`,
        `/api/settings/resolved?${q}`,
        `/api/prompts?${q}`,
        `/api/agents?${q}`,
        `/api/actions?${q}`,
        `/api/mentions/catalog?${q}`,
        `/api/mentions/search?${q}&q=x`,
        `/api/usage?${q}`,
      ]) {
        const res = await f.s.api("GET", route);
        assert.equal(res.status, 200, `${route}: ${await res.clone().text()}`);
      }
      assert.equal(
        (await (await f.s.api("GET", `/api/settings/project?${q}`)).json()).project.name,
        "Fresh",
        "read as it is",
      );
      assert.deepEqual(await (await f.s.api("GET", "/api/projects")).json(), before, "nothing registered");
      assert.deepEqual(
        fs.readdirSync(dir).sort(),
        [".app.json", ".app.json.0a0a0a0a0a0a.parley-tmp"],
        "nothing written or removed",
      );
      assert.equal((await f.s.api("PATCH", `/api/settings/project?${q}`, { tags: ["t"] })).status, 200);
      assert.ok(
        (await (await f.s.api("GET", "/api/projects")).json()).some((p: { dir: string }) => p.dir === dir),
        "a write registers it",
      );
    } finally {
      removeDir(root);
    }
  });

  it("applies the prompt rules to a chat the VS Code commands create, as to the route", async () => {
    const project = f.s.runtime.projects.byId(f.projectId);
    await assert.rejects(
      f.s.runtime.chatService.create(project, { promptId: "no-such-prompt" }),
      /no prompt with id "no-such-prompt"/,
    );
    fs.writeFileSync(
      path.join(f.s.projectDir, ".app.json"),
      JSON.stringify({
        prompts: [{ id: "card", title: "Card", content: "x", role: "system", showOnProjectCard: true }],
      }),
    );
    const chat = await f.s.runtime.chatService.create(project, { promptId: "card" });
    assert.equal(chat.cardPromptId, "card");
  });
});

describe("the default model", () => {
  it("is set by a PATCH and taken by a chat that names none", async () => {
    const f = await startChatFixture();
    try {
      assert.equal((await f.s.api("PATCH", "/api/settings/app", { defaultModel: "fake/echo" })).status, 200);
      const chat = await newChat(f);
      const events = await readEvents(await send(f, chat.id, { content: "which model?" }));
      assert.equal(events.find((e) => e.event === "turn.start")!.data.model, "fake/echo");
    } finally {
      await f.stop();
    }
  });
});

describe("a new chat's model", () => {
  it("is the one last used in the project, else the project's first models entry, else the default", async () => {
    const f = await startChatFixture();
    try {
      fs.writeFileSync(path.join(f.s.projectDir, ".app.json"), JSON.stringify({ models: [{ id: "fake/reasoner" }] }));
      assert.equal((await newChat(f)).modelId, "fake/reasoner", "the project's first models entry");
      const used = await newChat(f, { modelId: "fake/echo" });
      assert.equal((await newChat(f)).modelId, "fake/echo", "the model last used in the project");
      assert.equal(used.modelId, "fake/echo");
    } finally {
      await f.stop();
    }
  });
});

describe("a turn that never reached the gateway", () => {
  it("is neither billed nor counted in the chat's totals, and a retry reaches the model once", async () => {
    const f = await startChatFixture();
    try {
      const home = f.gateway.baseUrl;
      await f.s.api("PATCH", "/api/settings/app", {
        chat: { autoRetryFailedSends: false },
        providers: [{ id: "gateway", baseUrl: "http://127.0.0.1:9/v1" }],
      });
      await f.s.api("PATCH", "/api/settings/app", {
        providers: [{ id: "gateway", apiKey: "sk-for-the-dead-port-0123" }],
      });
      const chat = await newChat(f, { modelId: "fake/echo" });
      const events = await readEvents(await send(f, chat.id, { content: "hello once" }));
      assert.equal(events.find((e) => e.event === "error")!.data.code, "upstream_error");
      const stored = await (await f.s.api("GET", `/api/chats/${chat.id}`)).json();
      assert.equal(stored.usage.turns, 0);
      assert.equal(stored.messages.at(-1).usage, null);
      // Back to the gateway: the retried message goes upstream once.
      await f.s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", baseUrl: home }] });
      await readEvents(await send(f, chat.id, { content: "hello once" }));
      const sent = (f.gateway.completions.at(-1)!.body as any).messages.filter((m: any) => m.content === "hello once");
      assert.equal(sent.length, 1);
    } finally {
      await f.stop();
    }
  });
});
