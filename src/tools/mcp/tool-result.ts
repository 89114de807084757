// An MCP `tools/call` result as Parley's tool output: text content joined, images and resources
// described rather than inlined, `isError` as a failed call, and everything capped like command output.
import { DEFAULT_OUTPUT_CAP_BYTES } from "../output-cap";

type Content = {
  type?: unknown;
  text?: unknown;
  mimeType?: unknown;
  data?: unknown;
  resource?: unknown;
  uri?: unknown;
  name?: unknown;
};

function describe(part: Content): string {
  switch (part.type) {
    case "text":
      return typeof part.text === "string" ? part.text : "";
    case "image":
    case "audio": {
      const bytes = typeof part.data === "string" ? Math.floor((part.data.length * 3) / 4) : 0;
      return `[${part.type}: ${String(part.mimeType ?? "unknown type")}, ${bytes} bytes]`;
    }
    case "resource": {
      const resource = (part.resource ?? {}) as { uri?: unknown; text?: unknown; mimeType?: unknown };
      return typeof resource.text === "string"
        ? `[resource ${String(resource.uri)}]\n${resource.text}`
        : `[resource ${String(resource.uri)} (${String(resource.mimeType ?? "binary")})]`;
    }
    case "resource_link":
      return `[resource link: ${String(part.name ?? part.uri)} ${String(part.uri ?? "")}]`;
    default:
      return `[${String(part.type)} content]`;
  }
}

export function toolOutput(result: { content?: unknown; isError?: unknown; structuredContent?: unknown }): {
  ok: boolean;
  output: string;
} {
  const parts = Array.isArray(result.content) ? (result.content as Content[]) : [];
  let output = parts.map(describe).filter(Boolean).join("\n");
  if (!output && result.structuredContent !== undefined) output = JSON.stringify(result.structuredContent);
  if (output.length > DEFAULT_OUTPUT_CAP_BYTES) {
    const half = DEFAULT_OUTPUT_CAP_BYTES / 2;
    output = `${output.slice(0, half)}\n… [${output.length - DEFAULT_OUTPUT_CAP_BYTES} characters left out] …\n${output.slice(-half)}`;
  }
  return { ok: result.isError !== true, output };
}
