// The time for relative times ("5 min ago"): read in a template, it updates every half minute for as
// long as something on screen shows it, and costs nothing when nothing does.
import { createSubscriber } from "svelte/reactivity";

const TICK_MS = 30_000;

class Clock {
  #now = Date.now();
  #subscribe = createSubscriber((update) => {
    const timer = setInterval(() => {
      this.#now = Date.now();
      update();
    }, TICK_MS);
    return () => clearInterval(timer);
  });

  /** Milliseconds since the epoch; reactive in effects and templates. */
  get now(): number {
    this.#subscribe();
    // A first reader after a quiet spell gets the time of now, not of the last tick.
    if (Date.now() - this.#now >= TICK_MS) this.#now = Date.now();
    return this.#now;
  }
}

export const clock = new Clock();
