// What a sandboxed command never sees (contract 7.5): Parley's home, the user's credential folders
// and files, browser profiles, and the paths the settings add. The list names well-known places;
// whatever of it exists on this machine is hidden, the rest is skipped. Pure.
import path from "node:path";

/** Credentials and keys under the user's home, on every platform. */
const CREDENTIALS = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".kube",
  ".docker",
  ".netrc",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".gem/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  // Git pushes with these: the `store` helper's plain-text file and the GitHub CLI's token.
  ".git-credentials",
  ".config/git/credentials",
  ".config/gh",
  ".config/hub",
  ".password-store",
  ".vault-token",
  ".terraform.d/credentials.tfrc.json",
  ".local/share/keyrings",
];

/** Browser profiles (cookies, saved passwords, session tokens). */
const BROWSER_PROFILES_LINUX = [
  ".mozilla",
  ".config/google-chrome",
  ".config/google-chrome-beta",
  ".config/chromium",
  ".config/BraveSoftware",
  ".config/microsoft-edge",
  ".config/vivaldi",
  ".config/opera",
  "snap/firefox",
  "snap/chromium",
  ".var/app/org.mozilla.firefox",
  ".var/app/com.google.Chrome",
  ".var/app/org.chromium.Chromium",
  ".var/app/com.brave.Browser",
];

const BROWSER_PROFILES_MACOS = [
  "Library/Application Support/Google/Chrome",
  "Library/Application Support/Chromium",
  "Library/Application Support/BraveSoftware",
  "Library/Application Support/Microsoft Edge",
  "Library/Application Support/Firefox",
  "Library/Safari",
  "Library/Cookies",
  "Library/Keychains",
];

export type HiddenPathsInput = {
  /** The user's home folder (`os.homedir()`). */
  userHome: string;
  /** Parley's home (its database, secrets, logs): the one this server uses. */
  appHome: string;
  /** Other places a Parley home may be (`APP_HOME`, the default `~/.app`), hidden too. */
  otherAppHomes?: readonly string[];
  platform: NodeJS.Platform;
  /** `sandbox.hide` from the settings: absolute paths. */
  extra?: readonly string[];
};

/** Every path to hide, absolute, without duplicates, in a stable order (built-ins first). */
export function hiddenPaths(input: HiddenPathsInput): string[] {
  const inHome = [...CREDENTIALS, ...(input.platform === "darwin" ? BROWSER_PROFILES_MACOS : BROWSER_PROFILES_LINUX)];
  const all = [
    input.appHome,
    ...(input.otherAppHomes ?? []),
    ...inHome.map((relative) => path.join(input.userHome, relative)),
    ...(input.extra ?? []),
  ];
  return [...new Set(all.map((p) => path.resolve(p)))];
}
