// The @ popup's pure rules (spec, composer rules 10 to 15): the keyboard state machine, the rows as
// the list shows them (grouped by category with an empty query), highlighted name segments, the
// exact-action rule, and which picked files and MCP resources a text still references.
import { rankOthers } from "$shared/ranking/rank-mentions";
import { MENTION_CATEGORIES, type MentionCategory, type RankedMention } from "$shared/mentions";

export const CATEGORY_LABELS: Record<MentionCategory, string> = {
  files: "Files",
  agents: "Agents",
  actions: "Actions",
  tools: "Tools",
  mcp: "MCP",
  model: "Model",
};
/** One row's category in words, for rows of a mixed result list. */
export const CATEGORY_SINGULAR: Record<MentionCategory, string> = {
  files: "File",
  agents: "Agent",
  actions: "Action",
  tools: "Tool",
  mcp: "MCP tool",
  model: "Model",
};
export const FILTER_CHIPS = MENTION_CATEGORIES.map((category) => ({ category, label: CATEGORY_LABELS[category] }));

/** A row's kind in words: the category, or for MCP rows whether it is a tool, a resource or a prompt. */
export function rowKind(item: Pick<RankedMention, "category" | "mcp">): string {
  if (item.mcp?.kind === "resource") return "MCP resource";
  if (item.mcp?.kind === "prompt") return "MCP prompt";
  return CATEGORY_SINGULAR[item.category];
}

/** Down and Up wrap around; -1 when there is nothing to make active. */
export function moveActive(active: number, count: number, delta: 1 | -1): number {
  if (count === 0) return -1;
  if (active < 0 || active >= count) return delta === 1 ? 0 : count - 1;
  return (active + delta + count) % count;
}

export type KeyInput = {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  isComposing: boolean;
};
export type PopupState = { open: boolean; count: number; active: number };
/**
 * What a key does with the popup. `run`: the whole text is a complete custom action, which Enter runs
 * even when Enter would insert a newline and even if a file of a similar name is active (rule 15).
 * `pass`: the composer's own handling (send, newline, typing).
 */
export type KeyIntent =
  | { kind: "move"; active: number }
  | { kind: "select"; index: number; via: "enter" | "tab" }
  | { kind: "dismiss" }
  | { kind: "run" }
  | { kind: "pass" };

export function keyIntent(event: KeyInput, popup: PopupState, exactAction: boolean): KeyIntent {
  if (event.isComposing) return { kind: "pass" };
  const plain = !event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey;
  if (event.key === "Enter" && plain && exactAction) return { kind: "run" };
  if (!popup.open) return { kind: "pass" };
  switch (event.key) {
    case "ArrowDown":
      return plain ? { kind: "move", active: moveActive(popup.active, popup.count, 1) } : { kind: "pass" };
    case "ArrowUp":
      return plain ? { kind: "move", active: moveActive(popup.active, popup.count, -1) } : { kind: "pass" };
    case "Escape":
      return { kind: "dismiss" };
    case "Enter":
    case "Tab":
      if (!plain || popup.count === 0) return { kind: "pass" };
      return {
        kind: "select",
        index: popup.active >= 0 && popup.active < popup.count ? popup.active : 0,
        via: event.key === "Enter" ? "enter" : "tab",
      };
    default:
      return { kind: "pass" };
  }
}

/** The whole text (trimmed) is `@<id>` of a saved custom action: that id. */
export function exactAction(text: string, actionIds: readonly string[]): string | undefined {
  const match = /^@(\S+)$/.exec(text.trim());
  return match && actionIds.includes(match[1]!) ? match[1] : undefined;
}

export type Segment = { text: string; mark: boolean };

