// Calls waiting for the user: approvals of tools gated `ask`, and answers to `ask_user`. A turn waits
// on a promise; the approval or answer route settles it; a cancel of the turn rejects it at once.
import { ToolError } from "./tool-error";

export type Approval = { decision: "allow" | "deny"; remember: boolean };

type Waiter = { kind: "approval" | "answer"; settle: (value: Approval | string) => void };

export class PendingInteractions {
  private readonly waiting = new Map<string, Waiter>();

  private key(chatId: string, callId: string): string {
    return `${chatId}\n${callId}`;
  }

  waitForApproval(chatId: string, callId: string, signal: AbortSignal): Promise<Approval> {
    return this.wait(chatId, callId, "approval", signal) as Promise<Approval>;
  }

  waitForAnswer(chatId: string, callId: string, signal: AbortSignal): Promise<string> {
    return this.wait(chatId, callId, "answer", signal) as Promise<string>;
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

  private wait(chatId: string, callId: string, kind: Waiter["kind"], signal: AbortSignal): Promise<Approval | string> {
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
        settle: (value) => {
          signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
      });
    });
  }
}
