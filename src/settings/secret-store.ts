// Where credentials live. Everything secret goes through this interface and nowhere else:
// not the database, not `.app.json`, not a log. VS Code uses SecretStorage; `parley serve` a 0600 file.
import fs from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../platform/atomic-write";
import { KeyedMutex } from "../platform/keyed-mutex";
import { FileSnapshots } from "../platform/file-snapshot";

export interface SecretStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
  /** Names (never values) that start with `prefix`. */
  list(prefix: string): Promise<string[]>;
}

export const SECRETS_FILE_NAME = "secrets.json";

/** Standalone store: a JSON map in `<home>/secrets.json`, readable by the owner only. */
export class FileSecretStore implements SecretStore {
  private readonly file: string;
  private readonly lock = new KeyedMutex();
  private readonly snapshots = new FileSnapshots<Record<string, string>>();

  constructor(home: string) {
    this.file = path.join(home, SECRETS_FILE_NAME);
  }

  async get(name: string): Promise<string | undefined> {
    return (await this.readAll())[name];
  }

  async set(name: string, value: string): Promise<void> {
    await this.change((all) => ({ ...all, [name]: value }));
  }

  async delete(name: string): Promise<void> {
    await this.change((all) => {
      const { [name]: _removed, ...rest } = all;
      return rest;
    });
  }

  async list(prefix: string): Promise<string[]> {
    return Object.keys(await this.readAll()).filter((name) => name.startsWith(prefix));
  }

  private async change(edit: (all: Record<string, string>) => Record<string, string>): Promise<void> {
    await this.lock.run("file", async () => {
      const next = edit(await this.readAll());
      await writeFileAtomic(this.file, JSON.stringify(next), 0o600);
      await fs.chmod(this.file, 0o600);
    });
  }

  /** Read-only view of the whole map (re-read only when the file changed). */
  private async readAll(): Promise<Record<string, string>> {
    return (
      (await this.snapshots.read(this.file, (text) => {
        const parsed: unknown = JSON.parse(text);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
          throw new Error(`${SECRETS_FILE_NAME} is damaged; it was left untouched`);
        }
        return parsed as Record<string, string>;
      })) ?? {}
    );
  }
}
