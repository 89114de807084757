// Runs the HTML-to-markdown conversion of one page in a worker thread of its own
// (html-markdown-worker.ts), bounded by the fetch's deadline and the turn's cancel: the thread is
// ended when either comes first, however long the converter would have run.
import { Worker } from "node:worker_threads";
import { bundleEntry } from "../../platform/bundle-entry";
import { ToolError } from "../tool-error";
import type { ConvertReply, ConvertRequest } from "./html-markdown-worker";

export async function convertHtml(html: string, baseUrl: string, signal: AbortSignal): Promise<string> {
  if (signal.aborted) throw stopped(signal);
  const { file, execArgv } = bundleEntry("html-markdown-worker", import.meta.url);
  const worker = new Worker(file, { execArgv, workerData: { html, baseUrl } satisfies ConvertRequest });
  let onAbort: (() => void) | undefined;
  try {
    return await new Promise<string>((resolve, reject) => {
      onAbort = () => reject(stopped(signal));
      signal.addEventListener("abort", onAbort, { once: true });
      worker.once("message", (reply: ConvertReply) =>
        reply.ok
          ? resolve(reply.markdown)
          : reject(new ToolError(`the page could not be read as HTML: ${reply.error}`)),
      );
      worker.once("error", (error) => reject(new ToolError(`the page could not be read as HTML: ${error.message}`)));
      worker.once("exit", (code) => reject(new ToolError(`the HTML converter stopped (exit code ${code})`)));
    });
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
    void worker.terminate();
  }
}

/** The signal's reason when it is one of web_fetch's own (its time limit, the turn's cancel). */
function stopped(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof ToolError ? reason : new ToolError("the turn was cancelled");
}
