// What Settings, This project says about the project's trust (contract 7.1), and what the gate table,
// the approval card and the MCP trust question do with it. Pure, so it is tested without a browser.
import type { TrustState } from "$shared/projects";

type TrustItem = TrustState["covers"][number];
type TrustChange = TrustState["changes"][number];
export type TrustKind = TrustItem["kind"];

/** The state in words: a short label, the sentence under it, and a tone for its colour. */
export type TrustHeadline = { label: string; detail: string; tone: "ok" | "warning" | "neutral" };

export function trustHeadline(state: TrustState): TrustHeadline {
  if (state.restricted) {
    return {
      label: "VS Code Restricted Mode",
      detail:
        "VS Code does not trust this workspace, so nothing this project brings runs here. Trust the workspace in VS Code first (Manage Workspace Trust).",
      tone: "warning",
    };
  }
  if (state.covers.length === 0)
    return {
      label: "Nothing needs trust",
      detail: "This project's settings bring no allow gates, actions or MCP servers of their own.",
      tone: "neutral",
    };
  if (state.lapsed) {
    return {
      label: "Trust lapsed: the repository changed what you trusted",
      detail:
        "Its actions and MCP servers wait, and its allow gates count as ask, until you look at the changes and trust it again.",
      tone: "warning",
    };
  }
  if (state.trusted)
    return {
      label: "Trusted",
      detail: "Its actions can run, its MCP servers start, and its allow gates count.",
      tone: "ok",
    };
  return {
    label: "Not trusted",
    detail:
      "Its actions and MCP servers wait, and its allow gates count as ask, until you trust it. Trust only a repository whose commands you have read.",
    tone: "warning",
  };
}

const GROUPS: { kind: TrustKind; label: string }[] = [
  { kind: "gate", label: "Tool gates it loosens" },
  { kind: "action", label: "Actions" },
  { kind: "mcpServer", label: "MCP servers" },
  { kind: "sandbox", label: "Sandbox settings it loosens" },
];

export type TrustGroup = { kind: TrustKind; label: string; items: TrustItem[] };

/** What trust would enable, grouped: gates, then actions, then MCP servers; empty groups left out. */
export function trustGroups(covers: readonly TrustItem[]): TrustGroup[] {
  return GROUPS.map(({ kind, label }) => ({ kind, label, items: covers.filter((item) => item.kind === kind) })).filter(
    (group) => group.items.length > 0,
  );
}

const KIND_NAMES: Record<TrustKind, string> = {
  gate: "tool gate",
  action: "action",
  mcpServer: "MCP server",
  sandbox: "sandbox setting",
};
const CHANGE_NAMES: Record<TrustChange["change"], string> = { added: "Added", changed: "Changed", removed: "Removed" };

/** One change since the trust was given, in words: "Added action deploy2", then what it does now. */
export function changeText(change: TrustChange): { title: string; summary?: string } {
  const title = `${CHANGE_NAMES[change.change]} ${KIND_NAMES[change.kind]} ${change.id}`;
  return change.summary ? { title, summary: change.summary } : { title };
}

export type TextPart = { text: string; code: boolean };

/**
 * A summary with its command in backticks ("Deploy: runs `echo hi`") as text and code parts. The
 * command is everything between the first and the last backtick, so one that holds backticks itself
 * (`echo `date``) shows whole, as the user must read it before trusting it.
 */
export function codeParts(summary: string): TextPart[] {
  // An http server's URL ("connects to https://…"), as code too: a look-alike host is easier to spot.
  const url = /^(connects to )(\S+)$/.exec(summary);
  if (url)
    return [
      { text: url[1]!, code: false },
      { text: url[2]!, code: true },
    ];
  const first = summary.indexOf("`");
  const last = summary.lastIndexOf("`");
  if (first < 0 || last === first) return [{ text: summary, code: false }];
  const parts: TextPart[] = [
    { text: summary.slice(0, first), code: false },
    { text: summary.slice(first + 1, last), code: true },
    { text: summary.slice(last + 1), code: false },
  ];
  return parts.filter((part) => part.text !== "" || part.code);
}

/**
 * How "always allow" works for an approval: remembered as the project's gate (a trusted project, or
 * trust not read yet, where the server still refuses what it must), only after trusting the project
 * ("Trust and allow"), or not at all while VS Code's Restricted Mode keeps the project untrusted.
 */
export type AlwaysAllowMode = "remember" | "trust" | "none";

export function alwaysAllowMode(state: TrustState | undefined): AlwaysAllowMode {
  if (!state || state.trusted) return "remember";
  return state.restricted ? "none" : "trust";
}

/** Picking `gate` on This project asks to trust the project first: an `allow` would not count yet. */
export function allowNeedsTrust(state: TrustState | undefined, gate: string): boolean {
  return gate === "allow" && state !== undefined && !state.trusted;
}

/** The project's own MCP servers that wait for its trust (the question on the Chats and MCP pages). */
export function waitingServers(state: TrustState | undefined): TrustItem[] {
  return state && !state.trusted ? state.covers.filter((item) => item.kind === "mcpServer") : [];
}
