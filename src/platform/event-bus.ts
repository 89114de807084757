// In-process publish/subscribe for app-wide change events.
import type { AppEvent } from "../shared/app-events";

export type AppEventListener = (event: AppEvent) => void;

export class EventBus {
  private readonly listeners = new Set<AppEventListener>();

  publish(event: AppEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken subscriber (a closed socket) must not stop the others.
      }
    }
  }

  subscribe(listener: AppEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
