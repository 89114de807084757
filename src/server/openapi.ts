// The route table (src/shared/api-routes.ts) as an OpenAPI 3.1 document, served at GET /api/openapi.json:
// the same declarations the handlers are registered against and the UI client is typed by.
import { z } from "zod";
import { apiErrorBodySchema } from "../shared/api-error";
import {
  apiRoutes,
  downloadRoutes,
  methodOf,
  noContent,
  pageRoutes,
  pathOf,
  streamRoutes,
  uploadRoutes,
  type RouteSpec,
} from "../shared/api-routes";
import { SESSION_COOKIE, isPublicApiRoute } from "./middleware/access";

type Json = Record<string, unknown>;
type StreamSpec = { query?: z.ZodType; body?: z.ZodType; events: Record<string, z.ZodType> };
type Operation = Json & { operationId: string; responses: Record<string, Json> };

export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  jsonSchemaDialect: string;
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
};

const DIALECT = "https://json-schema.org/draft/2020-12/schema";
const ERROR_REF = { $ref: "#/components/schemas/ApiError" };

/** `/api/chats/:id` → `/api/chats/{id}`. */
export function openApiPath(pattern: string): string {
  return pattern.replace(/:([A-Za-z]+)/g, "{$1}");
}

/** `POST /api/chats/:id/messages/stream` → `post_api_chats_id_messages_stream`. */
function operationId(key: string): string {
  return `${methodOf(key).toLowerCase()}${pathOf(key).replace(/[^A-Za-z0-9]+/g, "_")}`.replace(/_$/, "");
}

/** Replaces every `$ref` found in `refs` (deeply), leaving the rest as it is. */
function rewriteRefs(value: unknown, refs: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, refs));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === "$ref" && typeof inner === "string" ? (refs.get(inner) ?? inner) : rewriteRefs(inner, refs),
    ]),
  );
}

class Builder {
  readonly schemas: Record<string, Json> = { ApiError: this.convert(apiErrorBodySchema, "output", "ApiError") };

  /**
   * A zod schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1). Definitions the converter names
   * (recursive schemas) move to `components.schemas`, under their owner's name so none collide.
   */
  convert(schema: z.ZodType, io: "input" | "output", owner: string): Json {
    const {
      $schema: _dialect,
      $defs,
      ...json
    } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json & { $defs?: Record<string, Json> };
    const refs = new Map(
      Object.keys($defs ?? {}).map((name) => [`#/$defs/${name}`, `#/components/schemas/${owner}.${name}`]),
    );
    for (const [name, definition] of Object.entries($defs ?? {}))
      this.schemas[`${owner}.${name}`] = rewriteRefs(definition, refs) as Json;
    return rewriteRefs(json, refs) as Json;
  }

