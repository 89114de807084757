// Entry of the Parley UI (the same bundle in the VS Code webview and in a browser tab).
import { mount } from "svelte";
import App from "./App.svelte";

mount(App, { target: document.getElementById("app")! });
