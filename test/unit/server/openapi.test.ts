// The OpenAPI document generated from the route table: every route of every table in it, with the
// parameters its path and query declare, and schemas that are valid JSON Schema 2020-12 (compiled by
// ajv against the meta-schema) and mean what the zod schemas mean.
import assert from "node:assert/strict";
import Ajv2020 from "ajv/dist/2020";
import { z } from "zod";
import {
  apiRoutes,
  methodOf,
  noContent,
  downloadRoutes,
  pageRoutes,
  pathOf,
  streamRoutes,
  uploadRoutes,
} from "../../../src/shared/api-routes";
import { openApiDocument, openApiPath } from "../../../src/server/openapi";

type Json = Record<string, any>;

const doc = openApiDocument("1.2.3");
type Spec = { query?: z.ZodType; body?: z.ZodType };
const allKeys = [apiRoutes, streamRoutes, uploadRoutes, pageRoutes, downloadRoutes].flatMap(
  (table) => Object.entries(table) as [string, Spec][],
);

function operationOf(key: string): Json {
  const operation = doc.paths[openApiPath(pathOf(key))]?.[methodOf(key).toLowerCase()];
  assert.ok(operation, `${key} is in the document`);
  return operation;
}

/** The keys a query schema takes: an object's, or every option's of a union. */
function queryNames(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodUnion) return [...new Set((schema.options as z.ZodType[]).flatMap(queryNames))];
  throw new Error("a query schema is an object or a union of objects");
}

/** Every JSON Schema in the document, with where it is. */
function* schemasOf(document: Json): Generator<[string, Json]> {
  for (const [path, operations] of Object.entries(document.paths as Json)) {
    for (const [method, op] of Object.entries(operations as Json) as [string, Json][]) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const parameter of op.parameters ?? []) yield [`${at} ${parameter.in} ${parameter.name}`, parameter.schema];
      for (const [type, content] of Object.entries(op.requestBody?.content ?? {}) as [string, Json][])
        yield [`${at} body ${type}`, content.schema];
      for (const [status, response] of Object.entries(op.responses) as [string, Json][]) {
        for (const [type, content] of Object.entries(response.content ?? {}) as [string, Json][])
          yield [`${at} ${status} ${type}`, content.schema];
        for (const [event, schema] of Object.entries(response["x-events"] ?? {}) as [string, Json][])
          yield [`${at} event ${event}`, schema];
      }
    }
  }
  for (const [name, schema] of Object.entries(document.components.schemas as Json))
    yield [`components ${name}`, schema as Json];
}

