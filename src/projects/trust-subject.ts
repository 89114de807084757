// What a user's trust in a project covers (contract 7.1): the entries of the project's settings that
// run code, reach the network or loosen a gate (`allow` gates, actions, MCP servers). Each entry gets
// a hash, and the whole a fingerprint, so trust given to one version lapses when a pull changes it.
// Pure: the caller hands in the project layer as stored.
import { createHash } from "node:crypto";
import { isPlainObject, type JsonObject } from "../settings/settings-merge";

export type TrustItemKind = "gate" | "action" | "mcpServer" | "sandbox";

/** One entry that needs trust, with what the This project page shows of it. */
export type TrustItem = { kind: TrustItemKind; id: string; summary: string; hash: string };

export type TrustChange = {
  kind: TrustItemKind;
  id: string;
  change: "added" | "changed" | "removed";
  summary?: string;
};

/** What a stored trust remembers: the fingerprint and each entry's hash (to say what changed). */
export type TrustRecord = { fingerprint: string; items: Record<string, string> };

const hash = (value: unknown) => createHash("sha256").update(canonicalJson(value)).digest("hex");

/** JSON with object keys sorted, so a reformatted file keeps its fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const itemKey = (item: { kind: TrustItemKind; id: string }) => `${item.kind}:${item.id}`;

/** The loosening gates: `allow` under `toolGates` or its older name `tools` (the later key wins, as in `gatesOf`). */
function allowGates(layer: JsonObject): TrustItem[] {
  // A Map, not an object: a tool named `__proto__` is a plain name here too.
  const gates = new Map<string, unknown>();
  for (const key of ["tools", "toolGates"] as const) {
    const value = layer[key];
    if (isPlainObject(value)) for (const [name, gate] of Object.entries(value)) gates.set(name, gate);
  }
  return [...gates]
    .filter(([, gate]) => gate === "allow")
    .map(([name]) => ({
      kind: "gate" as const,
      id: name,
      summary: `${name}: allow`,
      hash: hash(["gate", name, "allow"]),
    }));
}

function describeRun(run: unknown): string {
  if (!isPlainObject(run)) return "runs nothing";
  if (typeof run.shell === "string") return `runs \`${run.shell}\``;
  if (typeof run.tool === "string")
    return `calls ${run.tool}${run.arguments === undefined ? "" : ` with ${JSON.stringify(run.arguments)}`}`;
  return "runs something Parley does not recognise";
}

function actions(layer: JsonObject): TrustItem[] {
  const list = Array.isArray(layer.actions) ? layer.actions : [];
  return list.filter(isPlainObject).map((action, index) => {
    const id = typeof action.id === "string" ? action.id : `#${index + 1}`;
    const label = typeof action.label === "string" ? action.label : id;
    return { kind: "action" as const, id, summary: `${label}: ${describeRun(action.run)}`, hash: hash(action) };
  });
}

function describeServer(server: JsonObject): string {
  if (server.transport === "http" || server.transport === "sse")
    return `connects to ${typeof server.url === "string" ? server.url : "(no URL)"}`;
  const args = Array.isArray(server.args) ? server.args.filter((a) => typeof a === "string") : [];
  const command = [typeof server.command === "string" ? server.command : "(no command)", ...args].join(" ");
  return `runs \`${command}\`${describeServerSandbox(server.sandbox)}`;
}

/** What a server's own sandbox settings loosen, for the trust prompt: out of the sandbox, or with the network. */
function describeServerSandbox(sandbox: unknown): string {
  if (!isPlainObject(sandbox)) return "";
  if (sandbox.mode === "off") return " outside the sandbox";
  if (sandbox.network === "on") return " with the network";
  if (Array.isArray(sandbox.network)) return ` with the network to ${sandbox.network.map(String).join(", ")}`;
  return "";
}

function mcpServers(layer: JsonObject): TrustItem[] {
  const list = Array.isArray(layer.mcpServers) ? layer.mcpServers : [];
  return list.filter(isPlainObject).map((server, index) => {
    const id = typeof server.id === "string" ? server.id : `#${index + 1}`;
    return { kind: "mcpServer" as const, id, summary: describeServer(server), hash: hash(server) };
  });
}

/**
 * The sandbox settings that loosen it (contract 7.5): `mode: "off"` and any network. Until the user
 * trusts the project they count as the safe value (`sandboxSettings`), so they wait for trust here.
 */
function sandboxLoosening(layer: JsonObject): TrustItem[] {
  const sandbox = isPlainObject(layer.sandbox) ? layer.sandbox : {};
  const items: TrustItem[] = [];
  if (sandbox.mode === "off")
    items.push({ kind: "sandbox", id: "mode", summary: "sandbox.mode: off", hash: hash(["sandbox", "mode", "off"]) });
  const network = sandbox.network;
  if (network === "on" || Array.isArray(network)) {
    const summary = network === "on" ? "sandbox.network: on" : `sandbox.network: ${network.map(String).join(", ")}`;
    items.push({ kind: "sandbox", id: "network", summary, hash: hash(["sandbox", "network", network]) });
  }
  return items;
}

/** Every entry of the project layer that waits for trust, in a stable order. */
export function trustSubject(layer: JsonObject | undefined): TrustItem[] {
  if (!layer) return [];
  return [...allowGates(layer), ...actions(layer), ...mcpServers(layer), ...sandboxLoosening(layer)];
}

/** The record a trust keeps of `items`. */
export function trustRecord(items: TrustItem[]): TrustRecord {
  return recordOf(Object.fromEntries(items.map((item) => [itemKey(item), item.hash])));
}

/** `record` with `items` added (or their new versions), its fingerprint worked out again. */
export function withItems(record: TrustRecord, items: TrustItem[]): TrustRecord {
  return recordOf({ ...record.items, ...trustRecord(items).items });
}

function recordOf(entries: Record<string, string>): TrustRecord {
  return {
    fingerprint: hash(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    items: entries,
  };
}

/**
 * Whether `record` covers every entry of `items` as it was trusted. An entry removed since loosens
 * nothing, so it keeps the trust; one added or changed lapses it.
 */
export function covers(record: TrustRecord, items: TrustItem[]): boolean {
  return items.every((item) => record.items[itemKey(item)] === item.hash);
}

/** What changed since the trust was given: entries added, changed or removed. */
export function trustChanges(record: TrustRecord, items: TrustItem[]): TrustChange[] {
  const changes: TrustChange[] = [];
  const now = new Set<string>();
  for (const item of items) {
    const key = itemKey(item);
    now.add(key);
    const before = record.items[key];
    if (before === undefined) changes.push({ kind: item.kind, id: item.id, change: "added", summary: item.summary });
    else if (before !== item.hash)
      changes.push({ kind: item.kind, id: item.id, change: "changed", summary: item.summary });
  }
  for (const key of Object.keys(record.items)) {
    if (now.has(key)) continue;
    const split = key.indexOf(":");
    changes.push({ kind: key.slice(0, split) as TrustItemKind, id: key.slice(split + 1), change: "removed" });
  }
  return changes;
}

/** A stored record, or undefined when the text is not one (a damaged row, or the bare `"true"` of an older Parley). */
export function parseTrustRecord(text: string | undefined): TrustRecord | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!isPlainObject(value) || typeof value.fingerprint !== "string" || !isPlainObject(value.items)) return undefined;
    const items: Record<string, string> = {};
    for (const [key, itemHash] of Object.entries(value.items)) if (typeof itemHash === "string") items[key] = itemHash;
    return { fingerprint: value.fingerprint, items };
  } catch {
    return undefined;
  }
}
