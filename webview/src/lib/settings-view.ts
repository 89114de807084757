// The settings pages, loaded on demand: they are half of the UI's code, and the first screen (the
// chats, a chat, the projects) needs none of them. One load, shared by every caller.
import type SettingsView from "../components/settings/SettingsView.svelte";

export type SettingsViewComponent = typeof SettingsView;

let loading: Promise<SettingsViewComponent> | undefined;

export function loadSettingsView(): Promise<SettingsViewComponent> {
  loading ??= import("../components/settings/SettingsView.svelte").then((module) => module.default);
  // A failed load (a flaky connection to a remote server) may be tried again on the next visit.
  loading.catch(() => (loading = undefined));
  return loading;
}
