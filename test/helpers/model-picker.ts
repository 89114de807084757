// Picks a model in the composer's model picker, as a user does: the button "Model: <name>" opens a
// search field (a combobox "Model" over a listbox "Models"); type the id, and Enter on the first match
// (an exact id ranks first). The button's tooltip is the chosen model's id.
import assert from "node:assert/strict";
import type { Frame, FrameLocator, Locator, Page } from "playwright-core";

type Scope = Page | Frame | FrameLocator | Locator;

/** The composer's button that shows the chat's model and opens the picker. */
export function modelButton(scope: Scope): Locator {
  return scope.getByRole("button", { name: /^Model: / });
}

/** The picker's search field (there while the picker is open). */
export function modelField(scope: Scope): Locator {
  return scope.getByRole("combobox", { name: "Model", exact: true });
}

/** Opens the picker (when it is not open yet), with the caret in its search field. */
export async function openModelPicker(scope: Scope): Promise<Locator> {
  const field = modelField(scope);
  if ((await field.count()) === 0) await modelButton(scope).click();
  await field.waitFor();
  return field;
}

/** The id of the model the chat's next message goes to, as the picker's button says on hover. */
export async function chosenModel(scope: Scope): Promise<string | null> {
  return modelButton(scope).getAttribute("title");
}

export async function chooseModel(scope: Scope, modelId: string): Promise<void> {
  const field = await openModelPicker(scope);
  await field.fill(modelId);
  await scope.getByRole("listbox", { name: "Models" }).getByRole("option").first().waitFor();
  await field.press("Enter");
  await modelField(scope).waitFor({ state: "detached" });
  assert.equal(await chosenModel(scope), modelId, `the model picker shows ${modelId}`);
}
