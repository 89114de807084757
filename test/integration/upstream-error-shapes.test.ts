// The upstream's own words reach the user in every error shape the contract (section 5) lists, from a
// real HTTP server on loopback: as an HTTP error body, as an error chunk inside the stream (with and
// without a following [DONE]), and as an error body sent with 200 instead of a stream.
import assert from "node:assert/strict";
import { readEvents, text, type ReceivedEvent } from "../helpers/sse";
import { startTestServer, type TestServer } from "../helpers/test-server";
import {
  sseBody,
  startScriptedUpstream,
  textChunk,
  type ScriptedAnswer,
  type ScriptedUpstream,
} from "../helpers/scripted-upstream";

type Shape = { name: string; body: unknown; message: string; status?: number };

const SHAPES: Shape[] = [
  {
    name: "{error:{message}}",
    body: { error: { message: "the model is overloaded", type: "invalid_request_error" } },
    message: "the model is overloaded",
    status: 400,
  },
  { name: "{error:string}", body: { error: "CUDA out of memory" }, message: "CUDA out of memory" },
  {
    name: "{detail:string}",
    body: { detail: "Invalid model name passed in model=x" },
    message: "Invalid model name passed in model=x",
  },
  {
    name: "{detail:[{msg}]} (FastAPI validation)",
    body: { detail: [{ loc: ["body", "messages", 0, "content"], msg: "Field required", type: "missing" }] },
    message: "body.messages.0.content: Field required",
  },
  { name: "{message}", body: { message: "upstream quota exhausted" }, message: "upstream quota exhausted" },
  {
    name: "plain text",
    body: "upstream connect error or disconnect/reset",
    message: "upstream connect error or disconnect/reset",
  },
];

const raw = (body: unknown) => (typeof body === "string" ? body : JSON.stringify(body));
const contentType = (body: unknown) => (typeof body === "string" ? "text/plain" : "application/json");

describe("upstream error shapes reach the user in the server's own words", function () {
  this.timeout(20_000);
  let upstream: ScriptedUpstream;
  let s: TestServer;
  let projectId: string;

  before(async () => {
    upstream = await startScriptedUpstream();
    s = await startTestServer({ gatewayBaseUrl: upstream.baseUrl });
    await s.api("PATCH", "/api/settings/app", {
      providers: [{ id: "gateway", apiKey: "sk-shapes-test-key-0123" }],
      chat: { autoRetryFailedSends: false },
    });
    projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
  });
  after(async () => {
    await s?.stop();
    await upstream?.stop();
  });

  const turn = async (answer: ScriptedAnswer): Promise<ReceivedEvent[]> => {
    upstream.chat = () => answer;
    const chat = await (await s.api("POST", `/api/projects/${projectId}/chats`, { modelId: "local-model" })).json();
    const res = await s.api("POST", `/api/chats/${chat.id}/messages/stream`, { content: "hi" });
    assert.equal(res.status, 200);
    return readEvents(res);
  };
  const errorOf = (events: ReceivedEvent[]) => {
    assert.doesNotMatch(JSON.stringify(events), /closed the stream before it finished/);
    const error = events.find((e) => e.event === "error")?.data;
    assert.ok(error, `an error event in ${JSON.stringify(events)}`);
    return error;
  };

  for (const shape of SHAPES) {
    describe(shape.name, () => {
      it("as an HTTP error body", async () => {
        const error = errorOf(await turn({ status: 400, contentType: contentType(shape.body), body: raw(shape.body) }));
        assert.equal(error.message, shape.message);
        assert.equal(error.status, 400);
      });

      it("as a chunk in the stream that ends it without [DONE], after a partial answer", async () => {
        const events = await turn({ contentType: "text/event-stream", body: sseBody(textChunk("par"), shape.body) });
        assert.equal(text(events), "par");
        const error = errorOf(events);
        assert.equal(error.message, shape.message);
        assert.equal(error.status, shape.status);
        assert.equal(events.at(-1)!.data.finishReason, "error");
      });

      if (typeof shape.body !== "string")
        it("as a chunk in the stream followed by [DONE]", async () => {
          const error = errorOf(await turn({ contentType: "text/event-stream", body: sseBody(shape.body, "[DONE]") }));
          assert.equal(error.message, shape.message);
        });

      it("as the body of a 200 sent instead of a stream", async () => {
        const error = errorOf(await turn({ contentType: contentType(shape.body), body: raw(shape.body) }));
        assert.equal(error.message, shape.message);
      });
    });
  }

  it("keeps the server's words in the stored message, for a reload", async () => {
    const events = await turn({ contentType: "text/event-stream", body: sseBody({ detail: "model is loading" }) });
    const chatId = (await (await s.api("GET", `/api/projects/${projectId}/chats`)).json())[0].id;
    assert.equal(errorOf(events).message, "model is loading");
    const stored = (await (await s.api("GET", `/api/chats/${chatId}`)).json()).messages[1];
    assert.equal(stored.status, "error");
    assert.equal(stored.meta.error.message, "model is loading");
  });

  it("still calls a stream cut without a word a dropped stream", async () => {
    const events = await turn({
      contentType: "text/event-stream",
      body: `: keep-alive\n\n${sseBody(textChunk("par"))}`,
    });
    assert.match(events.find((e) => e.event === "error")!.data.message, /closed the stream before it finished/);
  });
});
