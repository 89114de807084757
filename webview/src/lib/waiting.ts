// The rules of the "Waiting for you" region above the composer, where a call waiting for the user
// (an approval or an ask_user question) is answered: what it announces, which keys answer it, and
// when it may take the focus. Pure, so each rule is unit-tested; the component only wires them.
import { argumentSummary, type ToolCardData } from "./tool-cards";
import { toolTitle, type ServerNames } from "./tool-titles";
import { approvalReasonTexts } from "./approval-reasons";

/** The region's element id: a waiting card's "Go to answer" focuses it. One chat view shows at a time. */
export const WAITING_REGION_ID = "waiting-for-you";

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What a screen reader hears when a call starts waiting. */
export function waitingAnnouncement(card: ToolCardData, names?: ServerNames): string {
  if (card.ask?.kind === "question") return `Parley is waiting for you: ${clip(card.ask.question.trim(), 200)}`;
  const subject = clip(argumentSummary(card.name, card.args).replace(/\s+/g, " ").trim(), 120);
  const why = approvalReasonTexts(card.ask?.reasons, names).map((reason) => ` ${reason}`);
  return `Parley is waiting for you: allow ${toolTitle(card.name, names)}${subject ? ` on ${subject}` : ""}?${why.join("")}`;
}

/**
 * Where a key press in the region comes from: the region itself (or its plain text), a text field,
 * a control that answers Enter on its own (a button, a link), or a checkbox (which does not).
 */
export type KeyOrigin = "region" | "text" | "control" | "checkbox";
export type KeyPress = {
  key: string;
  repeat: boolean;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  isComposing: boolean;
};

/**
 * What a key does to a waiting approval: Enter allows, Escape denies. Enter on a button or link is
 * that control's own (Enter on Deny denies); in a text field neither key answers. A held-down key
 * (auto-repeat, say the Enter that sent the message) and keys with modifiers never answer.
 */
export function approvalKey(press: KeyPress, origin: KeyOrigin): "allow" | "deny" | undefined {
  if (press.repeat || press.isComposing || press.shiftKey || press.ctrlKey || press.altKey || press.metaKey)
    return undefined;
  if (origin === "text") return undefined;
  if (press.key === "Escape") return "deny";
  if (press.key === "Enter" && origin !== "control") return "allow";
  return undefined;
}

/** Where the focus is when a call starts waiting. */
export type FocusSpot =
  | { kind: "none" } // the page itself: nothing has the focus
  | { kind: "inside" } // already in the region
  | { kind: "text"; empty: boolean } // a text field (the composer, find in chat, a settings field)
  | { kind: "other" }; // a button, the transcript, a link

/**
 * Whether the region takes the focus when a call starts waiting, so Enter and Escape answer it at
 * once: yes, unless the user is typing. A text field that holds text (a message being written, a
 * search) keeps the focus, and the announcement tells a screen reader user the region is there; an
 * empty composer (the message that started the turn was just sent) gives it up.
 */
export function takesFocus(spot: FocusSpot): boolean {
  if (spot.kind === "inside") return false;
  return spot.kind !== "text" || spot.empty;
}
