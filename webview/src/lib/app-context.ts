// The app state (api, host, route, projects, settings, events) for every component: App.svelte
// provides it once, and components read it here instead of each parent passing it down as a prop.
import { createContext } from "svelte";
import type { AppState } from "./state/app.svelte";

export const [getAppContext, setAppContext] = createContext<AppState>();
