// Parley's secret store inside VS Code: SecretStorage (the OS keyring), under Parley's own names.
// SecretStorage cannot list what it holds, so the names (never the values) are kept in an index entry.
import type * as vscode from "vscode";
import type { SecretStore } from "../settings/secret-store";
import { KeyedMutex } from "../platform/keyed-mutex";

const PREFIX = "parley/";
const INDEX = `${PREFIX}__index`;

export class VscodeSecretStore implements SecretStore {
  private readonly lock = new KeyedMutex();

  constructor(private readonly storage: Pick<vscode.SecretStorage, "get" | "store" | "delete">) {}

  async get(name: string): Promise<string | undefined> {
    return (await this.storage.get(PREFIX + name)) ?? undefined;
  }

  async set(name: string, value: string): Promise<void> {
    await this.lock.run("index", async () => {
      await this.storage.store(PREFIX + name, value);
      const names = await this.names();
      if (!names.includes(name)) await this.storage.store(INDEX, JSON.stringify([...names, name]));
    });
  }

  async delete(name: string): Promise<void> {
    await this.lock.run("index", async () => {
      await this.storage.delete(PREFIX + name);
      const names = await this.names();
      if (names.includes(name)) await this.storage.store(INDEX, JSON.stringify(names.filter((n) => n !== name)));
    });
  }

  async list(prefix: string): Promise<string[]> {
    const names = await this.names();
    const present = await Promise.all(
      names.map(async (name) => ((await this.storage.get(PREFIX + name)) === undefined ? undefined : name)),
    );
    return present.filter((name): name is string => name !== undefined && name.startsWith(prefix));
  }

  private async names(): Promise<string[]> {
    try {
      const parsed: unknown = JSON.parse((await this.storage.get(INDEX)) ?? "[]");
      return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === "string") : [];
    } catch {
      return [];
    }
  }
}
