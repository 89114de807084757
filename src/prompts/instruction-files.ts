// What the effective chat may inject: agent files (AGENTS.md and the like, named by the project's
// `agentFileNames`) and skills (`.agents/skills/*/SKILL.md`, described by their front matter).
import { statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { readFrontMatter } from "../platform/front-matter";
import type { InstructionSources } from "../shared/tools";
import type { ProjectSnapshot } from "../projects/project-snapshot";
import { readExistingFiles, type ReferencedFile } from "../chat/referenced-files";

export const SKILLS_DIR = ".agents/skills";
const MAX_SKILLS = 100;

export type Skill = { name: string; description: string; path: string };

/** The agent files that exist, read safely from inside the project; missing ones are skipped. */
/** At most this many agent files are read per turn: a hostile `.app.json` cannot fan out thousands of reads. */
export const MAX_AGENT_FILES = 32;

export async function readAgentFiles(projectDir: string, names: readonly string[]): Promise<ReferencedFile[]> {
  // Each name once (a file named twice is injected once), and a bounded number of them.
  const unique = [...new Set(names)].slice(0, MAX_AGENT_FILES);
  // Not there, not a file, or outside the project: nothing to inject for that name.
  return readExistingFiles(projectDir, unique).catch(() => []);
}

export async function scanSkills(projectDir: string): Promise<Skill[]> {
  const root = path.join(projectDir, SKILLS_DIR);
  // Most projects have no skills: a synchronous check spares every turn a failing readdir. A folder
  // that cannot be read (a symlink loop, no permission) has no skills either.
  if (!isDirectory(root)) return [];
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  const skills: Skill[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || skills.length >= MAX_SKILLS) continue;
    const relPath = `${SKILLS_DIR}/${entry.name}/SKILL.md`;
    const [file] = await readAgentFiles(projectDir, [relPath]);
    if (!file) continue;
    const { data } = readFrontMatter(file.content);
    skills.push({
      name: typeof data.name === "string" && data.name.trim() ? data.name.trim() : entry.name,
      description: typeof data.description === "string" ? data.description.trim() : "",
      path: relPath,
    });
  }
  return skills;
}

/** What the preset editor lists under "Agent files" and "Skills": the ones that exist, and the master switches. */
export async function instructionSources(snapshot: ProjectSnapshot): Promise<InstructionSources> {
  const { project, settings } = snapshot;
  const names = settings.agentFileNames ?? ["AGENTS.md"];
  const [files, skills] = await Promise.all([readAgentFiles(project.dir, names), scanSkills(project.dir)]);
  return {
    agentFiles: { enabled: settings.agentFiles !== false, names: [...names], files: files.map((f) => f.path) },
    skills: { enabled: settings.skills !== false, items: skills },
  };
}

export function agentFilesMessage(files: ReferencedFile[]): string {
  return ["Project instructions (agent files):", ...files.map((f) => `\n## ${f.path}\n\n${f.content.trim()}`)].join(
    "\n",
  );
}

export function skillsMessage(skills: Skill[]): string {
  return [
    "Skills available in this project. Before you use one, read its SKILL.md for the full instructions.",
    ...skills.map((s) => `- ${s.name}${s.description ? `: ${s.description}` : ""} (${s.path})`),
  ].join("\n");
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}
