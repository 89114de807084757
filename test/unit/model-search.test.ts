import assert from "node:assert/strict";
import { contextLabel, modelName, searchModels, typedModelId, vendorOf } from "../../webview/src/lib/model-search";

const models = [
  { id: "openai/gpt-4o-mini", label: "OpenAI: GPT-4o-mini" },
  { id: "anthropic/claude-sonnet-4", label: "Anthropic: Claude Sonnet 4" },
  { id: "openai/gpt-4o", label: "OpenAI: GPT-4o" },
  { id: "meta-llama/llama-3.1-8b-instruct", label: "Meta: Llama 3.1 8B Instruct" },
  { id: "qwen2.5-coder", label: "qwen2.5-coder" },
];
const ids = (list: { id: string }[]) => list.map((model) => model.id);

describe("model picker search", () => {
  it("lists every model in catalog order for an empty query", () => {
    assert.deepEqual(ids(searchModels(models, "  ")), ids(models));
  });

  it("matches id, name and vendor, case-insensitively, every word", () => {
    assert.deepEqual(ids(searchModels(models, "ANTHROPIC")), ["anthropic/claude-sonnet-4"]);
    assert.deepEqual(ids(searchModels(models, "sonnet")), ["anthropic/claude-sonnet-4"]);
    assert.deepEqual(ids(searchModels(models, "meta 8b")), ["meta-llama/llama-3.1-8b-instruct"]);
    assert.deepEqual(ids(searchModels(models, "openai mini")), ["openai/gpt-4o-mini"]);
    assert.deepEqual(searchModels(models, "mistral"), []);
  });

  it("puts an exact id first, then ids and names that start with the query", () => {
    assert.deepEqual(ids(searchModels(models, "openai/gpt-4o")), ["openai/gpt-4o", "openai/gpt-4o-mini"]);
    assert.deepEqual(
      ids(searchModels(models, "gpt")),
      ["openai/gpt-4o-mini", "openai/gpt-4o"],
      "ties keep catalog order",
    );
    assert.deepEqual(ids(searchModels(models, "llama")), ["meta-llama/llama-3.1-8b-instruct"]);
    assert.deepEqual(ids(searchModels(models, "coder")), ["qwen2.5-coder"]);
  });

  it("names the vendor and the context length", () => {
    assert.equal(vendorOf("anthropic/claude-sonnet-4"), "anthropic");
    assert.equal(vendorOf("qwen2.5-coder"), undefined);
    assert.equal(contextLabel(128_000), "128K context");
    assert.equal(contextLabel(1_048_576), "1M context");
    assert.equal(contextLabel(32_768), "33K context");
    assert.equal(contextLabel(8_192), "8.2K context");
    assert.equal(contextLabel(null), "");
    assert.equal(contextLabel(512), "512 context");
  });

  it("offers a typed id the list does not show, and only then", () => {
    assert.equal(typedModelId(models, " qwen2.5-coder@main "), "qwen2.5-coder@main");
    assert.equal(typedModelId(models, "openai/gpt-4o"), undefined, "already listed");
    assert.equal(typedModelId(models, "two words"), undefined);
    assert.equal(typedModelId(models, ""), undefined);
  });

  it("names a model on the picker's button by its catalog name without the vendor, an unlisted or nameless one by its id", () => {
    assert.equal(modelName(models, "anthropic/claude-sonnet-4"), "Claude Sonnet 4");
    assert.equal(modelName(models, "meta-llama/llama-3.1-8b-instruct"), "Llama 3.1 8B Instruct");
    assert.equal(modelName(models, "qwen2.5-coder"), "qwen2.5-coder", "a name without a vendor stays whole");
    assert.equal(modelName([{ id: "x", label: "Ratio: 16:9 model" }], "x"), "16:9 model", "the first colon only");
    assert.equal(modelName([{ id: "x", label: "Odd:" }], "x"), "Odd:", "nothing after the vendor: the whole name");
    assert.equal(modelName(models, "qwen2.5-coder@main"), "qwen2.5-coder@main");
    assert.equal(modelName([{ id: "bare", label: "" }], "bare"), "bare");
  });
});
