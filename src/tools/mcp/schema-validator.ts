// Arguments of MCP tool calls are checked against the tool's `inputSchema` (JSON Schema) with Ajv
// before the call. Servers write their schemas in whichever draft their SDK emits (zod 4 writes
// 2020-12, older SDKs draft-07, some hand-written ones draft-04), so the schema's own `$schema` picks
// the Ajv build that knows that draft; a schema with no `$schema`, or one naming a meta-schema Ajv
// does not ship, is read as draft-07 (what MCP's SDK assumed for years). A schema that still cannot
// compile gets a clear failure, not a crash.
import Ajv, { type ValidateFunction } from "ajv";
import Ajv2019 from "ajv/dist/2019";
import Ajv2020 from "ajv/dist/2020";
import AjvDraft04 from "ajv-draft-04";
import draft06 from "ajv/dist/refs/json-schema-draft-06.json";

type Draft = "draft-04" | "draft-06" | "draft-07" | "2019-09" | "2020-12";

const options = { allErrors: true, strict: false, validateSchema: true } as const;

/** One Ajv per draft, made when a schema of that draft first shows up. */
const validators = new Map<Draft, Ajv>();
function ajvFor(draft: Draft): Ajv {
  let ajv = validators.get(draft);
  if (!ajv) {
    if (draft === "2020-12") ajv = new Ajv2020(options);
    else if (draft === "2019-09") ajv = new Ajv2019(options);
    else if (draft === "draft-04") ajv = new AjvDraft04(options) as unknown as Ajv;
    else {
      ajv = new Ajv(options);
      ajv.addMetaSchema(draft06);
    }
    validators.set(draft, ajv);
  }
  return ajv;
}

/** The draft a `$schema` URI names (with or without `#`, http or https); undefined for anything else. */
export function schemaDraft(uri: unknown): Draft | undefined {
  if (typeof uri !== "string") return undefined;
  const m = /^https?:\/\/json-schema\.org\/(?:(draft-0[467])\/schema|draft\/(2019-09|2020-12)\/schema)#?$/.exec(
    uri.trim(),
  );
  return (m?.[1] ?? m?.[2]) as Draft | undefined;
}

const stripped = new WeakMap<object, object>();

/**
 * The schema as the model sees it: the `$schema` key says nothing the model can use. The same object
 * each time for one schema, so what is derived from it (its token count) is kept.
 */
export function withoutMetaSchema(schema: object): object {
  if (!("$schema" in schema)) return schema;
  let rest = stripped.get(schema);
  if (!rest) {
    const { $schema: _metaSchema, ...others } = schema as Record<string, unknown>;
    rest = others;
    stripped.set(schema, rest);
  }
  return rest;
}

function compile(schema: object): ValidateFunction {
  const declared = (schema as { $schema?: unknown }).$schema;
  const draft = schemaDraft(declared);
  // An unknown meta-schema would fail with "no schema with key or ref": drop it and read draft-07.
  return ajvFor(draft ?? "draft-07").compile(draft || declared === undefined ? schema : withoutMetaSchema(schema));
}

const compiled = new WeakMap<object, ValidateFunction | Error>();

export function validateArguments(schema: unknown, args: unknown): string[] | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      validate = compile(schema);
    } catch (error) {
      validate = new Error(`the server's input schema is invalid: ${(error as Error).message}`);
    }
    compiled.set(schema, validate);
  }
  if (validate instanceof Error) return [validate.message];
  if (validate(args)) return undefined;
  return (validate.errors ?? []).map((e) => `${e.instancePath || "arguments"} ${e.message ?? "is invalid"}`);
}
