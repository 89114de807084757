// The body of a chat completion request. With MCP servers its tool definitions are most of its bytes
// (80 tools: about 50 KB) and the same on every request, yet writing them as JSON and encoding that as
// UTF-8 stood between the user's Enter and the request leaving. Each definition is encoded once for as
// long as its schema object lives (offered tools keep their server's schema objects; see
// withoutMetaSchema), and the body is put together from those bytes.

type FunctionTool = { type: "function"; function: { name: string; description: string; parameters: object } };

/** A definition's bytes by its schema object, with the name and description they were written with. */
const encoded = new WeakMap<object, { name: string; description: string; bytes: Buffer }>();

/** `{type: "function", function: {name, description, parameters}}` and nothing else. */
function isFunctionTool(tool: unknown): tool is FunctionTool {
  if (typeof tool !== "object" || tool === null || Object.keys(tool).join() !== "type,function") return false;
  const { type, function: fn } = tool as Record<string, unknown>;
  if (type !== "function" || typeof fn !== "object" || fn === null) return false;
  const { name, description, parameters } = fn as Record<string, unknown>;
  return (
    Object.keys(fn).join() === "name,description,parameters" &&
    typeof name === "string" &&
    typeof description === "string" &&
    typeof parameters === "object" &&
    parameters !== null
  );
}

function toolBytes(tool: unknown): Buffer {
  if (!isFunctionTool(tool)) return Buffer.from(JSON.stringify(tool) ?? "null");
  const { name, description, parameters } = tool.function;
  const known = encoded.get(parameters);
  if (known && known.name === name && known.description === description) return known.bytes;
  const bytes = Buffer.from(JSON.stringify(tool));
  encoded.set(parameters, { name, description, bytes });
  return bytes;
}

const COMMA = Buffer.from(",");

/**
 * The body as UTF-8 JSON: the same value `JSON.stringify(body)` gives, its `tools` last and each
 * definition's bytes taken from what was encoded before.
 */
export function requestBody(body: Record<string, unknown>): Buffer {
  const { tools, ...rest } = body;
  if (!Array.isArray(tools)) return Buffer.from(JSON.stringify(body));
  const head = JSON.stringify(rest);
  const parts: Buffer[] = [Buffer.from(`${head.slice(0, -1)}${head === "{}" ? "" : ","}"tools":[`)];
  tools.forEach((tool, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(toolBytes(tool));
  });
  parts.push(Buffer.from("]}"));
  return Buffer.concat(parts);
}
