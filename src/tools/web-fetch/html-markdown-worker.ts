// The worker thread that turns one fetched page into markdown (see html-converter.ts): parsing a
// page of megabytes takes seconds, which must not stall the server's other requests and streams,
// and a page that makes the converter run on can be stopped by ending the thread.
import { parentPort, workerData } from "node:worker_threads";
import { htmlToMarkdown } from "./html-markdown";

export type ConvertRequest = { html: string; baseUrl: string };
export type ConvertReply = { ok: true; markdown: string } | { ok: false; error: string };

const { html, baseUrl } = workerData as ConvertRequest;
let reply: ConvertReply;
try {
  reply = { ok: true, markdown: htmlToMarkdown(html, baseUrl) };
} catch (error) {
  reply = { ok: false, error: (error as Error).message };
}
parentPort!.postMessage(reply);
