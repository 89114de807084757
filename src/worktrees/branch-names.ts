// Branch names for worktree chats (contract 7.6): `parley/<slug>` from the chat's title, made unique
// against the branches that exist. Pure; git's own `check-ref-format` still judges a name a user gave.

/** The branch namespace every worktree chat's branch lives in. */
export const BRANCH_PREFIX = "parley/";

const MAX_SLUG = 40;

/** A short, readable slug: lower-case words of the title joined by `-`; `chat` when nothing is left. */
export function slugOf(title: string): string {
  const words = title
    .normalize("NFKD")
    // The accents NFKD split off go, or "déjà" would become two words, "de ja".
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG) break;
    slug = next;
  }
  return slug || (words[0]?.slice(0, MAX_SLUG) ?? "") || "chat";
}

/** `parley/<slug>`, or with `-2`, `-3`… until it names no existing branch. */
export function freeBranchName(title: string, exists: (branch: string) => boolean): string {
  const base = `${BRANCH_PREFIX}${slugOf(title)}`;
  if (!exists(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!exists(candidate)) return candidate;
  }
}

/** A folder name for the worktree: the branch's last part and a short random suffix (never reused). */
export function folderNameOf(branch: string, random: string): string {
  const last = branch.split("/").pop() || "chat";
  return `${last.slice(0, MAX_SLUG)}-${random}`;
}