  /** Path parameters from the pattern, query parameters from the query schema's properties. */
  parameters(key: string, query: z.ZodType | undefined, owner: string): Json[] {
    const path = [...pathOf(key).matchAll(/:([A-Za-z]+)/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    if (!query) return path;
    const json = this.convert(query, "input", `${owner}.query`);
    // A union of query shapes (GET /api/prompts): every property any of them takes, required where all require it.
    const variants = ((json.anyOf ?? json.oneOf ?? [json]) as Json[]).filter((variant) => variant.type === "object");
    const names = [...new Set(variants.flatMap((variant) => Object.keys((variant.properties ?? {}) as Json)))];
    return [
      ...path,
      ...names.map((name) => ({
        name,
        in: "query",
        required: variants.every((variant) => ((variant.required ?? []) as string[]).includes(name)),
        schema: variants.map((variant) => (variant.properties as Record<string, Json>)[name]).find(Boolean) ?? {},
      })),
    ];
  }

  operation(key: string, spec: { query?: z.ZodType; body?: z.ZodType }): Operation {
    const id = operationId(key);
    const path = pathOf(key);
    const operation: Operation = {
      operationId: id,
      parameters: this.parameters(key, spec.query, id),
      responses: {
        default: {
          description: "An error, in the contract's shape",
          content: { "application/json": { schema: ERROR_REF } },
        },
      },
    };
    if (spec.body) {
      operation.requestBody = {
        required: !spec.body.safeParse(undefined).success,
        content: { "application/json": { schema: this.convert(spec.body, "input", `${id}.body`) } },
      };
    }
    if (isPublicApiRoute(methodOf(key), path)) operation.security = [];
    return operation;
  }
}

export function openApiDocument(version: string): OpenApiDocument {
  const builder = new Builder();
  const paths: OpenApiDocument["paths"] = {};
  const add = (key: string, operation: Operation) => {
    (paths[openApiPath(pathOf(key))] ??= {})[methodOf(key).toLowerCase()] = operation;
  };

  for (const [key, spec] of Object.entries(apiRoutes) as [string, RouteSpec][]) {
    const operation = builder.operation(key, spec);
    if (spec.response === noContent) {
      operation.responses["204"] = { description: "Done; no content" };
    } else {
      const content = {
        "application/json": { schema: builder.convert(spec.response, "output", `${operation.operationId}.response`) },
      };
      operation.responses["200"] = { description: "The answer", content };
      if (spec.created) operation.responses["201"] = { description: "Created", content };
    }
    add(key, operation);
  }

  for (const [key, spec] of Object.entries(uploadRoutes)) {
    const operation = builder.operation(key, {});
    const files = new Set<string>(spec.files);
    const properties = Object.fromEntries(
      spec.fields.map((name) => [
        name,
        files.has(name) ? { type: "string", contentMediaType: "application/octet-stream" } : { type: "string" },
      ]),
    );
    operation.requestBody = {
      required: true,
      content: { "multipart/form-data": { schema: { type: "object", properties, required: [...files] } } },
    };
    operation.responses["200"] = {
      description: "The answer",
      content: {
        "application/json": { schema: builder.convert(spec.response, "output", `${operation.operationId}.response`) },
      },
    };
    add(key, operation);
  }

  for (const [key, spec] of Object.entries(streamRoutes) as [string, StreamSpec][]) {
    const operation = builder.operation(key, spec);
    const events = Object.fromEntries(
      Object.entries(spec.events).map(([name, schema]) => [
        name,
        builder.convert(schema, "output", `${operation.operationId}.${name}`),
      ]),
    );
    // OpenAPI 3.1 has no way to type each event of a stream: `x-events` gives each event's `data` by its name.
    operation.responses["200"] = {
      description: "Server-sent events",
      content: { "text/event-stream": { schema: { type: "string" } } },
      "x-events": events,
    };
    add(key, operation);
  }

  for (const [key, spec] of Object.entries(downloadRoutes)) {
    const operation = builder.operation(key, spec);
    const content = Object.fromEntries(
      Object.entries(spec.types).map(([format, type]) => [
        type,
        {
          schema:
            format === "json" && "json" in spec
              ? builder.convert(spec.json, "output", `${operation.operationId}.json`)
              : { type: "string" },
        },
      ]),
    );
    operation.responses["200"] = {
      description: "A file to save (Content-Disposition: attachment), in the format the query names",
      headers: { "Content-Disposition": { schema: { type: "string" } } },
      content,
    };
    add(key, operation);
  }

  for (const [key, spec] of Object.entries(pageRoutes)) {
    const operation = builder.operation(key, spec);
    const page = { "text/html": { schema: { type: "string" } } };
    operation.responses["200"] = { description: "A page for the browser", content: page };
    operation.responses["400"] = { description: "A page saying what went wrong", content: page };
    add(key, operation);
  }

  return {
    openapi: "3.1.0",
    info: { title: "Parley", version, description: "The Parley server's HTTP API, generated from its route table." },
    jsonSchemaDialect: DIALECT,
    security: [{ bearer: [] }, { session: [] }],
    paths,
    components: {
      schemas: builder.schemas,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "The per-start access token" },
        session: {
          type: "apiKey",
          in: "cookie",
          name: SESSION_COOKIE,
          description: "A browser session (token link, password or passkey)",
        },
      },
    },
  };
}
