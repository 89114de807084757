import assert from "node:assert/strict";
import type { Chat } from "../../../src/shared/chats";
import type { Prompt } from "../../../src/shared/prompts";
import { cardChats, cardPrompts, chatCardIcon } from "../../../webview/src/lib/project-card";

const prompt = (id: string, fields: Partial<Prompt> = {}): Prompt => ({
  id,
  title: id.toUpperCase(),
  icon: "sparkles",
  showOnProjectCard: false,
  content: "x",
  role: "system",
  preset: null,
  createdAt: "",
  updatedAt: "",
  scope: "app",
  ...fields,
});
const chat = (id: string, fields: Partial<Chat> = {}): Chat => ({
  id,
  projectId: "p",
  title: `Chat ${id}`,
  promptId: null,
  cardPromptId: null,
  modelId: null,
  agent: null,
  tools: null,
  agentFiles: null,
  skills: null,
  leafId: null,
  worktreeBranch: null,
  createdAt: "",
  updatedAt: "",
  ...fields,
});

describe("UI project cards", () => {
  it("offers the prompts marked for project cards, not an app prompt the project overrides", () => {
    const prompts = [
      prompt("mine", { scope: "project", showOnProjectCard: true }),
      prompt("mine", { showOnProjectCard: true, overridden: true }),
      prompt("off"),
      prompt("app", { showOnProjectCard: true }),
    ];
    assert.deepEqual(
      cardPrompts(prompts).map((p) => `${p.scope}:${p.id}`),
      ["project:mine", "app:app"],
    );
  });

  it("lists the recent chats with how many more Show all adds, and every match of a search", () => {
    const chats = ["1", "2", "3", "4", "5", "6", "7"].map((id) => chat(id));
    assert.deepEqual(
      cardChats(chats, "", 5).shown.map((c) => c.id),
      ["1", "2", "3", "4", "5"],
    );
    assert.equal(cardChats(chats, "", 5).hidden, 2);
    assert.deepEqual(cardChats(chats, "", undefined), { shown: chats, hidden: 0 });
    assert.deepEqual(cardChats(chats, "  chat 7 ", 5), { shown: [chats[6]], hidden: 0 }, "a search looks past the cap");
    assert.equal(cardChats(chats.slice(0, 5), "", 5).hidden, 0);
  });

  it("shows the icon of the card prompt that started a chat, the project's prompt over the app's", () => {
    const prompts = [
      prompt("rev", { scope: "project", icon: "code", title: "Reviewer" }),
      prompt("rev", { icon: "bug", overridden: true }),
    ];
    assert.deepEqual(chatCardIcon(chat("a", { cardPromptId: "rev" }), prompts), { icon: "code", title: "Reviewer" });
    assert.equal(chatCardIcon(chat("b"), prompts), undefined);
    assert.equal(
      chatCardIcon(chat("c", { cardPromptId: "gone" }), prompts),
      undefined,
      "a deleted prompt leaves no icon",
    );
  });
});
