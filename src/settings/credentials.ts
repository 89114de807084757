// Stored credentials, each bound to the origin it was given for. A lookup for another origin finds
// nothing and says which origins do hold a credential for that slot, so the caller can refuse clearly.
import { boundSecretName, parseBoundSecretName } from "./credential-binding";
import type { SecretChange } from "./settings-secrets";
import type { SecretStore } from "./secret-store";

export type CredentialLookup = { value: string | undefined; otherOrigins: string[] };

/** Legacy secret names (before binding) that the upgrade moves: `apiKey/<kind>/<id>`. */
const LEGACY_API_KEY = /^apiKey\/(providers|models)\/(.+)$/;

export class Credentials {
  constructor(private readonly secrets: SecretStore) {}

  async get(slot: string, origin: string): Promise<string | undefined> {
    return this.secrets.get(boundSecretName(slot, origin));
  }

  /** The credential of `slot` for `origin`, and the origins it is stored for instead (when it is not). */
  async lookup(slot: string, origin: string | undefined): Promise<CredentialLookup> {
    const value = origin ? await this.get(slot, origin) : undefined;
    if (value !== undefined) return { value, otherOrigins: [] };
    const otherOrigins = (await this.secrets.list(`${slot}@`))
      .map((name) => parseBoundSecretName(name))
      .filter((bound) => bound?.slot === slot)
      .map((bound) => bound!.origin);
    return { value: undefined, otherOrigins };
  }

  /**
   * Stores each change for the origin its entry resolves to when saved; a removal (`null`) removes the
   * slot for every origin. Callers check `unbound` first: a value with no origin to bind to is refused.
   */
  async apply(changes: SecretChange[], originFor: (kind: string, id: string) => string | undefined): Promise<void> {
    for (const change of changes) {
      if (change.value === null) {
        for (const name of await this.secrets.list(`${change.slot}@`)) {
          if (parseBoundSecretName(name)?.slot === change.slot) await this.secrets.delete(name);
        }
        continue;
      }
      const origin = originFor(change.kind, change.id);
      if (origin) await this.secrets.set(boundSecretName(change.slot, origin), change.value);
    }
  }

  /** The first change that stores a value but whose entry resolves to no origin (no usable base URL). */
  static unbound(
    changes: SecretChange[],
    originFor: (kind: string, id: string) => string | undefined,
  ): SecretChange | undefined {
    return changes.find((change) => change.value !== null && !originFor(change.kind, change.id));
  }

  /** Binds keys saved before binding existed to the origin that was in force for them (once, at start). */
  async bindLegacy(originFor: (kind: string, id: string) => string | undefined): Promise<number> {
    let moved = 0;
    for (const name of await this.secrets.list("apiKey/")) {
      const match = LEGACY_API_KEY.exec(name);
      if (!match || parseBoundSecretName(name)) continue;
      const origin = originFor(match[1]!, match[2]!);
      const value = await this.secrets.get(name);
      if (!origin || value === undefined) continue;
      if ((await this.get(name, origin)) === undefined) await this.secrets.set(boundSecretName(name, origin), value);
      await this.secrets.delete(name);
      moved++;
    }
    return moved;
  }
}
