// Calls waiting for the user: approvals of tools gated `ask`, and answers to `ask_user`. A turn waits
// on a promise; the approval or answer route settles it; a cancel of the turn rejects it at once.
import type { WaitingItem } from "../shared/worktrees";
import { ToolError } from "./tool-error";

export type Approval = { decision: "allow" | "deny"; remember: boolean };

type Waiter = { kind: "approval" | "answer"; settle: (value: Approval | string) => void; shown?: WaitingItem };

export class PendingInteractions {
  private readonly waiting = new Map<string, Waiter>();

  private key(chatId: string, callId: string): string {
    return `${chatId}\n${callId}`;
  }

  /** `shown`: what the call asks, as a board of chats lists it (see `waitingIn`). */
  waitForApproval(chatId: string, callId: string, signal: AbortSignal, shown?: WaitingItem): Promise<Approval> {
    return this.wait(chatId, callId, "approval", signal, shown) as Promise<Approval>;
  }

  waitForAnswer(chatId: string, callId: string, signal: AbortSignal, shown?: WaitingItem): Promise<string> {
    return this.wait(chatId, callId, "answer", signal, shown) as Promise<string>;
  }

  /** What the chat's turn waits for now, oldest first. */
  waitingIn(chatId: string): WaitingItem[] {
    const prefix = `${chatId}\n`;
    return [...this.waiting].flatMap(([key, waiter]) => (key.startsWith(prefix) && waiter.shown ? [waiter.shown] : []));
  }

  /** Settles a waiting call; false when no such call waits (unknown, or answered already). */
  approve(chatId: string, callId: string, approval: Approval): boolean {
    return this.settle(chatId, callId, "approval", approval);
  }

  answer(chatId: string, callId: string, answer: string): boolean {
    return this.settle(chatId, callId, "answer", answer);
  }

  private settle(chatId: string, callId: string, kind: Waiter["kind"], value: Approval | string): boolean {
    const key = this.key(chatId, callId);
    const waiter = this.waiting.get(key);
    if (!waiter || waiter.kind !== kind) return false;
    this.waiting.delete(key);
    waiter.settle(value);
    return true;
  }

  private wait(
    chatId: string,
    callId: string,
    kind: Waiter["kind"],
    signal: AbortSignal,
    shown?: WaitingItem,
  ): Promise<Approval | string> {
    const key = this.key(chatId, callId);
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new ToolError("the turn was cancelled"));
      const onAbort = () => {
        this.waiting.delete(key);
        reject(new ToolError("the turn was cancelled"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(key, {
        kind,
        ...(shown ? { shown } : {}),
        settle: (value) => {
          signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
      });
    });
  }
}
