// MCP resources attached to a message (`referencedResources`): read from their servers as the turn
// starts and sent like referenced files, each as a user message before the message that attached it.
import { invalid } from "../platform/app-error";
import type { ProjectSnapshot } from "../projects/project-snapshot";
import type { McpManager } from "../tools/mcp/manager";
import { ToolError } from "../tools/tool-error";
import { MAX_REFERENCED_FILE_BYTES, type ReferencedFile } from "./referenced-files";

export type ResourceRef = { serverId: string; uri: string };

/** Each resource once, in order; the first that cannot be read is a 400 naming it and why. */
export async function readReferencedResources(
  mcp: McpManager | undefined,
  snapshot: ProjectSnapshot,
  refs: readonly ResourceRef[],
): Promise<ReferencedFile[]> {
  if (refs.length === 0) return [];
  if (!mcp) throw invalid("MCP resources cannot be attached here");
  const unique = [...new Map(refs.map((r) => [`${r.serverId}\u0000${r.uri}`, r])).values()];
  return Promise.all(
    unique.map(async ({ serverId, uri }): Promise<ReferencedFile> => {
      try {
        const read = await mcp.readResource(snapshot, serverId, uri);
        if (Buffer.byteLength(read.text) > MAX_REFERENCED_FILE_BYTES)
          throw invalid(`the resource ${uri} is larger than ${MAX_REFERENCED_FILE_BYTES / 1024} KB`);
        return { path: read.name, content: read.text, resource: { serverId, uri } };
      } catch (error) {
        if (error instanceof ToolError) throw invalid(error.message);
        throw error;
      }
    }),
  );
}