describe("OpenAPI document from the route table", () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  /** A schema of the document, its `#/components/…` references resolving inside the document. */
  const compile = (schema: Json) => ajv.compile({ ...schema, components: doc.components });

  it("is an OpenAPI 3.1 document that survives a JSON round trip", () => {
    assert.equal(doc.openapi, "3.1.0");
    assert.deepEqual(doc.info, { title: "Parley", version: "1.2.3", description: doc.info.description });
    assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc, "nothing JSON cannot hold (undefined, functions)");
    const ids = Object.values(doc.paths).flatMap((operations) => Object.values(operations).map((op) => op.operationId));
    assert.equal(new Set(ids).size, ids.length, "operationIds are unique");
  });

  it("has every key of every table, and nothing else", () => {
    for (const [key] of allKeys) operationOf(key);
    const operations = Object.values(doc.paths).reduce((n, operations) => n + Object.keys(operations).length, 0);
    assert.equal(operations, allKeys.length);
    assert.ok(operationOf("GET /api/openapi.json").responses["200"], "the document describes itself");
  });

  it("writes each path with {name} parameters, each declared once and required", () => {
    for (const [key] of allKeys) {
      const path = openApiPath(pathOf(key));
      assert.doesNotMatch(path, /:/, key);
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
      const declared = operationOf(key).parameters.filter((p: Json) => p.in === "path");
      assert.deepEqual(
        declared.map((p: Json) => p.name),
        inPath,
        key,
      );
      assert.ok(
        declared.every((p: Json) => p.required === true),
        key,
      );
    }
    assert.equal(openApiPath("/api/chats/:id/turns/:turn/revert"), "/api/chats/{id}/turns/{turn}/revert");
  });

  it("declares the query parameters of each route's query schema, required where the schema requires them", () => {
    for (const [key, spec] of allKeys) {
      const query = operationOf(key).parameters.filter((p: Json) => p.in === "query");
      assert.deepEqual(query.map((p: Json) => p.name).sort(), queryNames(spec.query).sort(), key);
    }
    const search = operationOf("GET /api/mentions/search").parameters;
    assert.equal(search.find((p: Json) => p.name === "projectDir").required, true);
    assert.equal(search.find((p: Json) => p.name === "q").required, false, "a default makes it optional to send");
    const prompts = operationOf("GET /api/prompts").parameters;
    assert.ok(
      prompts.every((p: Json) => p.required === false),
      "either of the union's parameters will do",
    );
  });

  it("gives request bodies where the table declares them, required unless the schema takes none", () => {
    for (const [key, spec] of Object.entries(apiRoutes) as [string, { body?: z.ZodType }][]) {
      const body = operationOf(key).requestBody;
      assert.equal(body !== undefined, spec.body !== undefined, key);
      if (spec.body) assert.equal(body.required, !spec.body.safeParse(undefined).success, key);
    }
    assert.equal(operationOf("POST /api/projects/:id/chats").requestBody.required, false);
    assert.equal(operationOf("POST /api/chats/:id/messages/stream").requestBody.required, true);
    const form = operationOf("POST /api/dictation/transcribe").requestBody.content["multipart/form-data"].schema;
    assert.deepEqual(Object.keys(form.properties), ["audio", "modelId"]);
    assert.deepEqual(form.required, ["audio"]);
  });

  it("answers 204 for no content, 200 (and 201 where the route creates) with the response schema, errors in the contract's shape", () => {
    for (const [key, spec] of Object.entries(apiRoutes) as [string, { response: z.ZodType; created?: true }][]) {
      const responses = operationOf(key).responses;
      const expected = spec.response === noContent ? ["204"] : spec.created ? ["200", "201"] : ["200"];
      assert.deepEqual(
        Object.keys(responses)
          .filter((s) => s !== "default")
          .sort(),
        expected,
        key,
      );
      assert.deepEqual(
        responses.default.content["application/json"].schema,
        { $ref: "#/components/schemas/ApiError" },
        key,
      );
    }
    for (const key of Object.keys(streamRoutes)) {
      const ok = operationOf(key).responses["200"];
      assert.ok(ok.content["text/event-stream"], key);
      assert.deepEqual(
        Object.keys(ok["x-events"]).sort(),
        Object.keys(streamRoutes[key as keyof typeof streamRoutes].events).sort(),
        key,
      );
    }
    assert.ok(operationOf("GET /api/providers/gateway/oauth/callback").responses["200"].content["text/html"]);
  });

  it("marks the public routes as needing no credentials, and only those", () => {
    const open = allKeys.map(([key]) => key).filter((key) => operationOf(key).security?.length === 0);
    assert.deepEqual(open.sort(), [
      "GET /api/access/status",
      "GET /api/health",
      "GET /api/providers/gateway/oauth/callback",
      "POST /api/access/login",
      "POST /api/access/login/passkey/options",
      "POST /api/access/login/passkey/verify",
    ]);
    assert.deepEqual(doc.security, [{ bearer: [] }, { session: [] }]);
  });

  it("holds schemas that are valid JSON Schema 2020-12, every reference resolving", () => {
    let compiled = 0;
    for (const [where, schema] of schemasOf(doc)) {
      assert.ok(schema && typeof schema === "object", where);
      assert.doesNotThrow(() => compile(schema), where);
      for (const [, ref] of JSON.stringify(schema).matchAll(/"\$ref":"([^"]+)"/g)) {
        const name = ref!.replace("#/components/schemas/", "");
        assert.ok(ref!.startsWith("#/components/schemas/") && doc.components.schemas[name], `${where}: ${ref}`);
      }
      compiled++;
    }
    assert.ok(compiled > 150, `compiled ${compiled} schemas`);
  });

  it("holds schemas that accept and refuse what the zod schemas do", () => {
    const response = (key: keyof typeof apiRoutes) =>
      compile(operationOf(key).responses["200"].content["application/json"].schema);
    const health = response("GET /api/health");
    assert.equal(health({ ok: true, version: "1" }), true);
    assert.equal(health({ ok: false, version: "1" }), false);
    const resolved = response("GET /api/settings/resolved");
    assert.equal(
      resolved({ settings: {}, provenance: { chat: { maxSteps: "app" }, name: "project" } }),
      true,
      "the recursive provenance, through components",
    );
    assert.equal(resolved({ settings: {}, provenance: { chat: { maxSteps: "nowhere" } } }), false);
    const body = compile(
      operationOf("POST /api/chats/:id/messages/stream").requestBody.content["application/json"].schema,
    );
    assert.equal(body({ content: "hi", referencedPaths: ["a.ts"] }), true);
    assert.equal(body({ content: "hi", extra: 1 }), false, "strict, like the route");
    assert.equal(compile(doc.components.schemas.ApiError!)({ error: { code: "not_found", message: "no" } }), true);
  });
});
