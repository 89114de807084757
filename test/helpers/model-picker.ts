// Picks a model in the chat header's searchable model picker (a combobox "Model" over a listbox
// "Models"), as a user does: type the id, and Enter on the first match (an exact id ranks first).
import assert from "node:assert/strict";
import type { Frame, FrameLocator, Locator, Page } from "playwright-core";

type Scope = Page | Frame | FrameLocator | Locator;

export function modelField(scope: Scope): Locator {
  return scope.getByRole("combobox", { name: "Model", exact: true });
}

export async function chooseModel(scope: Scope, modelId: string): Promise<void> {
  const field = modelField(scope);
  await field.click();
  await field.fill(modelId);
  await scope.getByRole("listbox", { name: "Models" }).getByRole("option").first().waitFor();
  await field.press("Enter");
  assert.equal(await field.inputValue(), modelId, `the model picker shows ${modelId}`);
}
