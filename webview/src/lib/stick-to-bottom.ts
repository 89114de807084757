// Keeps a scrolling transcript at its end while new output arrives, as long as the reader is there:
// scrolling up lets go, scrolling back to the end (or sending a message) follows again.
import type { Attachment } from "svelte/attachments";

/** How close to the end still counts as "at the end", in pixels. */
const SLACK = 48;

export class StickToBottom {
  private followingNow = true;

  /**
   * While following, the browser's scroll anchoring is off: it would move the view to keep an item
   * still as the items above it are measured (a virtualized list), away from the end. A reader who
   * scrolled up gets it back, so older items loading above do not move what they read.
   */
  private get following(): boolean {
    return this.followingNow;
  }
  private set following(value: boolean) {
    this.followingNow = value;
    if (this.element) this.element.style.overflowAnchor = value ? "none" : "";
  }
  private element: HTMLElement | undefined;

  /** Follows again and goes to the end now (a message was sent). */
  follow(): void {
    this.following = true;
    this.toEnd();
  }

  /** Stops following: the view was moved to something on purpose (find in chat, the arrow keys). */
  letGo(): void {
    this.following = false;
  }

  readonly attach: Attachment<HTMLElement> = (element) => {
    this.element = element;
    this.following = this.followingNow;
    const atEnd = () => element.scrollHeight - element.scrollTop - element.clientHeight <= SLACK;
    // A scroll away from the end lets go, unless the list shrank under it: the browser moves the
    // view itself when content is swapped (a finished turn replacing its live view, a window of
    // items measured anew), and that is not the reader leaving. Reaching the end follows again.
    let height = element.scrollHeight;
    const onScroll = () => {
      const shrank = element.scrollHeight < height;
      height = element.scrollHeight;
      if (atEnd()) this.following = true;
      else if (!shrank) this.following = false;
    };
    // Wheel and keys upwards let go at once, before a burst of output can pull the view back down.
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY < 0 && element.scrollHeight > element.clientHeight) this.following = false;
    };
    const onKey = (event: KeyboardEvent) => {
      if (["ArrowUp", "PageUp", "Home"].includes(event.key)) this.following = false;
    };
    const onGrow = () => {
      if (this.following) this.toEnd();
    };
    const mutations = new MutationObserver(onGrow);
    // `style` too: a virtualized list grows by its spacers' heights as items are measured.
    mutations.observe(element, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: ["style"],
    });
    const sizes = new ResizeObserver(onGrow);
    sizes.observe(element);
    element.addEventListener("scroll", onScroll, { passive: true });
    element.addEventListener("wheel", onWheel, { passive: true });
    element.addEventListener("keydown", onKey);
    this.toEnd();
    return () => {
      mutations.disconnect();
      sizes.disconnect();
      element.removeEventListener("scroll", onScroll);
      element.removeEventListener("wheel", onWheel);
      element.removeEventListener("keydown", onKey);
      this.element = undefined;
    };
  };

  private toEnd(): void {
    const element = this.element;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
  }
}
