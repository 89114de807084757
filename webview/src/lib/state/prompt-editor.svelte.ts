// The prompt screen's editor: which prompt is open (a saved one, or a new one from a blank page or a
// profile), the draft of its fields, the guard that asks before unsaved changes are dropped, and
// save and delete with their errors at the field. The listing itself is the PromptsState's.
import type { PromptProfile } from "$shared/api-routes";
import type { Prompt, PromptScope } from "$shared/prompts";
import { ApiError } from "../api/client";
import {
  blankDraft,
  draftFromProfile,
  draftFromPrompt,
  fieldErrors,
  hasErrors,
  inputFromDraft,
  isDirty,
  validateDraft,
  type Draft,
  type FieldErrors,
} from "../prompt-draft";
import type { PromptsState } from "./prompts.svelte";

export class PromptEditorState {
  /** The saved prompt open in the editor; undefined for a new one. */
  current = $state.raw<Prompt | undefined>();
  draft = $state<Draft>(blankDraft("app"));
  baseline = $state.raw<Draft>(blankDraft("app"));
  dirty = $derived(isDirty(this.draft, this.baseline));
  errors = $state.raw<FieldErrors>({});
  /** What the user asked for while the draft had unsaved changes: run on "Discard changes". */
  pending = $state.raw<{ run: () => void } | undefined>();
  status = $state("");
  failed = $state(false);
  busy = $state(false);

  constructor(
    private readonly prompts: PromptsState,
    /** Where a new prompt goes unless the user picks the other scope. */
    readonly defaultScope: PromptScope,
  ) {
    this.draft = blankDraft(defaultScope);
    this.baseline = blankDraft(defaultScope);
    prompts.onReload = () => this.follow();
  }

  /** First open: the prompt a deep link names, else the first saved prompt, else a blank page. */
  openInitial(promptId?: string): void {
    const named = promptId ? this.prompts.find(promptId) : undefined;
    const first = named ?? this.prompts.prompts.find((p) => !p.overridden) ?? this.prompts.prompts[0];
    if (first) this.show(first);
    else this.showNew(blankDraft(this.defaultScope));
    if (promptId && !named) this.say(`No saved prompt has the id "${promptId}".`, true);
  }

  /** Opens another entry of the picker, after asking when that would drop unsaved changes. */
  select(prompt: Prompt): void {
    this.guard(() => this.show(prompt));
  }

  newBlank(): void {
    this.guard(() => this.showNew(blankDraft(this.defaultScope)));
  }

  fromProfile(profile: PromptProfile): void {
    this.guard(() => this.showNew(draftFromProfile(profile, this.defaultScope)));
  }

  /** "Copy from default": the profile's text into Content; an edit like any other (Save keeps it). */
  copyFromDefault(profile: PromptProfile): void {
    this.draft.content = profile.systemMessage;
    this.errors = { ...this.errors, content: undefined };
  }

  discard(): void {
    const action = this.pending;
    this.pending = undefined;
    action?.run();
  }

  keepEditing(): void {
    this.pending = undefined;
  }

  isSelected(prompt: Prompt): boolean {
    return this.current !== undefined && this.current.id === prompt.id && this.current.scope === prompt.scope;
  }

  async save(): Promise<boolean> {
    const local = validateDraft(this.draft);
    this.errors = local;
    if (hasErrors(local)) return this.say("Not saved: see the fields marked above.", true);
    const creating = this.draft.id === undefined;
    this.busy = true;
    this.say("Saving…");
    try {
      const input = inputFromDraft(this.draft);
      const saved = creating
        ? await this.prompts.create(this.draft.scope, input)
        : await this.prompts.update(this.draft.scope, this.draft.id!, input);
      this.show(saved);
      const elsewhere = creating && !this.prompts.find(saved.id, saved.scope);
      return this.say(
        elsewhere
          ? `Created in ${saved.scope === "project" ? "This project" : "App defaults"}, where it is listed.`
          : creating
            ? "Created"
            : "Saved",
      );
    } catch (error) {
      const issues = error instanceof ApiError ? fieldErrors(error.issues) : {};
      this.errors = issues;
      return this.say(`Not saved: ${(error as Error).message}`, true);
    } finally {
      this.busy = false;
    }
  }

  async remove(): Promise<boolean> {
    const prompt = this.current;
    if (!prompt) return false;
    this.busy = true;
    try {
      await this.prompts.remove(prompt.scope, prompt.id);
      this.current = undefined;
      this.openInitial();
      return this.say(`Deleted "${prompt.title || prompt.id}"`);
    } catch (error) {
      return this.say(`Not deleted: ${(error as Error).message}`, true);
    } finally {
      this.busy = false;
    }
  }

  private guard(run: () => void): void {
    if (this.dirty) this.pending = { run };
    else run();
  }

  /** Whether the page may be left now; if not, the user is asked, and `leave` runs if they discard. */
  mayLeave(leave: () => void): boolean {
    if (!this.dirty) return true;
    this.pending = { run: leave };
    return false;
  }

  private show(prompt: Prompt): void {
    this.current = prompt;
    this.draft = draftFromPrompt(prompt);
    this.baseline = draftFromPrompt(prompt);
    this.errors = {};
    this.pending = undefined;
    this.say("");
  }

  private showNew(draft: Draft): void {
    this.current = undefined;
    // A profile's text counts as unsaved: leaving it asks first. A blank page has nothing to lose.
    this.draft = draft;
    this.baseline = blankDraft(draft.scope);
    this.errors = {};
    this.pending = undefined;
    this.say("");
  }

  /** A new listing: the open prompt follows a change made elsewhere unless the user is editing it. */
  private follow(): void {
    const open = this.current;
    if (!open || this.busy) return;
    // A project prompt created from App defaults is not in the app's listing: it stays open here.
    if (open.scope === "project" && !this.prompts.projectScoped) return;
    const now = this.prompts.find(open.id, open.scope);
    if (!now) {
      // Deleted elsewhere: an untouched editor moves on; edits stay, and Save creates it again.
      if (!this.dirty) return this.openInitial();
      this.current = undefined;
      this.draft.id = undefined;
      this.baseline = blankDraft(this.draft.scope);
      return;
    }
    if (now.updatedAt !== open.updatedAt && !this.dirty) this.show(now);
    else this.current = now;
  }

  private say(text: string, failed = false): boolean {
    this.status = text;
    this.failed = failed;
    return !failed;
  }
}
