// The app state for components deep in a view that their parents need not pass it through (the
// composer's microphone): App.svelte provides it once.
import { createContext } from "svelte";
import type { AppState } from "./state/app.svelte";

export const [getAppContext, setAppContext] = createContext<AppState>();
