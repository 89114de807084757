import assert from "node:assert/strict";
import { modelTakesTools, refusesTools, toolsRefusedNotice } from "../../../src/chat/tool-support";
import type { CatalogModel } from "../../../src/shared/gateway";

const listed = (supportedParameters?: string[]): CatalogModel => ({
  id: "m",
  label: "m",
  contextLength: null,
  pricing: {},
  inputModalities: [],
  outputModalities: [],
  ...(supportedParameters ? { supportedParameters } : {}),
});

describe("which models are offered tools", () => {
  it("offers tools unless the catalog lists the model's parameters without `tools`", () => {
    assert.equal(modelTakesTools(undefined, undefined), true, "nothing known");
    assert.equal(modelTakesTools(undefined, listed()), true, "a catalog that lists no parameters says nothing");
    assert.equal(modelTakesTools(undefined, listed(["tools", "temperature"])), true);
    assert.equal(modelTakesTools(undefined, listed(["temperature"])), false);
    assert.equal(modelTakesTools(undefined, listed([])), false);
  });

  it("lets the model's entry decide over the catalog, either way", () => {
    assert.equal(modelTakesTools({ tools: false }, listed(["tools"])), false);
    assert.equal(modelTakesTools({ tools: false }, undefined), false);
    assert.equal(modelTakesTools({ tools: true }, listed(["temperature"])), true);
    assert.equal(modelTakesTools({}, listed(["temperature"])), false);
  });
});

describe("a server's words for a model that cannot take tools", () => {
  it("recognises Ollama, vLLM, llama.cpp, LiteLLM and the gateway", () => {
    for (const message of [
      "registry.ollama.ai/library/gemma:2b does not support tools",
      '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      "tools param requires --jinja flag",
      "litellm.UnsupportedParamsError: ollama does not support parameters: ['tools'], for model=x. To drop these, set `litellm.drop_params=True`",
      'No endpoints found that support tool use. Try disabling "shell".',
      "This model does not support function calling",
      "Tool calling is not supported for this model",
    ])
      assert.equal(refusesTools(message), true, message);
  });

  it("does not take other failures for it", () => {
    for (const message of [
      "The model `x` does not exist.",
      "temperature is too high",
      "CUDA out of memory",
      "the tools are all busy, try again",
      "Incorrect API key provided: [redacted].",
    ])
      assert.equal(refusesTools(message), false, message);
  });

  it("says what happened and where to change it, with the server's words", () => {
    const notice = toolsRefusedNotice("gemma:2b", "x does not support tools");
    assert.match(notice, /^gemma:2b cannot use tools \(the server said: x does not support tools\)/);
    assert.match(notice, /sent again without them/);
    assert.match(notice, /Settings, Providers/);
  });
});
