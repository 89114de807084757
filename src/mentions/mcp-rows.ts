// The @ popup's MCP rows: each server's tools (listed from the cache while it starts, which the row
// says), and what its ready servers offer besides: resources to attach to the message and prompts
// that fill the composer. All in the "mcp" category; `mcp` on a row says which of the two it is.
import type { ToolParameters } from "../tools/native-tools";
import type { MentionItem } from "../shared/mentions";
import type { McpOffer, McpToolEntry } from "../tools/mcp/manager";

/** `@tool:firstArg=` and a pair of backticks for tools with known parameters (rule 17). */
export function toolInsertText(name: string, parameters: unknown): string {
  const schema = parameters as ToolParameters | undefined;
  const first = schema?.required?.[0] ?? Object.keys(schema?.properties ?? {})[0];
  return first ? `@${name}:${first}=\`\`` : `@${name}`;
}

/** The row's name: its server, then its own title (or name). */
const rowLabel = (serverId: string, name: string, title: string | undefined) =>
  `${serverId} › ${title?.trim() || name}`;

/** What a picked resource puts in the text: one word, so the composer sees whether it is still there. */
export const resourceToken = (serverId: string, name: string) => `@${serverId}:${name.replace(/[\s`@]+/g, "-")}`;

export function mcpRows(tools: readonly McpToolEntry[], offers: readonly McpOffer[]): MentionItem[] {
  return [
    ...tools.map((t) => ({
      category: "mcp" as const,
      label: t.tool,
      detail: [t.serverId, t.starting ? "starting…" : "", t.description].filter(Boolean).join(" · "),
      insertText: toolInsertText(t.id, t.parameters),
      searchText: `${t.serverId} ${t.description} ${t.id}`,
      parameters: t.parameters,
    })),
    ...offers.flatMap(({ serverId, resources }) =>
      resources.map((r): MentionItem => ({
        category: "mcp",
        label: rowLabel(serverId, r.name, r.title),
        detail: ["Resource", r.mimeType ?? r.description].filter(Boolean).join(" · "),
        insertText: resourceToken(serverId, r.name),
        searchText: [r.name, r.uri, r.description].filter(Boolean).join(" "),
        mcp: { kind: "resource", serverId, uri: r.uri, name: r.name },
      })),
    ),
    ...offers.flatMap(({ serverId, prompts }) =>
      prompts.map((p): MentionItem => ({
        category: "mcp",
        label: rowLabel(serverId, p.name, p.title),
        detail: ["Prompt", p.description].filter(Boolean).join(" · "),
        // Not inserted (a pick fetches the prompt's text); a key that tells the row from a resource's.
        insertText: `@${serverId}:prompt:${p.name}`,
        searchText: [p.name, p.description].filter(Boolean).join(" "),
        mcp: {
          kind: "prompt",
          serverId,
          name: p.name,
          ...(p.arguments?.length
            ? {
                arguments: p.arguments.map((a) => ({
                  name: a.name,
                  ...(a.description ? { description: a.description } : {}),
                  ...(a.required ? { required: true } : {}),
                })),
              }
            : {}),
        },
      })),
    ),
  ];
}
