// Arguments of MCP tool calls are checked against the tool's `inputSchema` (JSON Schema) with Ajv
// before the call; a server that sends a schema Ajv cannot compile gets a clear failure, not a crash.
import Ajv, { type ValidateFunction } from "ajv";

const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: true });
const compiled = new WeakMap<object, ValidateFunction | Error>();

export function validateArguments(schema: unknown, args: unknown): string[] | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      validate = new Error(`the server's input schema is invalid: ${(error as Error).message}`);
    }
    compiled.set(schema, validate);
  }
  if (validate instanceof Error) return [validate.message];
  if (validate(args)) return undefined;
  return (validate.errors ?? []).map((e) => `${e.instancePath || "arguments"} ${e.message ?? "is invalid"}`);
}
