// The composition root: opens the stores and builds the services one Parley process shares.
// Both `parley serve` and the VS Code extension start from here; only the secret store differs.
import path from "node:path";
import { randomBytes } from "node:crypto";
import { builtInDefaults } from "../core/settings-defaults";
import { openDatabase, type Db } from "../store/db";
import { AppKvRepo } from "../store/app-kv-repo";
import { AppSettingsStore } from "../store/app-settings-store";
import { ProjectsRepo } from "../store/projects-repo";
import { ProjectSettingsRepo } from "../store/project-settings-repo";
import { SessionsRepo } from "../store/sessions-repo";
import { FileSecretStore, type SecretStore } from "../store/secret-store";
import { EventBus } from "../services/event-bus";
import { ProjectRegistry } from "../services/project-registry";
import { SettingsService } from "../services/settings-service";
import type { Logger } from "../services/logger";

export type RuntimeOptions = {
  home: string;
  log: Logger;
  /** Defaults to the 0600 file store under `home`. */
  secrets?: SecretStore;
  /** APP_GATEWAY_BASE_URL; the provider setting `baseUrl` still wins. */
  gatewayBaseUrl?: string;
  /** Access token for this start; random when absent. */
  token?: string;
};

export type Runtime = {
  home: string;
  token: string;
  db: Db;
  log: Logger;
  events: EventBus;
  secrets: SecretStore;
  sessions: SessionsRepo;
  appStore: AppSettingsStore;
  projects: ProjectRegistry;
  settings: SettingsService;
  close(): void;
};

export const DATABASE_FILE_NAME = "store.sqlite";

export function createRuntime(options: RuntimeOptions): Runtime {
  const databaseFile = path.join(options.home, DATABASE_FILE_NAME);
  const db = openDatabase(databaseFile);
  const events = new EventBus();
  const secrets = options.secrets ?? new FileSecretStore(options.home);
  const appStore = new AppSettingsStore(new AppKvRepo(db), (line) => options.log.warn(line));
  const projects = new ProjectRegistry(new ProjectsRepo(db), events);
  const settings = new SettingsService({
    app: appStore,
    projectRows: new ProjectSettingsRepo(db),
    secrets,
    events,
    defaults: builtInDefaults({ gatewayBaseUrl: options.gatewayBaseUrl }),
    databaseFile,
  });
  // Quarantine damaged app settings at start, so the stderr line shows up when the user looks.
  appStore.read();
  return {
    home: options.home,
    token: options.token ?? randomBytes(32).toString("base64url"),
    db,
    log: options.log,
    events,
    secrets,
    sessions: new SessionsRepo(db),
    appStore,
    projects,
    settings,
    close: () => db.close(),
  };
}
