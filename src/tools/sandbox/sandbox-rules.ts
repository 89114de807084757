// The sandbox's rules that need no disk (contract 7.5 and 7.1): which settings are in force for a
// project (a repository the user has not trusted may tighten them, never loosen them), whether a
// command runs sandboxed and why not, and the gate rule that follows (no sandbox: `allow` asks). Pure.
import type { ToolGate } from "../../shared/settings";
import {
  SANDBOX_DEFAULTS,
  type SandboxNetwork,
  type SandboxSettings,
  type SandboxSettingsInput,
  type SandboxStatus,
} from "../../shared/sandbox";

/** Whether this machine can sandbox commands at all (the probe's answer). */
export type SandboxAvailability =
  { available: true; kind: "bwrap" | "seatbelt"; executable: string } | { available: false; reason: string };

/** off < a host list < on: how much of the network a setting opens. */
function openness(network: SandboxNetwork): number {
  return network === "off" ? 0 : network === "on" ? 2 : 1;
}

/**
 * The stricter of two network settings: the project's where it opens less than the user's. Two host
 * lists give the hosts both allow (none in common: off).
 */
export function stricterNetwork(user: SandboxNetwork, project: SandboxNetwork | undefined): SandboxNetwork {
  if (project === undefined) return user;
  if (Array.isArray(user) && Array.isArray(project)) {
    const common = project.filter((host) => user.includes(host));
    return common.length > 0 ? common : "off";
  }
  return openness(project) < openness(user) ? project : user;
}

function union(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] {
  return [...new Set([...(a ?? []), ...(b ?? [])])];
}

/**
 * The sandbox settings in force. `user` is the user's own layers (defaults < app), `project` the
 * project layer's. A trusted project's values win key by key; an untrusted one's only where they
 * tighten (`mode: "on"`, less network). `hide` always adds up: a project never un-hides a user's path.
 */
export function sandboxSettings(
  user: SandboxSettingsInput | undefined,
  project: SandboxSettingsInput | undefined,
  trusted: boolean,
): SandboxSettings {
  const userMode = user?.mode ?? SANDBOX_DEFAULTS.mode;
  const userNetwork = user?.network ?? SANDBOX_DEFAULTS.network;
  const hide = union(user?.hide, project?.hide);
  if (trusted) return { mode: project?.mode ?? userMode, network: project?.network ?? userNetwork, hide };
  return {
    mode: project?.mode === "on" ? "on" : userMode,
    network: stricterNetwork(userNetwork, project?.network),
    hide,
  };
}

/** Whether `shell` runs sandboxed with these settings on this machine, and why not. */
export function sandboxStatus(settings: SandboxSettings, availability: SandboxAvailability): SandboxStatus {
  if (!availability.available) return { sandboxed: false, reason: availability.reason };
  if (settings.mode === "off") return { sandboxed: false, reason: "the sandbox is off in the settings (sandbox.mode)" };
  return { sandboxed: true };
}

/**
 * Where no sandbox is available, an `allow` gate of `shell` counts as `ask` (contract 7.5): nothing
 * confines the command, so the user sees each one. A sandbox the user switched off is their choice
 * and leaves the gate alone.
 */
export function sandboxedGates(
  gates: Record<string, ToolGate>,
  availability: SandboxAvailability,
): Record<string, ToolGate> {
  if (availability.available || gates.shell !== "allow") return gates;
  return { ...gates, shell: "ask" };
}
