import assert from "node:assert/strict";
import { fetchModels, modelsPath, normalizeModel } from "../../../src/gateway/models";
import { UpstreamError } from "../../../src/gateway/http";
import { connection, openGatewayDouble, type GatewayDouble } from "./gateway-double";

describe("gateway client: the model list", () => {
  it("asks the text slice at /models and the transcription slice by its output modality", () => {
    assert.equal(modelsPath("text"), "/models");
    assert.equal(modelsPath("transcription"), "/models?output_modalities=transcription");
  });

  it("normalises a model: its name as label, prices as numbers, modalities as strings", () => {
    const model = normalizeModel({
      id: "anthropic/claude-sonnet-4",
      name: "Claude Sonnet 4",
      context_length: 200_000,
      pricing: { prompt: "0.000003", completion: 0.000015, image: "free", request: "0" },
      architecture: { input_modalities: ["text", "image", 7, null], output_modalities: ["text"] },
    });
    assert.deepEqual(model, {
      id: "anthropic/claude-sonnet-4",
      label: "Claude Sonnet 4",
      contextLength: 200_000,
      pricing: { prompt: 0.000003, completion: 0.000015, request: 0 },
      inputModalities: ["text", "image"],
      outputModalities: ["text"],
    });
  });

  it("labels a model without a name by its id and leaves what a server did not say empty", () => {
    assert.deepEqual(
      normalizeModel({ id: "qwen2.5", name: "", context_length: "128k", pricing: "cheap", architecture: [] }),
      {
        id: "qwen2.5",
        label: "qwen2.5",
        contextLength: null,
        pricing: {},
        inputModalities: [],
        outputModalities: [],
      },
    );
  });

  it("drops an entry without a usable id", () => {
    for (const raw of [{}, { id: "" }, { id: 42 }, { id: null, name: "x" }])
      assert.equal(normalizeModel(raw), undefined, JSON.stringify(raw));
  });

  describe("over HTTP", () => {
    let gateway: GatewayDouble;
    beforeEach(() => (gateway = openGatewayDouble()));
    afterEach(() => gateway.close());

    it("reads data[] of /models with the connection's headers, skipping entries that are not models", async () => {
      gateway.pool
        .intercept({ path: "/api/v1/models", method: "GET" })
        .reply(200, { data: [{ id: "a/one" }, "junk", null, [], { name: "no id" }, { id: "b/two", name: "Two" }] });
      const models = await fetchModels(connection, "text");
      assert.deepEqual(
        models.map((m) => [m.id, m.label]),
        [
          ["a/one", "a/one"],
          ["b/two", "Two"],
        ],
      );
      assert.equal(gateway.seen[0]!.headers.authorization, connection.headers.authorization);
    });

    it("reads a body without a data list as no models", async () => {
      gateway.pool
        .intercept({ path: "/api/v1/models?output_modalities=transcription", method: "GET" })
        .reply(200, { models: [{ id: "x" }] });
      assert.deepEqual(await fetchModels(connection, "transcription"), []);
    });

    it("fails with the server's status and words when it refuses", async () => {
      gateway.pool
        .intercept({ path: "/api/v1/models", method: "GET" })
        .reply(401, { error: { message: "No auth credentials found" } });
      await assert.rejects(
        fetchModels(connection, "text"),
        (error: unknown) =>
          error instanceof UpstreamError && error.status === 401 && error.message === "No auth credentials found",
      );
    });
  });
});
