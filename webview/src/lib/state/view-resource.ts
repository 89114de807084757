// Ties a view's resource state to the component that shows it: loaded when the view mounts, kept
// current by the app events it cares about (and read again when the event stream was down), and no
// longer listening once the view is gone.
import { onDestroy } from "svelte";
import type { AppEvent } from "$shared/app-events";
import type { AppState } from "./app.svelte";

type ViewResource = { load(): Promise<unknown>; onAppEvent(event: AppEvent): void };

/** Call during component initialisation. `load: false` when the view loads it on its own terms. */
export function useResource<S extends ViewResource>(app: AppState, state: S, options: { load?: boolean } = {}): S {
  if (options.load !== false) {
    void state.load();
    onDestroy(app.onResync(() => void state.load()));
  }
  onDestroy(app.listen((event) => state.onAppEvent(event)));
  return state;
}