/** A name cut into plain and highlighted (`<mark>`) pieces; ranges out of bounds or overlapping are clamped. */
export function highlightSegments(label: string, ranges: readonly (readonly [number, number])[]): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const start = Math.max(at, Math.min(from, label.length));
    const end = Math.max(start, Math.min(to, label.length));
    if (end === start) continue;
    if (start > at) segments.push({ text: label.slice(at, start), mark: false });
    segments.push({ text: label.slice(start, end), mark: true });
    at = end;
  }
  if (at < label.length) segments.push({ text: label.slice(at), mark: false });
  return segments;
}

export type Section = {
  category: MentionCategory | undefined;
  label: string | undefined;
  rows: { item: RankedMention; index: number }[];
};

/**
 * The list as shown: with an empty query the results come by category, so each category gets a
 * heading; while searching, relevance decides the order across categories (files first, rule 10),
 * so the rows stay in one run, each naming its category.
 */
export function sections(results: readonly RankedMention[], grouped: boolean): Section[] {
  const rows = results.map((item, index) => ({ item, index }));
  if (!grouped) return rows.length ? [{ category: undefined, label: undefined, rows }] : [];
  const out: Section[] = [];
  for (const row of rows) {
    const last = out.at(-1);
    if (last?.category === row.item.category) last.rows.push(row);
    else out.push({ category: row.item.category, label: CATEGORY_LABELS[row.item.category], rows: [row] });
  }
  return out;
}

/** The `@` words of a text without their `@`, each also without the sentence's punctuation after it. */
function mentionedWords(text: string): Set<string> {
  const words = text
    .split(/\s+/)
    .filter((w) => w.startsWith("@"))
    .map((w) => w.slice(1));
  // A sentence may go on right after the path (`@a.ts, then…`): its punctuation is not part of it.
  return new Set([...words, ...words.map((w) => w.replace(/[.,;:!?)\]}'"]+$/, ""))]);
}

/** Picked files the text still mentions as a whole `@<path>` token, in the order picked, once each. */
export function referencedPaths(text: string, picked: readonly string[]): string[] {
  const tokens = mentionedWords(text);
  return [...new Set(picked)].filter((p) => tokens.has(p));
}

/** An MCP resource picked with @: the token it put in the text (without its `@`), and what it attaches. */
export type PickedResource = { token: string; serverId: string; uri: string; name: string };

/**
 * Picked resources whose token the text still holds, in the order picked, each resource once: they
 * go with the message as `referencedResources`. A pick whose token was deleted is dropped.
 */
export function referencedResources(text: string, picked: readonly PickedResource[]): PickedResource[] {
  const tokens = mentionedWords(text);
  const seen = new Set<string>();
  return picked.filter((p) => {
    const key = `${p.serverId}\u0000${p.uri}`;
    if (!tokens.has(p.token) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What the live region says about the list: the count, and the active row. */
export function announcement(
  results: readonly RankedMention[],
  active: number,
  query: string,
  filter: MentionCategory | undefined,
): string {
  if (results.length === 0)
    return query
      ? `No matches for @${query}`
      : filter
        ? `No ${CATEGORY_LABELS[filter]} in this project`
        : "Nothing to mention";
  const row = results[active];
  const count = `${results.length} result${results.length === 1 ? "" : "s"}`;
  return row
    ? `${count}. ${row.label}, ${rowKind(row)}${row.detail ? `, ${row.detail}` : ""}, ${active + 1} of ${results.length}`
    : count;
}

/**
 * The Model row is the model picked in this chat's header (rule 7), which the server does not know
 * until a message goes with it: the server's row is replaced by that one, ranked by the same rules
 * (the model is the last category, so it goes last).
 */
export function withCurrentModel(
  results: readonly RankedMention[],
  model: string | undefined,
  query: string,
  category: MentionCategory | undefined,
): RankedMention[] {
  if (!model) return [...results];
  const rest = results.filter((r) => r.category !== "model");
  return [
    ...rest,
    ...rankOthers([{ category: "model", label: model, detail: "Current model", insertText: `@${model}` }], query, {
      category,
    }),
  ];
}
