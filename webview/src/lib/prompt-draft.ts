// The prompt editor's draft: what its fields hold, where it comes from (a saved prompt, a built-in
// profile, a blank page), whether it differs from what was loaded, what the server is sent, and the
// server's (or the shared schema's) complaints mapped to the field they are about. Pure: unit-tested.
import type { PromptProfile } from "$shared/api-routes";
import {
  PROMPT_ICONS,
  promptInputSchema,
  type Prompt,
  type PromptIcon,
  type PromptInput,
  type PromptScope,
} from "$shared/prompts";

/** The icon choice's labels, in the order the radio group shows them. */
export const PROMPT_ICON_LABELS: Record<PromptIcon, string> = {
  sparkles: "Sparkles",
  code: "Code",
  search: "Search",
  pencil: "Writing",
  bug: "Debug",
  book: "Research",
};
export const ICON_CHOICES = PROMPT_ICONS.map((icon) => ({ icon, label: PROMPT_ICON_LABELS[icon] }));

/** The preset part of a draft: the tools it adds, and the two instruction groups it switches. */
export type PresetDraft = { tools: string[]; agentFiles: boolean; skills: boolean };

export type Draft = {
  /** Absent until the prompt is saved; the server picks it. */
  id?: string;
  scope: PromptScope;
  title: string;
  content: string;
  icon: PromptIcon;
  showOnProjectCard: boolean;
  /** The "Chat preset" switch; off saves `preset: null` (no preset). */
  presetOn: boolean;
  preset: PresetDraft;
};

/**
 * A preset switched on starts neutral: it adds no tool, and keeps agent files and skills as a chat
 * without a preset has them (on), so switching it on changes nothing until a choice is made.
 */
export function neutralPreset(): PresetDraft {
  return { tools: [], agentFiles: true, skills: true };
}

export function blankDraft(scope: PromptScope): Draft {
  return {
    scope,
    title: "",
    content: "",
    icon: "sparkles",
    showOnProjectCard: false,
    presetOn: false,
    preset: neutralPreset(),
  };
}

/** An unsaved prompt prefilled with a profile's title and text ("Start from a default"). */
export function draftFromProfile(profile: PromptProfile, scope: PromptScope): Draft {
  return { ...blankDraft(scope), title: profile.title, content: profile.systemMessage };
}

/** A saved prompt as the editor shows it; a preset's missing toggle reads as the chat's own (on). */
export function draftFromPrompt(prompt: Prompt): Draft {
  const preset = prompt.preset;
  return {
    id: prompt.id,
    scope: prompt.scope,
    title: prompt.title,
    content: prompt.content,
    icon: prompt.icon,
    showOnProjectCard: prompt.showOnProjectCard,
    presetOn: preset !== null,
    preset: {
      tools: [...(preset?.tools ?? [])],
      agentFiles: preset?.agentFiles ?? true,
      skills: preset?.skills ?? true,
    },
  };
}

/** The body's `prompt` for POST/PUT /api/prompts. */
export function inputFromDraft(draft: Draft): PromptInput {
  return {
    ...(draft.id ? { id: draft.id } : {}),
    title: draft.title.trim(),
    icon: draft.icon,
    showOnProjectCard: draft.showOnProjectCard,
    content: draft.content,
    role: "system",
    preset: draft.presetOn
      ? { tools: [...draft.preset.tools], agentFiles: draft.preset.agentFiles, skills: draft.preset.skills }
      : null,
  };
}

/**
 * What the user can change, in one comparable form: tool order and a preset left off do not count,
 * nor the scope (a saved prompt's never changes; a new one's is only where it will go).
 */
function comparable(draft: Draft): string {
  return JSON.stringify([
    draft.title.trim(),
    draft.content,
    draft.icon,
    draft.showOnProjectCard,
    draft.presetOn,
    draft.presetOn ? [[...draft.preset.tools].sort(), draft.preset.agentFiles, draft.preset.skills] : null,
  ]);
}

/** Whether the draft holds changes that leaving it would lose. */
export function isDirty(draft: Draft, baseline: Draft): boolean {
  return comparable(draft) !== comparable(baseline);
}

/** Editor fields an error can be shown at; anything else goes to the form's own line. */
export type DraftField = "title" | "content" | "icon" | "preset";
export type FieldErrors = Partial<Record<DraftField, string>> & { form?: string[] };

const FIELD_NAMES: Record<string, DraftField> = { title: "title", content: "content", icon: "icon", preset: "preset" };

/** Words the user sees for the schema's own messages (zod's are written for developers). */
function friendly(field: DraftField | undefined, message: string): string {
  if (field === "content" && /empty|too small|>=\s*1/i.test(message)) return "Content must not be empty.";
  if (field === "title" && /too big|<=\s*200/i.test(message)) return "Title: at most 200 characters.";
  if (field === "content" && /too big/i.test(message)) return "Content: at most 200,000 characters.";
  return message.endsWith(".") ? message : `${message}.`;
}

/**
 * zod issues (from the shared schema here, or a 400's `issues`) by editor field: a path such as
 * `["prompt", "content"]` lands at Content; the first message per field wins.
 */
export function fieldErrors(issues: readonly unknown[] | undefined): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues ?? []) {
    const { path = [], message = "invalid" } = (issue ?? {}) as { path?: readonly PropertyKey[]; message?: string };
    const rest = path[0] === "prompt" ? path.slice(1) : path;
    const field = typeof rest[0] === "string" ? FIELD_NAMES[rest[0]] : undefined;
    if (field) errors[field] ??= friendly(field, message);
    else (errors.form ??= []).push(friendly(undefined, message));
  }
  return errors;
}

/** Checks a draft against the same schema the server uses, before anything is sent. */
export function validateDraft(draft: Draft): FieldErrors {
  const input = inputFromDraft(draft);
  // The server accepts blank-looking content; the editor asks for some words.
  if (!input.content.trim()) return { content: "Content must not be empty." };
  const parsed = promptInputSchema.safeParse(input);
  return parsed.success ? {} : fieldErrors(parsed.error.issues);
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}
