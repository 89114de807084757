// The Markdown renderer (MarkdownBody: marked, DOMPurify, the highlighter) is a chunk of its own, so
// the first screen's bundle stays small (issue 37: its size budget). The UI starts fetching it as
// soon as it has drawn; a message that renders before it arrived shows its text as it came.
import type { Component } from "svelte";

export type MarkdownBodyProps = { text: string; streaming?: boolean };
type Body = Component<MarkdownBodyProps>;

let loaded: Body | undefined;
let loading: Promise<Body> | undefined;

/** The renderer, when it has arrived. */
export const markdownBody = (): Body | undefined => loaded;

/** Fetches the renderer once; a failed fetch is tried again on the next call. */
export function loadMarkdownBody(): Promise<Body> {
  loading ??= import("./MarkdownBody.svelte").then(
    (module) => (loaded = module.default),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
