// The keyboard of a menu (WAI-ARIA menu button pattern): which item takes focus on a key. Pure.

/** What a key does in an open menu of `count` items whose item `current` has focus. */
export type MenuMove = { focus: number } | { close: "restore" | "leave" } | undefined;

export function menuKey(key: string, current: number, count: number): MenuMove {
  if (count === 0) return key === "Escape" ? { close: "restore" } : undefined;
  switch (key) {
    case "ArrowDown":
      return { focus: (current + 1) % count };
    case "ArrowUp":
      return { focus: (current - 1 + count) % count };
    case "Home":
    case "PageUp":
      return { focus: 0 };
    case "End":
    case "PageDown":
      return { focus: count - 1 };
    // Escape gives focus back to the button; Tab lets it move on, as from any other control.
    case "Escape":
      return { close: "restore" };
    case "Tab":
      return { close: "leave" };
    default:
      return undefined;
  }
}

/** The item a typed character moves to: the next one (after `current`, wrapping) whose label starts with it. */
export function typeAhead(char: string, current: number, labels: readonly string[]): number | undefined {
  if (char.length !== 1 || !/\S/.test(char)) return undefined;
  const wanted = char.toLowerCase();
  for (let step = 1; step <= labels.length; step++) {
    const index = (current + step) % labels.length;
    if (labels[index]!.toLowerCase().startsWith(wanted)) return index;
  }
  return undefined;
}

/** An action of a menu; `danger` for one that destroys something (shown in the error colour). */
export type MenuItem = { label: string; onselect: () => void; danger?: boolean };
