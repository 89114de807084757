// A subagent's own tool calls shown inside its card: cards whose `parentCallId` names a card of the
// same list leave the list and go under that card. Pure, so the live turn and the stored transcript
// nest the same way; a call whose parent is not in the list stays where it is.
import type { ToolCardData } from "./tool-cards";

export type Nested<T> = { items: T[]; inner: ReadonlyMap<string, ToolCardData[]> };

export function nestCards<T>(items: readonly T[], cardOf: (item: T) => ToolCardData | undefined): Nested<T> {
  const parents = new Set<string>();
  for (const item of items) {
    const card = cardOf(item);
    if (card) parents.add(card.callId);
  }
  const inner = new Map<string, ToolCardData[]>();
  const kept: T[] = [];
  for (const item of items) {
    const parent = cardOf(item)?.parentCallId;
    if (parent && parents.has(parent)) inner.set(parent, [...(inner.get(parent) ?? []), cardOf(item)!]);
    else kept.push(item);
  }
  return { items: kept, inner };
}
