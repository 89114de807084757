// Streamed `tool_calls` arrive in pieces: the first delta of a call carries its id and name, later
// ones more of its JSON arguments, and several calls interleave by `index`. This puts them together.
// Pure.
import type { ToolCallDelta } from "../gateway/upstream-chunk";

export type AssembledCall = { id: string; name: string; arguments: string };

export class ToolCallAssembler {
  private readonly calls = new Map<number, { id?: string; name: string; arguments: string }>();

  add(delta: ToolCallDelta): void {
    const call = this.calls.get(delta.index) ?? { name: "", arguments: "" };
    if (delta.id) call.id = delta.id;
    // Most servers send the name once; some repeat it on every delta (never append a repeat).
    if (delta.name && !call.name.endsWith(delta.name)) call.name += delta.name;
    call.arguments += delta.argumentsDelta;
    this.calls.set(delta.index, call);
  }

  get size(): number {
    return this.calls.size;
  }

  /** The calls in index order; a call the server sent without an id gets one (`call_<turn>_<n>`). */
  finish(idPrefix: string): AssembledCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ id: call.id ?? `${idPrefix}_${index}`, name: call.name, arguments: call.arguments }));
  }
}
