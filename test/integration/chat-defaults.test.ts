// The default prompt style (Settings, App defaults, Chat defaults) is what a new chat starts with,
// in the HTTP route and in every other way a chat is made (both go through ChatService).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { PROMPT_PROFILES } from "../../src/prompts/prompt-profiles";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents } from "../helpers/sse";

describe("default prompt style", () => {
  let f: ChatFixture;
  beforeEach(async () => {
    f = await startChatFixture();
  });
  afterEach(() => f.stop());

  const setStyle = (style: string) => f.s.api("PATCH", "/api/settings/app", { chat: { defaultPromptStyle: style } });
  const profile = (id: string) => PROMPT_PROFILES.find((p) => p.id === id)!;

  it("starts a new chat without a prompt while the style is none, the built-in default", async () => {
    const { settings } = await (await f.s.api("GET", "/api/settings/resolved")).json();
    assert.equal(settings.chat.defaultPromptStyle, "none");
    const chat = await newChat(f, { modelId: "fake/echo" });
    assert.equal((chat as any).promptId, null);
  });

  it("gives a new chat the chosen profile as its prompt, which the turn sends and the receipt names", async () => {
    assert.equal((await setStyle("extensive")).status, 200);
    const chat = await newChat(f, { modelId: "fake/echo" });
    assert.equal((chat as any).promptId, "extensive");
    const events = await readEvents(await send(f, chat.id, { content: "hello" }));
    const upstream = (f.gateway.completions.at(-1)!.body as any).messages;
    assert.deepEqual(upstream[0], { role: "system", content: profile("extensive").systemMessage });
    assert.deepEqual(events[0]!.data.context.prompt, { id: "extensive", scope: "default", title: "Extensive" });
    const stored = await (await f.s.api("GET", `/api/chats/${chat.id}`)).json();
    assert.ok(
      !JSON.stringify(stored.messages).includes(profile("extensive").systemMessage.slice(0, 40)),
      "never in the transcript",
    );
  });

  it("keeps an explicit prompt, honours promptId null, and lets the chat clear or set a profile later", async () => {
    await setStyle("very-small");
    await f.s.api("POST", "/api/prompts", { scope: "app", prompt: { id: "mine", content: "Mine." } });
    assert.equal(((await newChat(f, { promptId: "mine" })) as any).promptId, "mine");
    const none = await newChat(f, { promptId: null });
    assert.equal((none as any).promptId, null);
    const styled = await newChat(f, {});
    assert.equal((styled as any).promptId, "very-small");
    const cleared = await (await f.s.api("PATCH", `/api/chats/${styled.id}`, { promptId: null })).json();
    assert.equal(cleared.promptId, null);
    const set = await f.s.api("PATCH", `/api/chats/${styled.id}`, { promptId: "average" });
    assert.equal(set.status, 200, "a profile id is a prompt a chat may name");
    assert.equal((await f.s.api("PATCH", `/api/chats/${styled.id}`, { promptId: "no-such" })).status, 400);
  });

  it("leaves the prompt to the chat's agent when that agent brings one", async () => {
    fs.writeFileSync(
      path.join(f.s.projectDir, ".app.json"),
      JSON.stringify({
        agents: [
          { name: "reviewer", description: "Reviews", promptId: "review" },
          { name: "plain", description: "No prompt" },
        ],
        defaultAgent: "reviewer",
        prompts: [{ id: "review", content: "Review strictly." }],
      }),
    );
    await setStyle("average");
    assert.equal(((await newChat(f, {})) as any).promptId, null, "the project's default agent has a prompt");
    assert.equal(((await newChat(f, { agent: "plain" })) as any).promptId, "average", "an agent without a prompt");
  });

  it("prefers a saved prompt that has a profile's id", async () => {
    await setStyle("average");
    await f.s.api("POST", "/api/prompts", {
      scope: "app",
      prompt: { id: "average", title: "My average", content: "My own average." },
    });
    const chat = await newChat(f, { modelId: "fake/echo" });
    await readEvents(await send(f, chat.id, { content: "hi" }));
    assert.equal((f.gateway.completions.at(-1)!.body as any).messages[0].content, "My own average.");
  });

  it("refuses a style that is not one", async () => {
    assert.equal((await setStyle("huge")).status, 400);
  });
});
