// Projects: a directory becomes a project on first use; ids are stable across restarts.
import fs from "node:fs/promises";
import path from "node:path";
import { invalid, notFound } from "../platform/app-error";
import type { ProjectRow, ProjectsRepo } from "./projects-repo";
import { removeStaleTemps } from "../platform/atomic-write";
import { projectFilePath } from "../settings/project-file";
import type { EventBus } from "../platform/event-bus";

/** How often opening a project looks for temporaries that interrupted writes left behind. */
const TEMP_SWEEP_INTERVAL_MS = 60_000;

export class ProjectRegistry {
  private readonly lastSweep = new Map<string, number>();

  constructor(
    private readonly repo: ProjectsRepo,
    private readonly events: EventBus,
  ) {}

  /** Validates a `projectDir` as the contract demands (absolute, existing directory) and registers it. */
  async resolveDir(raw: unknown): Promise<ProjectRow> {
    return (await this.register(raw)).project;
  }

  /** Like resolveDir, and says whether this call created the project. */
  async register(raw: unknown): Promise<{ project: ProjectRow; created: boolean }> {
    const dir = await validDir(raw);
    const { project, created } = this.repo.ensure(dir);
    if (created) this.events.publish({ type: "projects.changed", data: { projectId: project.id } });
    await this.sweepTemps(project);
    return { project, created };
  }

  /** Every opening of a project clears stale `.app.json` temporaries, at most once a minute per project. */
  private async sweepTemps(project: ProjectRow): Promise<void> {
    const now = Date.now();
    if (now - (this.lastSweep.get(project.id) ?? -Infinity) < TEMP_SWEEP_INTERVAL_MS) return;
    this.lastSweep.set(project.id, now);
    await removeStaleTemps(projectFilePath(project.dir));
  }

  /**
   * For reads (GET): the project at `projectDir` as it is, never registering it and never writing. An
   * unregistered folder gets a row of its own that is not stored (`unregistered:<dir>`): it has no chats
   * and its settings are its `.app.json`.
   */
  async lookup(raw: unknown): Promise<ProjectRow> {
    const dir = await validDir(raw);
    return this.repo.byDir(dir) ?? { id: `${UNREGISTERED_PREFIX}${dir}`, dir, createdAt: "" };
  }

  byIdOrUndefined(id: string): ProjectRow | undefined {
    return this.repo.byId(id);
  }

  byId(id: string): ProjectRow {
    const project = this.repo.byId(id);
    if (!project) throw notFound(`no project with id ${id}`);
    return project;
  }

  list(): ProjectRow[] {
    return this.repo.list();
  }
}

/** Ids of folders read but not registered; no stored id has this form. */
export const UNREGISTERED_PREFIX = "unregistered:";

/** The contract's `projectDir`: an absolute path to an existing directory, canonical (links resolved). */
async function validDir(raw: unknown): Promise<string> {
  if (typeof raw !== "string" || raw.length === 0) throw invalid("projectDir is required");
  if (!path.isAbsolute(raw)) throw invalid("projectDir must be an absolute path");
  return canonicalDir(raw);
}

async function canonicalDir(dir: string): Promise<string> {
  try {
    const real = await fs.realpath(dir);
    if ((await fs.stat(real)).isDirectory()) return real;
  } catch {
    // Reported below without echoing the path back.
  }
  throw invalid("projectDir must name an existing directory");
}
