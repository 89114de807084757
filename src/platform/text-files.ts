// Deciding what counts as a text file: the extension when it settles it, otherwise the content.

const TEXT_EXTENSIONS = new Set(
  (
    "ts tsx js jsx mjs cjs mts cts json jsonc json5 md mdx markdown txt rst adoc css scss sass less html htm xml svg yaml yml toml ini cfg conf env " +
    "py pyi rb go rs java kt kts scala clj cljs ex exs erl hrl hs ml mli fs fsx cs vb c h cc cpp cxx hpp hh m mm swift dart lua php pl pm r jl " +
    "sh bash zsh fish ps1 bat cmd sql graphql gql proto thrift vue svelte astro elm nim zig v sv vhd vhdl tf hcl gradle properties lock csv tsv " +
    "tex bib org diff patch gitignore gitattributes editorconfig npmrc nvmrc dockerignore eslintrc prettierrc babelrc log"
  ).split(" "),
);

const BINARY_EXTENSIONS = new Set(
  (
    "png jpg jpeg gif webp bmp ico icns tif tiff psd heic avif pdf zip gz tgz bz2 xz zst 7z rar tar jar war ear class dll exe so dylib a o obj lib " +
    "bin dat db sqlite sqlite3 wasm node pyc pyo whl egg mp3 mp4 m4a wav ogg flac aac webm mov avi mkv woff woff2 ttf otf eot doc docx xls xlsx ppt pptx " +
    "odt ods key pages numbers sketch fig blend fbx glb gltf dmg iso img pkg deb rpm apk ipa"
  ).split(" "),
);

const TEXT_NAMES = new Set([
  "makefile",
  "dockerfile",
  "license",
  "licence",
  "readme",
  "changelog",
  "authors",
  "contributing",
  "gemfile",
  "rakefile",
  "procfile",
  "vagrantfile",
  "jenkinsfile",
  "codeowners",
]);

/** true/false when the name decides; undefined when the content has to be looked at. */
export function textByName(name: string): boolean | undefined {
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf(".");
  const ext = dot > 0 ? lower.slice(dot + 1) : dot === 0 ? lower.slice(1) : "";
  if (BINARY_EXTENSIONS.has(ext)) return false;
  if (TEXT_EXTENSIONS.has(ext) || TEXT_NAMES.has(dot > 0 ? lower.slice(0, dot) : lower)) return true;
  return undefined;
}

/** Git's rule of thumb: a NUL byte in the first few kilobytes means binary. */
export function looksLikeText(head: Uint8Array): boolean {
  return !head.includes(0);
}
