// The prompt editor's draft: prefilled from a profile or a saved prompt, dirty only on real changes,
// sent with the preset removed when the switch is off, and errors placed at the field they concern.
import assert from "node:assert/strict";
import type { Prompt } from "../../../src/shared/prompts";
import {
  blankDraft,
  draftFromProfile,
  draftFromPrompt,
  fieldErrors,
  ICON_CHOICES,
  inputFromDraft,
  isDirty,
  validateDraft,
} from "../../../webview/src/lib/prompt-draft";

const saved: Prompt = {
  id: "review",
  title: "Reviewer",
  icon: "bug",
  showOnProjectCard: true,
  content: "Review strictly.",
  role: "system",
  preset: { tools: ["shell", "file"], skills: false },
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  scope: "project",
};

describe("prompt draft", () => {
  it("offers the six icons with their labels, in the schema's order", () => {
    assert.deepEqual(
      ICON_CHOICES.map((c) => `${c.icon}:${c.label}`),
      ["sparkles:Sparkles", "code:Code", "search:Search", "pencil:Writing", "bug:Debug", "book:Research"],
    );
  });

  it("prefills an unsaved prompt from a profile's title and system message", () => {
    const draft = draftFromProfile(
      { id: "average", title: "Average", systemMessage: "Be careful.", tag: "default" },
      "app",
    );
    assert.equal(draft.id, undefined);
    assert.equal(draft.title, "Average");
    assert.equal(draft.content, "Be careful.");
    assert.equal(draft.presetOn, false);
    assert.ok(isDirty(draft, blankDraft("app")), "a prefilled draft has something to lose");
  });

  it("reads a saved prompt's preset, a missing toggle as on", () => {
    const draft = draftFromPrompt(saved);
    assert.equal(draft.presetOn, true);
    assert.deepEqual(draft.preset, { tools: ["shell", "file"], agentFiles: true, skills: false });
    assert.equal(draftFromPrompt({ ...saved, preset: null }).presetOn, false);
  });

  it("is dirty only when something the user can change changed", () => {
    const base = draftFromPrompt(saved);
    assert.equal(isDirty(draftFromPrompt(saved), base), false);
    assert.equal(
      isDirty({ ...base, preset: { ...base.preset, tools: ["file", "shell"] } }, base),
      false,
      "tool order does not count",
    );
    assert.equal(isDirty({ ...base, title: " Reviewer  " }, base), false, "surrounding spaces are not saved");
    assert.equal(isDirty({ ...base, content: "Review strictly!" }, base), true);
    assert.equal(isDirty({ ...base, icon: "code" }, base), true);
    assert.equal(isDirty({ ...base, showOnProjectCard: false }, base), true);
    assert.equal(isDirty({ ...base, preset: { ...base.preset, skills: true } }, base), true);
    const off = { ...base, presetOn: false };
    assert.equal(isDirty(off, base), true);
    assert.equal(
      isDirty({ ...off, preset: { tools: [], agentFiles: false, skills: false } }, off),
      false,
      "a preset switched off hides its choices",
    );
  });

  it("sends preset null when the switch is off, and the choices when on", () => {
    const draft = draftFromPrompt(saved);
    assert.deepEqual(inputFromDraft(draft), {
      id: "review",
      title: "Reviewer",
      icon: "bug",
      showOnProjectCard: true,
      content: "Review strictly.",
      role: "system",
      preset: { tools: ["shell", "file"], agentFiles: true, skills: false },
    });
    assert.equal(inputFromDraft({ ...draft, presetOn: false }).preset, null);
    assert.equal("id" in inputFromDraft(blankDraft("app")), false, "a new prompt's id is the server's to pick");
  });

  it("validates with the shared schema and places the messages at their fields", () => {
    assert.deepEqual(validateDraft({ ...blankDraft("app"), content: "  \n " }), {
      content: "Content must not be empty.",
    });
    assert.deepEqual(validateDraft({ ...blankDraft("app"), content: "ok", title: "x".repeat(201) }), {
      title: "Title: at most 200 characters.",
    });
    assert.deepEqual(validateDraft({ ...blankDraft("app"), content: "ok" }), {});
  });

  it("maps a 400's issues to fields, and what no field owns to the form", () => {
    const errors = fieldErrors([
      { path: ["prompt", "content"], message: "content must not be empty" },
      { path: ["prompt", "content"], message: "second message ignored" },
      { path: ["prompt", "title"], message: "Too big: expected string to have <=200 characters" },
      { path: ["projectDir"], message: "projectDir is required for project scope" },
      { path: [], message: "Unrecognized key" },
      null,
    ]);
    assert.deepEqual(errors, {
      content: "Content must not be empty.",
      title: "Title: at most 200 characters.",
      form: ["projectDir is required for project scope.", "Unrecognized key.", "invalid."],
    });
    assert.deepEqual(fieldErrors(undefined), {});
  });
});
